// The running game inside a Sim (sim.h): everything a frame changes — the World and its
// systems (physics, steering), the AI (FSM instances, the script Machine), the waves chain, the
// score. A Sim keeps what is loaded once from the pack (definitions, effects, FSMs, scripts) and
// one Game; a quick-load builds a fresh Game, restores the save into it and swaps it in, so a
// failed load leaves the running game untouched. Internal to the simulation (sim*.cpp).
#pragma once

#include "sim.h"

#include "keel/core/color.h"
#include "keel/save/save_file.h"

#include <memory>
#include <utility>
#include <vector>

namespace keel::voidfarer {

class Game {
 public:
  // An enemy's state machine (FsmBindings owns it; valid while the entity lives).
  struct Brain {
    fsm::FsmInstance* fsm = nullptr;
  };
  // The script an entity runs (its name's hash): saves start it again by name.
  struct ScriptName {
    Hash name = 0;
  };
  // What an enemy does this frame (its FSM state's behaviours, or its script's outputs).
  struct Behaviour {
    bool seek = false;    // the fleet's goal
    bool charge = false;  // at the player, facing it
    bool flee = false;    // away from the player
    bool fire = false;    // trigger while the player is in range
    bool aim = false;     // face the player
    bool spin = false;    // turn on the spot
  };

  // The bit of each behaviour name in one FSM's behaviour word (0: the FSM has no such name).
  struct BehaviourBits {
    u32 seek = 0, charge = 0, flee = 0, fire = 0, aim = 0, spin = 0;
  };

  explicit Game(Sim& sim);
  ~Game();
  Game(const Game&) = delete;
  Game& operator=(const Game&) = delete;

  // Systems, components and listeners, no entities (a load fills it).
  Status init();
  // A new game: the player and the first wave.
  Status start();

  Status step(const Controls& controls);
  Controls autopilot() const;
  FrameSummary summary() const;
  Result<world::Entity> spawn(std::string_view definition, world::Vec2 at);
  void burst(world::Vec2 at, std::string_view effect = "blast");

  // sim_save.cpp: this game into a save session, and a save session into this (fresh, init()ed)
  // game; particles are staged into `particles` for the Sim to put back once all went well.
  Status save(save::SaveFile& file);
  struct StagedParticle {
    u32 pool = 0;
    world::Vec2 position, velocity;
    f32 age = 0, end_age = 0, size = 0;
    Rgba8 colour;
  };
  struct StagedParticles {
    u64 emitters_made = 0;
    std::vector<StagedParticle> particles;
  };
  Status load(save::SaveFile& file, StagedParticles& particles);

  // sim_ai.cpp
  void find_enemies();
  void steer_fleet();
  void run_brains();
  void run_scripts();
  void spin_enemies();
  void behave(world::Entity e, const world::Transform& t, const Behaviour& b);
  const world::Transform* live_player() const;
  const BehaviourBits& behaviour_bits(const fsm::FsmDef& def);

  void register_components();
  void connect_events();
  void apply_controls(const Controls& controls);
  void regenerate();
  void on_contact(world::Entity a, world::Entity b);
  void hit(world::Entity shot, world::Entity ship);
  void sound(std::string_view name, world::Vec2 at, f32 volume = 1);

  // Shared with the Sim (loaded once).
  const SimOptions& options_;
  const Abilities& abilities_;
  world::ParticleSystem& particles_;
  const world::EntityDefs& defs_;
  const fsm::FsmLibrary& fsms_;
  const std::vector<std::unique_ptr<script::Library>>& scripts_;
  const fsm::FunctionRegistry& functions_;
  const world::ChainDef& waves_;

  // Declaration order matters: the bindings subscribe to world_ (which must outlive them).
  world::World world_;
  world::PhysicsSystem physics_;
  world::SteeringSystem steering_;
  world::SpawnRegistry registry_;
  std::unique_ptr<fsm::Environment> fsm_env_;
  std::unique_ptr<world::FsmBindings> brains_;
  std::vector<world::Entity> brain_order_;  // entities with an FSM, in attach order (saves)
  script::CommandSet commands_ = script::default_commands();
  std::unique_ptr<world::ScriptBindings> script_bindings_;
  std::unique_ptr<script::Machine> vm_;
  std::unique_ptr<world::ChainRunner> chain_;
  world::Entity player_;
  world::Vec2 player_last_{0, 0};  // where the player was last seen (after its death too)
  std::vector<world::Vec2> enemy_positions_;
  std::vector<world::Entity> enemies_;
  std::vector<std::pair<world::Entity, f32>> headings_;  // spinning and aiming ships (this frame)
  std::vector<SoundEvent> sounds_;
  std::vector<std::pair<const fsm::FsmDef*, BehaviourBits>> behaviour_bits_;  // by FSM
  u64 frame_ = 0;
  u32 killed_ = 0;
  u64 score_ = 0;
  f32 hull_max_ = 0;
  u32 failed_shots_ = 0;
};

}  // namespace keel::voidfarer
