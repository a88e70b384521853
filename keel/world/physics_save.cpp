// Physics: the state it saves, the rebuild from it, and restore() with its checks.
#include "keel/world/detail/physics_box2d.h"
#include "keel/world/physics.h"
#include "keel/world/physics_state.h"

#include <box2d/b2_body.h>
#include <box2d/b2_contact.h>
#include <box2d/b2_fixture.h>
#include <box2d/b2_world.h>

#include <algorithm>
#include <cmath>
#include <cstring>

namespace keel::world {

namespace {

using Pair = std::pair<Entity, Entity>;

bool pair_less(const PhysicsContactRecord& x, const PhysicsContactRecord& y) {
  if (x.a != y.a) return detail::entity_less(x.a, y.a);
  return detail::entity_less(x.b, y.b);
}

template <class T>
T zeroed() {  // padding bytes zero too: equal states save to equal bytes
  T value;
  std::memset(static_cast<void*>(&value), 0, sizeof value);
  return value;
}

Error at_record(const char* kind, usize index, const Error& e) {
  return Error(e.code(), fmt::format("physics state: {} {}: {}", kind, index, e.message()));
}

}  // namespace

void Physics::capture(PhysicsState& state) const {
  state.accumulator = accumulator_;
  state.steps = steps_;
  state.bodies.clear();
  state.bodies.reserve(bodies_.size());
  for (usize i = 0; i < bodies_.size(); ++i) {
    const b2Body* b = bodies_[i];
    auto r = zeroed<PhysicsBodyRecord>();
    r.entity = entities_[i];
    r.def = defs_[i];
    r.def.start.position = detail::from_b2(b->GetPosition());
    r.def.start.angle = b->GetAngle();
    r.def.start.velocity = detail::from_b2(b->GetLinearVelocity());
    r.def.start.angular_velocity = b->GetAngularVelocity();
    r.previous = previous_[i];
    r.steering = steering_[i];
    r.steering_on = steering_on_[i];
    r.awake = b->IsAwake() ? 1 : 0;
    state.bodies.push_back(r);
  }
  state.turrets.clear();
  for (const Turret& t : joints_) {
    auto r = zeroed<PhysicsTurretRecord>();
    r.turret = t.turret;
    r.ship = t.ship;
    r.def = t.def;
    r.reference_angle = t.reference_angle;
    state.turrets.push_back(r);
  }
  state.touching.clear();
  if (reconcile_) {  // rebuilt and not stepped since: Box2D has no contacts yet
    for (const Pair& p : touching_before_) state.touching.push_back({p.first, p.second});
    return;
  }
  for (b2Contact* c = world_->GetContactList(); c != nullptr; c = c->GetNext()) {
    if (!c->IsTouching()) continue;
    Entity a = detail::unpack_entity(c->GetFixtureA()->GetBody()->GetUserData().pointer);
    Entity b = detail::unpack_entity(c->GetFixtureB()->GetBody()->GetUserData().pointer);
    if (detail::entity_less(b, a)) std::swap(a, b);
    state.touching.push_back({a, b});
  }
  std::sort(state.touching.begin(), state.touching.end(), pair_less);
}

void Physics::build_from(const PhysicsState& state) {
  reset_world();
  entities_.clear();
  bodies_.clear();
  defs_.clear();
  previous_.clear();
  current_.clear();
  steering_.clear();
  steering_on_.clear();
  std::fill(sparse_.begin(), sparse_.end(), 0u);
  joints_.clear();
  for (const PhysicsBodyRecord& r : state.bodies) {
    b2Body* body = create_b2_body(r.entity, r.def, r.def.start);
    if (!r.awake) body->SetAwake(false);
    if (sparse_.size() <= r.entity.index) sparse_.resize(usize{r.entity.index} + 1, 0);
    sparse_[r.entity.index] = static_cast<u32>(entities_.size() + 1);
    entities_.push_back(r.entity);
    bodies_.push_back(body);
    defs_.push_back(r.def);
    previous_.push_back(r.previous);
    current_.push_back(r.def.start);
    steering_.push_back(r.steering);
    steering_on_.push_back(r.steering_on);
  }
  for (const PhysicsTurretRecord& r : state.turrets) {
    Turret t{r.turret, r.ship, r.def, r.reference_angle, nullptr};
    create_joint(t);
    joints_.push_back(t);
  }
  touching_before_.clear();
  for (const PhysicsContactRecord& c : state.touching) touching_before_.emplace_back(c.a, c.b);
  reconcile_ = true;
  accumulator_ = state.accumulator;
  steps_ = state.steps;
}

std::unique_ptr<PhysicsState> Physics::save_state() {
  auto state = std::make_unique<PhysicsState>();
  capture(*state);
  build_from(*state);
  return state;
}

void Physics::rebuild() {
  PhysicsState state;
  capture(state);
  build_from(state);
}

Status Physics::check_state(const PhysicsState& state) const {
  if (!std::isfinite(state.accumulator) || state.accumulator < 0)
    return fail(ErrorCode::kCorrupt, "physics state: accumulator {}", state.accumulator);
  std::vector<Entity> seen;
  seen.reserve(state.bodies.size());
  for (usize i = 0; i < state.bodies.size(); ++i) {
    const PhysicsBodyRecord& r = state.bodies[i];
    Status st = check_entity(r.entity);
    if (st) st = detail::check_body_def(r.def);
    if (st) st = detail::check_transform(r.previous, "the previous transform");
    if (st && (r.steering_on > 1 || r.awake > 1))
      st = fail(ErrorCode::kCorrupt, "flags {} / {} (0 or 1)", r.steering_on, r.awake);
    if (st && r.steering_on && !detail::steering_is_finite(r.steering))
      st = fail(ErrorCode::kCorrupt, "steering command is not finite");
    if (!st) return Unexpected(at_record("body", i, st.error()));
    seen.push_back(r.entity);
  }
  std::sort(seen.begin(), seen.end(), detail::entity_less);
  // One body per entity slot: two generations of one index cannot both be alive, and the
  // rebuilt world finds bodies by index (a second generation would hide the first, which a
  // turret could still name).
  if (std::adjacent_find(seen.begin(), seen.end(),
                         [](Entity a, Entity b) { return a.index == b.index; }) != seen.end())
    return fail(ErrorCode::kCorrupt, "physics state: an entity slot has two bodies");
  auto has = [&](Entity e) {
    return std::binary_search(seen.begin(), seen.end(), e, detail::entity_less);
  };
  std::vector<Entity> turrets;
  for (usize i = 0; i < state.turrets.size(); ++i) {
    const PhysicsTurretRecord& r = state.turrets[i];
    Status st = detail::check_turret_def(r.def);
    if (st && (!has(r.turret) || !has(r.ship) || r.turret == r.ship))
      st = fail(ErrorCode::kCorrupt, "turret and ship must be two bodies of the state");
    if (st && !std::isfinite(r.reference_angle))
      st = fail(ErrorCode::kCorrupt, "reference angle is not finite");
    if (!st) return Unexpected(at_record("turret", i, st.error()));
    turrets.push_back(r.turret);
  }
  std::sort(turrets.begin(), turrets.end(), detail::entity_less);
  if (std::adjacent_find(turrets.begin(), turrets.end()) != turrets.end())
    return fail(ErrorCode::kCorrupt, "physics state: a turret is attached twice");
  for (usize i = 0; i < state.touching.size(); ++i) {
    const PhysicsContactRecord& c = state.touching[i];
    if (!has(c.a) || !has(c.b) || !detail::entity_less(c.a, c.b) ||
        (i > 0 && !pair_less(state.touching[i - 1], c)))
      return fail(ErrorCode::kCorrupt,
                  "physics state: touching pair {} is not a sorted pair of the state's bodies", i);
  }
  return {};
}

Status Physics::restore(const PhysicsState& state) {
  if (world_->IsLocked()) return fail(ErrorCode::kRefused, "restore during a step");
  if (Status st = check_state(state); !st) return st;
  queue_->pending.clear();  // events of the world that is replaced
  events_.clear();
  build_from(state);
  return {};
}

}  // namespace keel::world
