// keel::world::Physics: Box2D 2.4 bodies for entities (Citizen's Body component), stepped at a
// fixed rate, with contact events, group filtering, turret joints, a state hash and saves.
//
//   auto filters = collision_filters(spatial::citizen_group_table());   // Result: <= 16 groups
//   Physics physics({.fixed_dt = 1.0f / 60}, *filters);
//   physics.add_body(ship, {.group = spatial::kAllies, .shape = ShapeDef::circle(10)});
//   physics.attach_turret(gun, ship, {.ship_anchor = {4, 0}, .max_motor_torque = 500});
//   physics.steer(ship, {.desired_velocity = {30, 0}, .limits = {.max_force = 400}});
//   physics.advance(frame_dt);                  // whole fixed steps; the rest stays for later
//   for (const ContactEvent& e : physics.contacts()) ...   // after the step, never during it
//   Transform t = physics.interpolated(ship, physics.alpha());   // for drawing
//
// One body per entity; the entity names it in every call. Box2D's callbacks only append to a
// queue: game code runs after the step (contacts()). Steering commands stand until changed: each
// step applies steering_force() of the body's current state (physics_steering.h).
//
// Determinism: one Physics stepped with the same calls gives the same state_hash() on every
// run (Box2D is deterministic on one build and thread). Box2D keeps caches it cannot save
// (contact warm-starting impulses, sleep timers, broad-phase tree shape), so a restored world
// cannot continue exactly like one that went on. The rule here is rebuild on save:
// save_state() rebuilds the b2World from the state it returns, and restore() builds from the
// same state, so the saved run and the restored run continue from identical b2Worlds (and the
// same hash). Contacts touching at the save are kept in the state: the first step after a rebuild
// reports only real changes against them, not a Begin for every resting contact.
#pragma once

#include "keel/core/error.h"
#include "keel/core/types.h"
#include "keel/spatial/group_culling.h"
#include "keel/world/entity.h"
#include "keel/world/physics_types.h"
#include "keel/world/transform.h"

#include <array>
#include <functional>
#include <memory>
#include <span>
#include <vector>

class b2Body;
class b2World;

namespace keel::world {

class PhysicsState;

namespace detail {
class ContactQueue;
}

// Box2D filters (category bit, mask of categories it collides with) for groups 0..15, made
// from a group table. A table allowing any pair that involves a group above 15 is refused.
struct CollisionFilters {
  std::array<u16, kMaxPhysicsGroups> mask{};
};
Result<CollisionFilters> collision_filters(const spatial::GroupTable& table);

// The checks add_body() makes of a body definition (type, group, shape, materials, start
// transform, flag bytes): for code that restores definitions from a file (a Body component of a
// saved world) and refuses the file rather than lose the body.
Status check_body_def(const BodyDef& def);

struct PhysicsConfig {
  Vec2 gravity{};  // units / s^2; space: none
  f32 fixed_dt = 1.0f / 60;
  s32 velocity_iterations = 8;
  s32 position_iterations = 3;
  u32 max_steps_per_advance = 8;  // advance() drops whole steps beyond this (counted)
  bool allow_sleep = true;
  // Whether an entity may get a body (the World's liveness); empty: any non-null entity.
  std::function<bool(Entity)> entity_alive{};
};

class Physics {
 public:
  // Invalid config values (fixed_dt <= 0, iterations < 1) assert and fall back to the defaults.
  Physics(PhysicsConfig config, CollisionFilters filters);
  ~Physics();
  Physics(const Physics&) = delete;
  Physics& operator=(const Physics&) = delete;

  // --- bodies ----------------------------------------------------------------------------------
  // Errors: null or dead entity (or an index of 2^24 or more), an entity that already has a body, a
  // group >= 16, a zero or non-finite size, a degenerate polygon, negative
  // density/friction/damping, non-finite start.
  Status add_body(Entity entity, const BodyDef& def);
  // Destroys the body and its joints (their contacts end: an End event in the next delivery).
  // False when the entity has no body.
  bool remove_body(Entity entity);
  bool has_body(Entity entity) const { return dense_index(entity) != kNoBody; }
  usize body_count() const { return entities_.size(); }
  // The body's transform after the last step (or as added); null without a body.
  const Transform* transform(Entity entity) const;
  // previous + (current - previous) * alpha, the angle along the shorter arc; for drawing
  // between steps. A default Transform without a body.
  Transform interpolated(Entity entity, f32 alpha) const;
  // Mass (kg) and rotational inertia about the centre of mass (kg * units^2); 0 without a body
  // or for static and kinematic bodies.
  f32 mass(Entity entity) const;
  f32 inertia(Entity entity) const;
  // Moves a body (teleport; velocities kept). False without a body or for non-finite values.
  bool set_transform(Entity entity, const Transform& transform);
  // One step's impulse or a force for the next step, in world units. False without a body.
  bool apply_force(Entity entity, Vec2 force, f32 torque = 0);
  bool apply_impulse(Entity entity, Vec2 impulse);

  // Every body's entity and transform in the same (dense) order, for systems that copy them.
  std::span<const Entity> entities() const { return entities_; }
  std::span<const Transform> transforms() const { return current_; }

  // --- steering --------------------------------------------------------------------------------
  // A standing order applied before every step until cleared. False without a body or for
  // non-finite values.
  bool steer(Entity entity, const SteeringCommand& command);
  bool clear_steering(Entity entity);

  // --- turrets ---------------------------------------------------------------------------------
  // Hinges `turret`'s body to `ship`'s with a motor. Errors: either without a body, the same
  // entity twice, a turret already attached, non-finite or negative values.
  Status attach_turret(Entity turret, Entity ship, const TurretDef& def);
  bool detach_turret(Entity turret);
  bool set_turret_motor(Entity turret, f32 speed, f32 max_torque);
  // The turret's angle relative to its angle at attachment; 0 when not attached.
  f32 turret_angle(Entity turret) const;
  usize turret_count() const { return joints_.size(); }

  // --- stepping --------------------------------------------------------------------------------
  // One fixed step (fixed_dt): steering forces, b2World::Step, transforms read back (previous
  // kept for interpolation), contact events queued for contacts().
  void step();
  // Adds dt (seconds; negative or non-finite counts as 0) to the accumulator and runs every
  // whole step in it, at most max_steps_per_advance (the excess is dropped). Returns the steps.
  u32 advance(f64 dt);
  // Fraction of a step left in the accumulator, [0, 1): interpolation weight for drawing.
  f32 alpha() const;
  u64 steps() const { return steps_; }
  u64 dropped_steps() const { return dropped_steps_; }

  // Contact begin/end events since the previous delivery: step() and advance() deliver (every
  // step of one advance() together); the span is valid until the next delivery. Removing a body
  // reports its contacts' Ends in the next delivery.
  std::span<const ContactEvent> contacts() const { return events_; }

  // --- determinism and saves -------------------------------------------------------------------
  // XXH3 of every body's entity (index and generation without the world's salt, as
  // World::state_hash), position, angle and velocities (the b2Bodys' own bits, dense
  // order), the turrets' joint angles and the step count.
  u64 state_hash() const;
  // The whole simulation state as a savable object (physics_state.h); rebuilds this b2World from
  // it first (see above), so save points are where both runs rebuild.
  std::unique_ptr<PhysicsState> save_state();
  // Replaces the simulation with a saved state (all or nothing: a bad state changes nothing).
  // Errors name the record: dead or duplicate entities, invalid bodies, joints without bodies.
  Status restore(const PhysicsState& state);
  // save_state() without keeping the state: the same rebuild.
  void rebuild();

  const PhysicsConfig& config() const { return config_; }
  const CollisionFilters& filters() const { return filters_; }

 private:
  static constexpr u32 kNoBody = ~u32{0};
  static constexpr u32 kMaxEntityIndex = 1u << 24;  // bounds the entity -> body index table
  struct Turret {
    Entity turret;
    Entity ship;
    TurretDef def;
    f32 reference_angle = 0;
    void* joint = nullptr;  // b2RevoluteJoint
  };

  u32 dense_index(Entity entity) const;
  Status check_entity(Entity entity) const;
  b2Body* create_b2_body(Entity entity, const BodyDef& def, const Transform& at);
  void create_joint(Turret& turret);
  void apply_steering();
  void step_once();
  void deliver();
  void read_back();
  void reconcile_contacts();
  void capture(PhysicsState& state) const;
  Status check_state(const PhysicsState& state) const;
  void build_from(const PhysicsState& state);
  void reset_world();

  PhysicsConfig config_;
  CollisionFilters filters_;
  std::unique_ptr<detail::ContactQueue> queue_;
  std::unique_ptr<b2World> world_;
  // Dense body arrays (swap-remove) and entity index -> dense index + 1.
  std::vector<Entity> entities_;
  std::vector<b2Body*> bodies_;
  std::vector<BodyDef> defs_;
  std::vector<Transform> previous_;
  std::vector<Transform> current_;
  std::vector<SteeringCommand> steering_;
  std::vector<u8> steering_on_;
  std::vector<u32> sparse_;
  std::vector<Turret> joints_;  // attachment order
  std::vector<ContactEvent> events_;
  // After a rebuild: pairs touching at the save point, for the first step's reconciliation.
  std::vector<std::pair<Entity, Entity>> touching_before_;
  bool reconcile_ = false;
  f64 accumulator_ = 0;
  u64 steps_ = 0;
  u64 dropped_steps_ = 0;
};

}  // namespace keel::world
