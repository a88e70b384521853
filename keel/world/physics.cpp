#include "keel/world/physics.h"

#include "keel/core/assert.h"
#include "keel/core/hash.h"
#include "keel/world/detail/physics_box2d.h"
#include "keel/world/physics_state.h"
#include "keel/world/physics_steering.h"

#include <box2d/b2_body.h>
#include <box2d/b2_circle_shape.h>
#include <box2d/b2_contact.h>
#include <box2d/b2_fixture.h>
#include <box2d/b2_polygon_shape.h>
#include <box2d/b2_revolute_joint.h>
#include <box2d/b2_world.h>

#include <algorithm>
#include <cmath>

namespace keel::world {

using detail::from_b2;
using detail::to_b2;

static_assert(sizeof(ShapeDef) == 4 + 4 + 8 + 8 * kMaxPolygonVertices, "ShapeDef: no padding");
static_assert(sizeof(BodyDef) == 4 + sizeof(ShapeDef) + 5 * 4 + sizeof(Transform),
              "BodyDef: no padding");

namespace {
constexpr f32 kM2 = kMetresPerUnit * kMetresPerUnit;  // square metres per square unit
b2RevoluteJoint* joint_of(void* p) { return static_cast<b2RevoluteJoint*>(p); }
}  // namespace

// --- shapes and filters ---------------------------------------------------------------------

ShapeDef ShapeDef::circle(f32 radius, Vec2 offset) {
  ShapeDef s;
  s.kind = ShapeKind::kCircle;
  s.radius = radius;
  s.offset = offset;
  return s;
}

ShapeDef ShapeDef::box(f32 half_width, f32 half_height) {
  const Vec2 v[4] = {{-half_width, -half_height},
                     {half_width, -half_height},
                     {half_width, half_height},
                     {-half_width, half_height}};
  return polygon(v);
}

ShapeDef ShapeDef::polygon(std::span<const Vec2> vertices) {
  ShapeDef s;
  s.kind = ShapeKind::kPolygon;
  s.vertex_count = static_cast<u8>(std::min(vertices.size(), kMaxPolygonVertices));
  std::copy_n(vertices.begin(), s.vertex_count, s.vertices.begin());
  return s;
}

Status check_body_def(const BodyDef& def) { return detail::check_body_def(def); }

Result<CollisionFilters> collision_filters(const spatial::GroupTable& table) {
  CollisionFilters filters;
  for (usize a = 0; a < spatial::kMaxGroups; ++a) {
    for (usize b = 0; b < spatial::kMaxGroups; ++b) {
      if (!table.allows(static_cast<spatial::GroupId>(a), static_cast<spatial::GroupId>(b)))
        continue;
      if (a >= kMaxPhysicsGroups || b >= kMaxPhysicsGroups)
        return fail(ErrorCode::kOutOfRange,
                    "group table lets groups {} and {} collide; Box2D has {} collision "
                    "categories (groups 0..{})",
                    a, b, kMaxPhysicsGroups, kMaxPhysicsGroups - 1);
      filters.mask[a] = static_cast<u16>(filters.mask[a] | (1u << b));
    }
  }
  return filters;
}

// --- construction ---------------------------------------------------------------------------

Physics::Physics(PhysicsConfig config, CollisionFilters filters)
    : config_(std::move(config)), filters_(filters), queue_(new detail::ContactQueue) {
  const PhysicsConfig defaults;
  if (!(std::isfinite(config_.fixed_dt) && config_.fixed_dt > 0)) {
    KEEL_ASSERT(false, "Physics: fixed_dt {} must be > 0", config_.fixed_dt);
    config_.fixed_dt = defaults.fixed_dt;
  }
  if (config_.velocity_iterations < 1 || config_.position_iterations < 1) {
    KEEL_ASSERT(false, "Physics: iterations {} / {} must be >= 1", config_.velocity_iterations,
                config_.position_iterations);
    config_.velocity_iterations = defaults.velocity_iterations;
    config_.position_iterations = defaults.position_iterations;
  }
  if (!(std::isfinite(config_.gravity.x) && std::isfinite(config_.gravity.y))) {
    KEEL_ASSERT(false, "Physics: gravity is not finite");
    config_.gravity = {};
  }
  if (config_.max_steps_per_advance == 0) config_.max_steps_per_advance = 1;
  reset_world();
}

Physics::~Physics() {
  if (world_) world_->SetContactListener(nullptr);
}

void Physics::reset_world() {
  if (world_) world_->SetContactListener(nullptr);  // ~b2World reports nothing; be sure
  world_ = std::make_unique<b2World>(to_b2(config_.gravity));
  world_->SetAllowSleeping(config_.allow_sleep);
  world_->SetContactListener(queue_.get());
}

// --- bodies ---------------------------------------------------------------------------------

u32 Physics::dense_index(Entity entity) const {
  if (entity.is_null() || entity.index >= sparse_.size()) return kNoBody;
  const u32 d = sparse_[entity.index];
  if (d == 0 || entities_[d - 1] != entity) return kNoBody;
  return d - 1;
}

Status Physics::check_entity(Entity entity) const {
  if (entity.is_null()) return fail(ErrorCode::kInvalidArgument, "null entity");
  if (entity.index >= kMaxEntityIndex)
    return fail(ErrorCode::kOutOfRange, "entity index {} (Physics takes indices below {})",
                entity.index, kMaxEntityIndex);
  if (config_.entity_alive && !config_.entity_alive(entity))
    return fail(ErrorCode::kNotFound, "entity {}:{:#x} is dead", entity.index, entity.generation);
  return {};
}

b2Body* Physics::create_b2_body(Entity entity, const BodyDef& def, const Transform& at) {
  b2BodyDef bd;
  bd.type = def.type == BodyType::kStatic      ? b2_staticBody
            : def.type == BodyType::kKinematic ? b2_kinematicBody
                                               : b2_dynamicBody;
  bd.position = to_b2(at.position);
  bd.angle = at.angle;
  bd.linearVelocity = to_b2(at.velocity);
  bd.angularVelocity = at.angular_velocity;
  bd.linearDamping = def.linear_damping;
  bd.angularDamping = def.angular_damping;
  bd.bullet = def.bullet;
  bd.fixedRotation = def.fixed_rotation;
  bd.allowSleep = config_.allow_sleep;
  bd.userData.pointer = detail::pack_entity(entity);
  b2Body* body = world_->CreateBody(&bd);

  b2CircleShape circle;
  b2PolygonShape polygon;
  b2FixtureDef fd;
  if (def.shape.kind == ShapeKind::kCircle) {
    circle.m_radius = def.shape.radius * kMetresPerUnit;
    circle.m_p = to_b2(def.shape.offset);
    fd.shape = &circle;
  } else {
    b2Vec2 points[kMaxPolygonVertices];
    for (usize i = 0; i < def.shape.vertex_count; ++i) points[i] = to_b2(def.shape.vertices[i]);
    polygon.Set(points, def.shape.vertex_count);
    fd.shape = &polygon;
  }
  fd.density = def.density / kM2;
  fd.friction = def.friction;
  fd.restitution = def.restitution;
  fd.filter.categoryBits = static_cast<u16>(1u << def.group);
  fd.filter.maskBits = filters_.mask[def.group];
  body->CreateFixture(&fd);
  return body;
}

Status Physics::add_body(Entity entity, const BodyDef& def) {
  if (Status st = check_entity(entity); !st) return st;
  if (has_body(entity))
    return fail(ErrorCode::kAlreadyExists, "entity {}:{:#x} already has a body", entity.index,
                entity.generation);
  if (Status st = detail::check_body_def(def); !st) return st;
  if (world_->IsLocked()) return fail(ErrorCode::kRefused, "add_body during a step");

  b2Body* body = create_b2_body(entity, def, def.start);
  if (sparse_.size() <= entity.index) sparse_.resize(usize{entity.index} + 1, 0);
  sparse_[entity.index] = static_cast<u32>(entities_.size() + 1);
  entities_.push_back(entity);
  bodies_.push_back(body);
  defs_.push_back(def);
  previous_.push_back(def.start);
  current_.push_back(def.start);
  steering_.push_back(SteeringCommand{});
  steering_on_.push_back(0);
  return {};
}

bool Physics::remove_body(Entity entity) {
  const u32 d = dense_index(entity);
  if (d == kNoBody || world_->IsLocked()) return false;
  for (usize j = joints_.size(); j-- > 0;) {
    if (joints_[j].turret == entity || joints_[j].ship == entity) detach_turret(joints_[j].turret);
  }
  world_->DestroyBody(bodies_[d]);  // ends its contacts: End events into the queue
  const u32 last = static_cast<u32>(entities_.size() - 1);
  if (d != last) {
    entities_[d] = entities_[last];
    bodies_[d] = bodies_[last];
    defs_[d] = defs_[last];
    previous_[d] = previous_[last];
    current_[d] = current_[last];
    steering_[d] = steering_[last];
    steering_on_[d] = steering_on_[last];
    sparse_[entities_[d].index] = d + 1;
  }
  sparse_[entity.index] = 0;
  entities_.pop_back();
  bodies_.pop_back();
  defs_.pop_back();
  previous_.pop_back();
  current_.pop_back();
  steering_.pop_back();
  steering_on_.pop_back();
  return true;
}

const Transform* Physics::transform(Entity entity) const {
  const u32 d = dense_index(entity);
  return d == kNoBody ? nullptr : &current_[d];
}

Transform Physics::interpolated(Entity entity, f32 alpha) const {
  const u32 d = dense_index(entity);
  if (d == kNoBody) return {};
  const Transform& a = previous_[d];
  const Transform& b = current_[d];
  Transform t = b;
  t.position = a.position + (b.position - a.position) * alpha;
  t.angle = a.angle + angle_difference(a.angle, b.angle) * alpha;
  return t;
}

f32 Physics::mass(Entity entity) const {
  const u32 d = dense_index(entity);
  return d == kNoBody ? 0.0f : bodies_[d]->GetMass();
}

f32 Physics::inertia(Entity entity) const {
  const u32 d = dense_index(entity);
  if (d == kNoBody) return 0.0f;
  const b2Body* b = bodies_[d];
  const f32 about_centre = b->GetInertia() - b->GetMass() * b->GetLocalCenter().LengthSquared();
  return std::max(about_centre, 0.0f) / kM2;
}

bool Physics::set_transform(Entity entity, const Transform& t) {
  const u32 d = dense_index(entity);
  if (d == kNoBody || !detail::check_transform(t, "transform") || world_->IsLocked()) return false;
  b2Body* b = bodies_[d];
  b->SetTransform(to_b2(t.position), t.angle);
  b->SetLinearVelocity(to_b2(t.velocity));
  b->SetAngularVelocity(t.angular_velocity);
  current_[d] = t;
  previous_[d] = t;
  return true;
}

bool Physics::apply_force(Entity entity, Vec2 force, f32 torque) {
  const u32 d = dense_index(entity);
  if (d == kNoBody || !detail::force_ok(force, torque)) return false;
  bodies_[d]->ApplyForceToCenter(to_b2(force), true);
  bodies_[d]->ApplyTorque(torque * kM2, true);
  return true;
}

bool Physics::apply_impulse(Entity entity, Vec2 impulse) {
  const u32 d = dense_index(entity);
  if (d == kNoBody || !detail::force_ok(impulse, 0)) return false;
  bodies_[d]->ApplyLinearImpulseToCenter(to_b2(impulse), true);
  return true;
}

// --- steering -------------------------------------------------------------------------------

bool Physics::steer(Entity entity, const SteeringCommand& command) {
  const u32 d = dense_index(entity);
  if (d == kNoBody || !detail::steering_is_finite(command)) return false;
  steering_[d] = command;
  steering_on_[d] = 1;
  bodies_[d]->SetAwake(true);
  return true;
}

bool Physics::clear_steering(Entity entity) {
  const u32 d = dense_index(entity);
  if (d == kNoBody) return false;
  steering_on_[d] = 0;
  return true;
}

void Physics::apply_steering() {
  const f32 dt = config_.fixed_dt;
  for (usize i = 0; i < bodies_.size(); ++i) {
    if (!steering_on_[i]) continue;
    b2Body* b = bodies_[i];
    if (b->GetType() != b2_dynamicBody) continue;
    Transform state;
    state.angle = b->GetAngle();
    state.velocity = from_b2(b->GetLinearVelocity());
    state.angular_velocity = b->GetAngularVelocity();
    const f32 m = b->GetMass();
    const f32 inertia =
        std::max(b->GetInertia() - m * b->GetLocalCenter().LengthSquared(), 0.0f) / kM2;
    const SteeringForce f = steering_force(state, m, inertia, steering_[i], dt);
    if (f.force.x != 0 || f.force.y != 0) b->ApplyForceToCenter(to_b2(f.force), true);
    if (f.torque != 0) b->ApplyTorque(f.torque * kM2, true);
  }
}

// --- turrets --------------------------------------------------------------------------------

void Physics::create_joint(Turret& t) {
  b2RevoluteJointDef jd;
  jd.bodyA = bodies_[dense_index(t.ship)];
  jd.bodyB = bodies_[dense_index(t.turret)];
  jd.localAnchorA = to_b2(t.def.ship_anchor);
  jd.localAnchorB = to_b2(t.def.turret_anchor);
  jd.referenceAngle = t.reference_angle;
  jd.enableMotor = t.def.max_motor_torque > 0;
  jd.maxMotorTorque = t.def.max_motor_torque * kM2;
  jd.motorSpeed = t.def.motor_speed;
  jd.enableLimit = t.def.limit_angle;
  jd.lowerAngle = t.def.lower_angle;
  jd.upperAngle = t.def.upper_angle;
  jd.collideConnected = false;
  t.joint = world_->CreateJoint(&jd);
}

Status Physics::attach_turret(Entity turret, Entity ship, const TurretDef& def) {
  const u32 dt = dense_index(turret);
  const u32 ds = dense_index(ship);
  if (dt == kNoBody || ds == kNoBody)
    return fail(ErrorCode::kNotFound, "attach_turret: the {} has no body",
                dt == kNoBody ? "turret" : "ship");
  if (turret == ship) return fail(ErrorCode::kInvalidArgument, "a turret cannot carry itself");
  for (const Turret& t : joints_) {
    if (t.turret == turret)
      return fail(ErrorCode::kAlreadyExists, "entity {}:{:#x} is already a turret", turret.index,
                  turret.generation);
  }
  if (Status st = detail::check_turret_def(def); !st) return st;
  if (world_->IsLocked()) return fail(ErrorCode::kRefused, "attach_turret during a step");
  Turret t{turret, ship, def, bodies_[dt]->GetAngle() - bodies_[ds]->GetAngle(), nullptr};
  create_joint(t);
  joints_.push_back(t);
  return {};
}

bool Physics::detach_turret(Entity turret) {
  auto it = std::find_if(joints_.begin(), joints_.end(),
                         [&](const Turret& t) { return t.turret == turret; });
  if (it == joints_.end() || world_->IsLocked()) return false;
  world_->DestroyJoint(joint_of(it->joint));
  joints_.erase(it);  // keeps the attachment order (saves rebuild in it)
  return true;
}

bool Physics::set_turret_motor(Entity turret, f32 speed, f32 max_torque) {
  if (!std::isfinite(speed) || std::abs(speed) > kMaxSpeed || !std::isfinite(max_torque) ||
      max_torque < 0 || max_torque > kMaxForce)
    return false;
  for (Turret& t : joints_) {
    if (t.turret != turret) continue;
    t.def.motor_speed = speed;
    t.def.max_motor_torque = max_torque;
    b2RevoluteJoint* j = joint_of(t.joint);
    j->EnableMotor(max_torque > 0);
    j->SetMotorSpeed(speed);
    j->SetMaxMotorTorque(max_torque * kM2);
    return true;
  }
  return false;
}

f32 Physics::turret_angle(Entity turret) const {
  for (const Turret& t : joints_) {
    if (t.turret == turret) return joint_of(t.joint)->GetJointAngle();
  }
  return 0.0f;
}

// --- stepping -------------------------------------------------------------------------------

void Physics::read_back() {
  std::swap(previous_, current_);
  const usize n = bodies_.size();
  for (usize i = 0; i < n; ++i) {
    const b2Body* b = bodies_[i];
    Transform& t = current_[i];
    t.position = from_b2(b->GetPosition());
    t.angle = b->GetAngle();
    t.velocity = from_b2(b->GetLinearVelocity());
    t.angular_velocity = b->GetAngularVelocity();
  }
}

void Physics::step_once() {
  apply_steering();
  world_->Step(config_.fixed_dt, config_.velocity_iterations, config_.position_iterations);
  ++steps_;
  read_back();
  if (reconcile_) reconcile_contacts();
}

void Physics::deliver() {
  events_.swap(queue_->pending);
  queue_->pending.clear();
}

void Physics::step() {
  step_once();
  deliver();
}

u32 Physics::advance(f64 dt) {
  if (std::isfinite(dt) && dt > 0) accumulator_ += dt;
  const f64 fixed = config_.fixed_dt;
  u32 done = 0;
  while (accumulator_ >= fixed) {
    if (done == config_.max_steps_per_advance) {
      // The steps not run are dropped and counted. An absurd accumulator (a huge dt, or one
      // restored from a damaged save) holds more steps than a u64: the count saturates (the
      // conversion of a larger double is undefined), and the remainder, which the subtraction
      // no longer gets right at that size, is taken exactly.
      const f64 before = accumulator_;
      const f64 whole = std::floor(before / fixed);
      constexpr f64 kMostSteps = 9.0e18;  // below 2^63: converts exactly enough, and defined
      const u64 dropped = whole < kMostSteps ? static_cast<u64>(whole) : UINT64_MAX;
      dropped_steps_ =
          dropped > UINT64_MAX - dropped_steps_ ? UINT64_MAX : dropped_steps_ + dropped;
      accumulator_ -= whole * fixed;
      if (!(accumulator_ >= 0 && accumulator_ < fixed)) accumulator_ = std::fmod(before, fixed);
      break;
    }
    accumulator_ -= fixed;
    step_once();
    ++done;
  }
  deliver();  // the events of every step of this call together
  return done;
}

f32 Physics::alpha() const {
  return static_cast<f32>(std::clamp(accumulator_ / config_.fixed_dt, 0.0, 0.999999));
}

// After a rebuild Box2D reports a Begin for every touching pair; report the difference to the
// pairs that touched at the save point instead (sorted, so both runs agree on the order).
void Physics::reconcile_contacts() {
  reconcile_ = false;
  std::vector<std::pair<Entity, Entity>> now;
  for (b2Contact* c = world_->GetContactList(); c != nullptr; c = c->GetNext()) {
    if (!c->IsTouching()) continue;
    Entity a = detail::unpack_entity(c->GetFixtureA()->GetBody()->GetUserData().pointer);
    Entity b = detail::unpack_entity(c->GetFixtureB()->GetBody()->GetUserData().pointer);
    if (detail::entity_less(b, a)) std::swap(a, b);
    now.emplace_back(a, b);
  }
  auto less = [](const std::pair<Entity, Entity>& x, const std::pair<Entity, Entity>& y) {
    if (x.first != y.first) return detail::entity_less(x.first, y.first);
    return detail::entity_less(x.second, y.second);
  };
  std::sort(now.begin(), now.end(), less);
  std::vector<ContactEvent>& out = queue_->pending;
  // Keep End events of bodies removed before this step; Box2D's Begins are replaced.
  std::erase_if(out, [](const ContactEvent& e) { return e.phase == ContactPhase::kBegin; });
  usize i = 0, j = 0;
  while (i < touching_before_.size() || j < now.size()) {
    if (j == now.size() || (i < touching_before_.size() && less(touching_before_[i], now[j]))) {
      out.push_back({touching_before_[i].first, touching_before_[i].second, ContactPhase::kEnd});
      ++i;
    } else if (i == touching_before_.size() || less(now[j], touching_before_[i])) {
      out.push_back({now[j].first, now[j].second, ContactPhase::kBegin});
      ++j;
    } else {
      ++i, ++j;
    }
  }
  touching_before_.clear();
}

u64 Physics::state_hash() const {
  Hasher64 h(0x5048595349435321ull);
  h.update(&steps_, sizeof steps_);
  for (usize i = 0; i < bodies_.size(); ++i) {
    const b2Body* b = bodies_[i];
    const f32 v[6] = {b->GetPosition().x,       b->GetPosition().y,       b->GetAngle(),
                      b->GetLinearVelocity().x, b->GetLinearVelocity().y, b->GetAngularVelocity()};
    // The id without its world's salt (as World::state_hash): worlds built alike hash alike.
    const u32 e[2] = {entities_[i].index, entities_[i].generation >> 8};
    h.update(e, sizeof e);
    h.update(v, sizeof v);
  }
  for (const Turret& t : joints_) {
    const f32 angle = joint_of(t.joint)->GetJointAngle();
    h.update(&angle, sizeof angle);
  }
  return h.digest();
}

}  // namespace keel::world
