#include "keel/world/detail/physics_box2d.h"

#include <box2d/b2_body.h>
#include <box2d/b2_contact.h>
#include <box2d/b2_fixture.h>

#include <cmath>

namespace keel::world::detail {

void ContactQueue::push(b2Contact* contact, ContactPhase phase) {
  Entity a = unpack_entity(contact->GetFixtureA()->GetBody()->GetUserData().pointer);
  Entity b = unpack_entity(contact->GetFixtureB()->GetBody()->GetUserData().pointer);
  if (entity_less(b, a)) std::swap(a, b);
  pending.push_back(ContactEvent{a, b, phase});
}

namespace {

bool finite(f32 v) { return std::isfinite(v); }
bool finite(Vec2 v) { return std::isfinite(v.x) && std::isfinite(v.y); }

// Strictly convex, counter-clockwise, no two vertices closer than kMinPolygonEdge: Box2D's hull
// then keeps every vertex (it welds close points and asserts on degenerate hulls).
Status check_polygon(const ShapeDef& shape) {
  const usize n = shape.vertex_count;
  if (n < 3 || n > kMaxPolygonVertices)
    return fail(ErrorCode::kInvalidArgument, "polygon with {} vertices (3..{})", n,
                kMaxPolygonVertices);
  for (usize i = 0; i < n; ++i) {
    if (!finite(shape.vertices[i]))
      return fail(ErrorCode::kInvalidArgument, "polygon vertex {} is not finite", i);
    for (usize j = i + 1; j < n; ++j) {
      if (distance(shape.vertices[i], shape.vertices[j]) < kMinPolygonEdge)
        return fail(ErrorCode::kInvalidArgument,
                    "polygon vertices {} and {} are closer than {} units", i, j, kMinPolygonEdge);
    }
  }
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
      if (!finite(shape.radius) || shape.radius <= 0 || !finite(shape.offset) ||
          shape.radius * kMetresPerUnit < 1e-3f)
        return fail(ErrorCode::kInvalidArgument,
                    "circle radius {} (must be finite and at least {} units)", shape.radius,
                    1e-3f / kMetresPerUnit);
      return {};
    case ShapeKind::kPolygon:
      return check_polygon(shape);
  }
  return fail(ErrorCode::kInvalidArgument, "shape kind {}", static_cast<u32>(shape.kind));
}

}  // namespace

Status check_transform(const Transform& t, const char* what) {
  if (!finite(t.position) || !finite(t.angle) || !finite(t.velocity) ||
      !finite(t.angular_velocity))
    return fail(ErrorCode::kInvalidArgument, "{} is not finite", what);
  return {};
}

Status check_body_def(const BodyDef& def) {
  if (static_cast<u8>(def.type) > static_cast<u8>(BodyType::kDynamic))
    return fail(ErrorCode::kInvalidArgument, "body type {}", static_cast<u32>(def.type));
  if (def.group >= kMaxPhysicsGroups)
    return fail(ErrorCode::kOutOfRange, "collision group {} (Box2D has {} categories: 0..{})",
                def.group, kMaxPhysicsGroups, kMaxPhysicsGroups - 1);
  if (Status st = check_shape(def.shape); !st) return st;
  const bool materials = finite(def.density) && def.density >= 0 && finite(def.friction) &&
                         def.friction >= 0 && finite(def.restitution) && def.restitution >= 0;
  if (!materials)
    return fail(ErrorCode::kInvalidArgument,
                "density {}, friction {}, restitution {} (finite, not negative)", def.density,
                def.friction, def.restitution);
  if (!finite(def.linear_damping) || def.linear_damping < 0 || !finite(def.angular_damping) ||
      def.angular_damping < 0)
    return fail(ErrorCode::kInvalidArgument, "damping {} / {} (finite, not negative)",
                def.linear_damping, def.angular_damping);
  return check_transform(def.start, "the body's start transform");
}

Status check_turret_def(const TurretDef& def) {
  if (!finite(def.ship_anchor) || !finite(def.turret_anchor) || !finite(def.motor_speed) ||
      !finite(def.max_motor_torque) || def.max_motor_torque < 0)
    return fail(ErrorCode::kInvalidArgument,
                "turret anchors, motor speed and torque must be finite (torque not negative)");
  if (def.limit_angle &&
      (!finite(def.lower_angle) || !finite(def.upper_angle) || def.lower_angle > def.upper_angle))
    return fail(ErrorCode::kInvalidArgument, "turret angle limits {}..{}", def.lower_angle,
                def.upper_angle);
  return {};
}

bool steering_is_finite(const SteeringCommand& c) {
  return finite(c.desired_velocity) && finite(c.desired_heading) && finite(c.limits.max_force) &&
         finite(c.limits.max_torque) && finite(c.limits.velocity_time) &&
         finite(c.limits.heading_time) && c.limits.max_force >= 0 && c.limits.max_torque >= 0;
}

}  // namespace keel::world::detail
