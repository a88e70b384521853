#include "keel/world/physics_world.h"

#include "keel/core/log.h"
#include "keel/world/world.h"

namespace keel::world {

namespace {
PhysicsConfig with_world(PhysicsConfig config, World& world) {
  config.entity_alive = [&world](Entity e) { return world.alive(e); };
  return config;
}
}  // namespace

PhysicsSystem::PhysicsSystem(World& world, PhysicsConfig config, CollisionFilters filters)
    : world_(world), physics_(with_world(std::move(config), world), filters) {
  world_.track_state<Body>();  // Body components join the world's hash and saves
  kill_listener_ = world_.on_kill([this](World&, Entity e) { physics_.remove_body(e); });
}

PhysicsSystem::~PhysicsSystem() { world_.unsubscribe(kill_listener_); }

Status PhysicsSystem::add(Entity entity, const BodyDef& def) {
  if (Status st = physics_.add_body(entity, def); !st) return st;
  world_.create<Body>(entity, Body{def});
  if (world_.get<Transform>(entity) == nullptr) world_.create<Transform>(entity, def.start);
  return {};
}

bool PhysicsSystem::remove(Entity entity) {
  if (!physics_.remove_body(entity)) return false;
  world_.remove<Body>(entity);
  return true;
}

void PhysicsSystem::match_components() {
  ComponentStore<Body>& bodies = world_.store<Body>();
  // b2Bodys whose component ended (removed, or its entity destroyed without a kill listener).
  const std::span<const Entity> simulated = physics_.entities();
  for (usize i = simulated.size(); i-- > 0;) {
    const Entity e = physics_.entities()[i];
    if (!bodies.contains(e)) physics_.remove_body(e);
  }
  if (bodies.size() == physics_.body_count()) return;
  // Body components made with World::create<Body>: their b2Bodys, in store order.
  for (u32 d = 0; d < bodies.size(); ++d) {
    const Entity e = bodies.entities()[d];
    if (physics_.has_body(e)) continue;
    const BodyDef def = bodies.at_dense(d).def;
    if (Status st = physics_.add_body(e, def); !st) {
      KEEL_LOG_WARN(log::Channel::kApp, "PhysicsSystem: entity {}:{:#x}'s Body is refused: {}",
                    e.index, e.generation, st.error().message());
      world_.remove<Body>(e);
      continue;
    }
    if (world_.get<Transform>(e) == nullptr) world_.create<Transform>(e, def.start);
  }
}

void PhysicsSystem::write_transforms() {
  ComponentStore<Transform>& store = world_.store<Transform>();
  const std::span<const Entity> entities = physics_.entities();
  const std::span<const Transform> transforms = physics_.transforms();
  for (usize i = 0; i < entities.size(); ++i) {
    if (Transform* t = store.find(entities[i])) {
      *t = transforms[i];
    } else {
      store.emplace(entities[i], transforms[i]);
    }
  }
}

u32 PhysicsSystem::update(f64 dt) {
  match_components();
  const u32 steps = physics_.advance(dt);
  write_transforms();
  for (const ContactEvent& c : physics_.contacts()) world_.emit(c);
  return steps;
}

}  // namespace keel::world
