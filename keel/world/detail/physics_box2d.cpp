#include "keel/world/detail/physics_box2d.h"

#include "keel/core/bytes.h"

#include <box2d/b2_body.h>
#include <box2d/b2_contact.h>
#include <box2d/b2_fixture.h>

#include <algorithm>
#include <cmath>

namespace keel::world::detail {

void ContactQueue::push(b2Contact* contact, ContactPhase phase) {
  Entity a = unpack_entity(contact->GetFixtureA()->GetBody()->GetUserData().pointer);
  Entity b = unpack_entity(contact->GetFixtureB()->GetBody()->GetUserData().pointer);
  if (entity_less(b, a)) std::swap(a, b);
  pending.push_back(ContactEvent{a, b, phase});
}

namespace {

// A shape's centre at most this many times its size from the body's origin (see check_polygon).
constexpr f32 kMaxShapeOffsetRatio = 64;
constexpr f32 kMinDensity = 1e-6f;

bool finite(f32 v) { return std::isfinite(v); }
bool within(f32 v, f32 limit) { return std::isfinite(v) && std::abs(v) <= limit; }
bool within(Vec2 v, f32 limit) { return within(v.x, limit) && within(v.y, limit); }
bool material(f32 v) { return std::isfinite(v) && v >= 0 && v <= kMaxMaterial; }

// Strictly convex, counter-clockwise, no two vertices closer than kMinPolygonEdge: Box2D's hull
// then keeps every vertex (it welds close points and asserts on degenerate hulls).
Status check_polygon(const ShapeDef& shape) {
  const usize n = shape.vertex_count;
  if (n < 3 || n > kMaxPolygonVertices)
    return fail(ErrorCode::kInvalidArgument, "polygon with {} vertices (3..{})", n,
                kMaxPolygonVertices);
  for (usize i = 0; i < n; ++i) {
    if (!within(shape.vertices[i], kMaxShapeSize))
      return fail(ErrorCode::kInvalidArgument, "polygon vertex {} is not finite or beyond {}", i,
                  kMaxShapeSize);
    for (usize j = i + 1; j < n; ++j) {
      if (distance(shape.vertices[i], shape.vertices[j]) < kMinPolygonEdge)
        return fail(ErrorCode::kInvalidArgument,
                    "polygon vertices {} and {} are closer than {} units", i, j, kMinPolygonEdge);
    }
  }
  // Box2D moves the inertia from the body's origin to the centre of mass by a subtraction; a
  // small shape far from the origin cancels to zero inertia in f32 (an assert in Box2D).
  Vec2 centre;
  f32 size = 0;
  for (usize i = 0; i < n; ++i) {
    centre += shape.vertices[i] / static_cast<f32>(n);
    for (usize j = i + 1; j < n; ++j)
      size = std::max(size, distance(shape.vertices[i], shape.vertices[j]));
  }
  if (length(centre) > kMaxShapeOffsetRatio * size)
    return fail(ErrorCode::kInvalidArgument,
                "polygon centre is more than {} times its size from the body's origin",
                kMaxShapeOffsetRatio);
  for (usize i = 0; i < n; ++i) {
    const Vec2 e1 = shape.vertices[(i + 1) % n] - shape.vertices[i];
    const Vec2 e2 = shape.vertices[(i + 2) % n] - shape.vertices[(i + 1) % n];
    if (cross(e1, e2) <= 1e-3f * length(e1) * length(e2))
      return fail(ErrorCode::kInvalidArgument,
                  "polygon is not strictly convex and counter-clockwise at vertex {}", (i + 1) % n);
  }
  return {};
}

Status check_shape(const ShapeDef& shape) {
  switch (shape.kind) {
    case ShapeKind::kCircle:
      if (!within(shape.radius, kMaxShapeSize) || !within(shape.offset, kMaxShapeSize) ||
          shape.radius * kMetresPerUnit < 1e-3f)
        return fail(ErrorCode::kInvalidArgument, "circle radius {} (must be {}..{} units)",
                    shape.radius, 1e-3f / kMetresPerUnit, kMaxShapeSize);
      if (length(shape.offset) > kMaxShapeOffsetRatio * shape.radius)
        return fail(ErrorCode::kInvalidArgument,
                    "circle centre is more than {} radii from the body's origin",
                    kMaxShapeOffsetRatio);
      return {};
    case ShapeKind::kPolygon: return check_polygon(shape);
  }
  return fail(ErrorCode::kInvalidArgument, "shape kind {}", static_cast<u32>(shape.kind));
}

}  // namespace

Status check_transform(const Transform& t, const char* what) {
  if (!within(t.position, kMaxCoordinate) || !within(t.angle, kMaxCoordinate) ||
      !within(t.velocity, kMaxSpeed) || !within(t.angular_velocity, kMaxSpeed))
    return fail(ErrorCode::kInvalidArgument, "{} is not finite or out of bounds", what);
  return {};
}

Status check_body_def(const BodyDef& def) {
  if (!bool_byte_ok(def.bullet) || !bool_byte_ok(def.fixed_rotation))
    return fail(ErrorCode::kInvalidArgument, "a flag (bullet, fixed_rotation) is not 0 or 1");
  if (static_cast<u8>(def.type) > static_cast<u8>(BodyType::kDynamic))
    return fail(ErrorCode::kInvalidArgument, "body type {}", static_cast<u32>(def.type));
  if (def.group >= kMaxPhysicsGroups)
    return fail(ErrorCode::kOutOfRange, "collision group {} (Box2D has {} categories: 0..{})",
                def.group, kMaxPhysicsGroups, kMaxPhysicsGroups - 1);
  if (Status st = check_shape(def.shape); !st) return st;
  // A density of 0 makes a massless body (Box2D gives it mass 1); a tiny one (a denormal) gives
  // zero inertia, which Box2D asserts on.
  if (def.density != 0 && !(def.density >= kMinDensity))
    return fail(ErrorCode::kInvalidArgument, "density {} (0, or {}..{})", def.density, kMinDensity,
                kMaxMaterial);
  if (!material(def.density) || !material(def.friction) || !material(def.restitution))
    return fail(ErrorCode::kInvalidArgument, "density {}, friction {}, restitution {} (0..{})",
                def.density, def.friction, def.restitution, kMaxMaterial);
  if (!material(def.linear_damping) || !material(def.angular_damping))
    return fail(ErrorCode::kInvalidArgument, "damping {} / {} (0..{})", def.linear_damping,
                def.angular_damping, kMaxMaterial);
  return check_transform(def.start, "the body's start transform");
}

Status check_turret_def(const TurretDef& def) {
  if (!bool_byte_ok(def.limit_angle))
    return fail(ErrorCode::kInvalidArgument, "the turret's limit_angle flag is not 0 or 1");
  if (!within(def.ship_anchor, kMaxShapeSize) || !within(def.turret_anchor, kMaxShapeSize) ||
      !within(def.motor_speed, kMaxSpeed) || !within(def.max_motor_torque, kMaxForce) ||
      def.max_motor_torque < 0)
    return fail(ErrorCode::kInvalidArgument,
                "turret anchors, motor speed and torque must be finite and in bounds (torque not "
                "negative)");
  if (def.limit_angle &&
      (!within(def.lower_angle, kMaxCoordinate) || !within(def.upper_angle, kMaxCoordinate) ||
       def.lower_angle > def.upper_angle))
    return fail(ErrorCode::kInvalidArgument, "turret angle limits {}..{}", def.lower_angle,
                def.upper_angle);
  return {};
}

bool steering_is_finite(const SteeringCommand& c) {
  return within(c.desired_velocity, kMaxSpeed) && within(c.desired_heading, kMaxCoordinate) &&
         within(c.limits.max_force, kMaxForce) && within(c.limits.max_torque, kMaxForce) &&
         finite(c.limits.velocity_time) && finite(c.limits.heading_time) &&
         c.limits.max_force >= 0 && c.limits.max_torque >= 0;
}

bool force_ok(Vec2 force, f32 torque) {
  return within(force, kMaxForce) && within(torque, kMaxForce);
}

}  // namespace keel::world::detail
