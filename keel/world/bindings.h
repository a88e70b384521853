// Designers drive entities from data: Keel scripts and FSMs bound to entities.
//
// Scripts (keel/script). ScriptBindings adds four game commands to a CommandSet; a script runs
// for one entity (attach, or the `Script("name")` component of a definition):
//   SPAWN("fighter" [, dx, dy]);   spawn a definition at this entity's position (+ offset)
//   KILL();                        kill this entity (ends at the World's flush) and stop
//   GETPROP(variable, "health");   read a property of this entity (s32 or f32; missing reads 0)
//   SETPROP("health", value);      write it (an s32, or the f32 it already is)
//
//   script::CommandSet commands = script::default_commands();
//   world::ScriptBindings scripts(world, registry, defs);
//   scripts.add_commands(commands);                 // before the Machine is made
//   script::Machine vm(commands);  vm.add_library(library);
//   scripts.register_component(registry, vm);       // Script("fighter_ai") in definitions
//   each frame: vm.update(dt); world.flush();       // a killed entity's script is released
//
// FSMs (keel/fsm). FsmBindings gives each entity with an `Fsm("Fighter")` component an
// FsmInstance whose object is the entity; the functions it declares (Kill, and the game's own
// through entity_of) act on that entity:
//   world::FsmBindings brains(world, library, env);   // env's FunctionRegistry: declare_functions
//   brains.register_component(registry);
//   brains.event(ship, "hit");  each frame: brains.run();
#pragma once

#include "keel/core/error.h"
#include "keel/core/types.h"
#include "keel/fsm/environment.h"
#include "keel/fsm/functions.h"
#include "keel/fsm/instance.h"
#include "keel/fsm/library.h"
#include "keel/script/commands.h"
#include "keel/script/machine.h"
#include "keel/world/defs_spawn.h"
#include "keel/world/listeners.h"

#include <memory>
#include <string_view>
#include <unordered_map>

namespace keel::world {

// Opcodes of the world's script commands (fixed forever, like every game opcode).
inline constexpr script::Opcode kOpSpawn = 0x0180;
inline constexpr script::Opcode kOpKill = 0x0181;
inline constexpr script::Opcode kOpGetProp = 0x0182;
inline constexpr script::Opcode kOpSetProp = 0x0183;

// The script instance an entity runs (added by attach).
struct EntityScript {
  script::InstanceId instance;
};

class ScriptBindings {
 public:
  ScriptBindings(World& world, const SpawnRegistry& registry, const EntityDefs& defs);
  ~ScriptBindings();
  ScriptBindings(const ScriptBindings&) = delete;
  ScriptBindings& operator=(const ScriptBindings&) = delete;

  // Adds SPAWN, KILL, GETPROP, SETPROP. Errors: a name or opcode the set already has.
  Status add_commands(script::CommandSet& commands);
  // Starts `script` in `machine` for a live entity (replacing a script it runs). Errors: a dead
  // entity (kInvalidArgument), the Machine's (an unknown script: kNotFound).
  Result<script::InstanceId> attach(script::Machine& machine, Entity entity,
                                    std::string_view script);
  // The entity a script instance runs for (null for an instance not started by attach).
  Entity entity_of(const script::Machine& machine, script::InstanceId instance) const;
  // `Script("name")` in definitions: attach at spawn.
  void register_component(SpawnRegistry& registry, script::Machine& machine);
  usize size() const { return bound_.size(); }

  struct Bound;  // one entity's script (the instance's user pointer)

 private:
  void release(Entity e);

  World& world_;
  const SpawnRegistry& registry_;
  const EntityDefs& defs_;
  ListenerId on_kill_;
  std::unordered_map<u64, std::unique_ptr<Bound>> bound_;  // by entity
};

class FsmBindings {
 public:
  // `env` and `library` are borrowed; the functions the FSMs call must be declared in env's
  // FunctionRegistry (declare_functions adds the world's).
  FsmBindings(World& world, const fsm::FsmLibrary& library, fsm::Environment& env);
  ~FsmBindings();
  FsmBindings(const FsmBindings&) = delete;
  FsmBindings& operator=(const FsmBindings&) = delete;

  // "Kill": kills the instance's entity.
  static Status declare_functions(fsm::FunctionRegistry& functions);
  // The entity of an instance made here (inside an FSM function: entity_of(fsm)).
  static Entity entity_of(const fsm::FsmInstance& instance);

  // Gives a live entity an instance of the named (linked) FSM. Errors: a dead entity, an FSM
  // the library does not have (kNotFound), init's (missing functions).
  Result<fsm::FsmInstance*> attach(Entity entity, std::string_view fsm);
  fsm::FsmInstance* find(Entity entity);
  // Sends an event to the entity's FSM; kNotFound when it has none.
  fsm::EventResult event(Entity entity, std::string_view name);
  // Runs every live entity's FSM once ("state_run"), in attach order.
  void run();
  // `Fsm("name")` in definitions: attach at spawn.
  void register_component(SpawnRegistry& registry);
  usize size() const { return bound_.size(); }

  struct Bound;

 private:
  World& world_;
  const fsm::FsmLibrary& library_;
  fsm::Environment& env_;
  ListenerId on_kill_;
  std::vector<std::unique_ptr<Bound>> bound_;  // attach order; the dead are dropped at flush
};

}  // namespace keel::world
