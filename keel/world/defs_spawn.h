// Spawning entities by definition name (defs.h) at run time. The registry maps component names
// to factories, so the game and every system register their own components; it is the only
// place that knows a component's fields:
//
//   world::SpawnRegistry registry;
//   registry.add<Health>("Health", [](const world::Params& p) {        // returns the component
//     return Health{.hp = p.number("hp", 100)};
//   });
//   registry.add("Body", [&](World& w, Entity e, const Params& p) -> Status {   // does anything
//     return physics.add_body(w, e, p.number("radius", 1), p.number("mass", 1));
//   });
//   Result<Entity> ship = world::spawn(world, registry, defs, "fighter", {100, 0});
//
// spawn() creates the entity with a Transform at the position, then runs the factories in
// definition order. Every component of the definition must have a factory: a missing one is an
// error before anything is created; a factory's error kills the new entity (at the next flush).
#pragma once

#include "keel/core/error.h"
#include "keel/core/types.h"
#include "keel/world/defs.h"
#include "keel/world/entity.h"
#include "keel/world/listeners.h"
#include "keel/world/world.h"

#include <concepts>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

namespace keel::world {

using ComponentFactory = std::function<Status(World&, Entity, const Params&)>;

class SpawnRegistry {
 public:
  // The general form. Registering a name again replaces its factory.
  void add(std::string_view component, ComponentFactory factory);

  // The typed form: `factory(const Params&)` returns the C that world.create<C> adds; or, when
  // the factory takes (World&, Entity, const Params&), it is the general form under C's name.
  template <typename C, typename F>
  void add(std::string_view component, F factory) {
    if constexpr (std::invocable<F&, World&, Entity, const Params&>) {
      add(component, ComponentFactory(std::move(factory)));
    } else {
      static_assert(std::is_invocable_r_v<C, F&, const Params&>,
                    "SpawnRegistry::add<C>: the factory takes (const Params&) and returns a C, "
                    "or takes (World&, Entity, const Params&) and returns Status");
      add(component, ComponentFactory([f = std::move(factory)](World& w, Entity e,
                                                               const Params& p) mutable -> Status {
            if (w.create<C>(e, f(p)) == nullptr) {
              return fail(ErrorCode::kInvalidArgument, "the entity is not alive");
            }
            return ok();
          }));
    }
  }

  bool has(std::string_view component) const { return find(component) != nullptr; }
  const ComponentFactory* find(std::string_view component) const;
  usize size() const { return factories_.size(); }
  // kNotFound naming every component of `def` that has no factory.
  Status check(const EntityDef& def) const;

 private:
  std::unordered_map<std::string, ComponentFactory> factories_;
};

// Factories for the plain components of components.h, reading the parameters the Entity
// handler's schema allows: Obstacle(group, radius), Target(), Gun(bullet, cooldown, speed,
// muzzle), Sprite(name, frame, size, colour, layer), HudElement(name, kind, position, size,
// colour), Audio(shoot, hit, die, engine, volume), Lifetime(seconds, kill). Names become
// StringIds (runtime_id). Body, Vehicle and Emitter are registered by their systems, Script and
// Fsm by the bindings (bindings.h).
void register_world_components(SpawnRegistry& registry);

class ParticleSystem;

// Factories for the components of the systems, reading the Entity handler's schema:
//   Body(shape "circle"|"box", type "dynamic"|"kinematic"|"static", radius, size, density or
//        mass (kg: density = mass / area), damping, angular_damping, friction, restitution,
//        fixed_rotation, bullet, group) -> a Body component starting at the entity's Transform
//        (the PhysicsSystem's next update makes its b2Body);
//   Vehicle(max_speed, mode "delicate"|"reckless", turn_rate, accel_rate, mass, the behaviour
//        weights seek ... avoidance, radius, neighbour_radius, separation_radius, slowing_radius,
//        look_ahead, max_prediction, face_target) -> a Vehicle; one on an entity that already
//        has a Body (write Body first) does not drive its Transform (drive_bodies, below);
//   Emitter(name, offset, angle, on, burst_on_shoot) -> an Emitter of the effect `name` of
//        `particles` (borrowed while the registry is used); an unknown effect is an error.
void register_system_components(SpawnRegistry& registry, ParticleSystem& particles);

// Spawns `def` at `position` (angle in radians). Errors: kNotFound for a definition or factory
// that does not exist, a factory's own error (prefixed with the component's name).
Result<Entity> spawn(World& world, const SpawnRegistry& registry, const EntityDef& def,
                     Vec2 position, f32 angle = 0);
Result<Entity> spawn(World& world, const SpawnRegistry& registry, const EntityDefs& defs,
                     std::string_view name, Vec2 position, f32 angle = 0);

// The bullet spawner: each Shoot event (components.h, emitted by tick_guns) spawns the gun's
// bullet definition (found by its StringId) at the muzzle, facing and moving with the event's
// velocity. Shots whose definition is not loaded or cannot be built are counted in `failed`
// (optional) and otherwise ignored: a game event must not stop the frame. The registry, the
// definitions and `failed` are borrowed for as long as the listener stays subscribed.
ListenerId connect_bullet_spawner(World& world, const SpawnRegistry& registry,
                                  const EntityDefs& defs, u32* failed = nullptr);

}  // namespace keel::world
