// The Body component and PhysicsSystem: Physics (physics.h) attached to a World's entities.
//
//   World world;
//   PhysicsSystem physics(world, {.fixed_dt = 1.0f / 60}, *collision_filters(table));
//   Entity ship = world.create();
//   physics.add(ship, BodyDef{.group = spatial::kAllies, .shape = ShapeDef::circle(10)});
//   // or: world.create<Body>(ship, Body{def}); the next update() makes its b2Body
//   world.on<ContactEvent>([](World& w, const ContactEvent& c) { ... });   // at the flush
//   physics.update(frame_dt);   // steps; writes every body's Transform; emits contacts
//   world.flush();              // contact events delivered; killed entities lose their bodies
//
// A Body component says "this entity is simulated"; its b2Body lives in the Physics (dense, in
// step with the component store). update() first matches the two: a Body whose b2Body is missing
// gets one (a definition Physics refuses removes the component, with a warning), a b2Body whose
// Body component ended is destroyed. Killed entities lose their bodies in the World's flush
// (an on_kill listener: never inside a Box2D callback). Replacing a Body component with
// create<Body> does not change the b2Body: remove it and add it again.
//
// Saves: the constructor tracks Body in the world (World::track_state), so World::save keeps
// the components; the b2Bodys travel in a PhysicsState (physics_state.h) in the same session.
// Restore the World first, then Physics::restore (its entity checks ask the restored world).
#pragma once

#include "keel/core/error.h"
#include "keel/core/types.h"
#include "keel/world/listeners.h"
#include "keel/world/physics.h"
#include "keel/world/physics_types.h"

namespace keel::world {

class World;

struct Body {
  BodyDef def;
};

class PhysicsSystem {
 public:
  // config.entity_alive is replaced by the world's liveness.
  PhysicsSystem(World& world, PhysicsConfig config, CollisionFilters filters);
  ~PhysicsSystem();
  PhysicsSystem(const PhysicsSystem&) = delete;
  PhysicsSystem& operator=(const PhysicsSystem&) = delete;

  // A Body component, its b2Body and (if missing) a Transform at def.start. Errors: as
  // Physics::add_body (dead entity, a body already, bad definitions).
  Status add(Entity entity, const BodyDef& def);
  // Destroys the b2Body now and removes the Body component at the next flush. False without one.
  bool remove(Entity entity);

  // Matches Body components and b2Bodys (above), advances the fixed step by dt, writes every
  // body's Transform component and emits each contact as a ContactEvent (World::emit: delivered
  // at the next flush). Returns the fixed steps run.
  u32 update(f64 dt);
  // A body's transform between the last two steps at the current alpha, for drawing.
  Transform interpolated(Entity entity) const {
    return physics_.interpolated(entity, physics_.alpha());
  }

  Physics& physics() { return physics_; }
  const Physics& physics() const { return physics_; }

 private:
  void match_components();
  void write_transforms();

  World& world_;
  Physics physics_;
  ListenerId kill_listener_;
};

}  // namespace keel::world
