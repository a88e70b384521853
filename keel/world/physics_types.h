// The plain data of keel::world::Physics (physics.h): units, shapes, body and turret
// definitions, steering commands, contact events. Every type here is trivially copyable, so a
// body's definition travels unchanged into a save (physics_state.h).
//
// Units, chosen once for the whole engine: positions, lengths and velocities are in world units
// and one world unit is kMetresPerUnit metres in Box2D (1/8: a fighter of radius 10 units is a
// 1.25 m body, inside Box2D's 0.1-10 m sweet spot; a power of two, so converting a value to
// metres and back is exact and a save's rebuild keeps every bit of every body). Angles
// are radians counter-clockwise, mass is kg, density kg per square world unit, forces
// kg * units / s^2, torques kg * units^2 / s^2, inertia kg * units^2. Physics converts at its
// boundary; game code never sees metres.
#pragma once

#include "keel/core/types.h"
#include "keel/spatial/group_culling.h"
#include "keel/world/entity.h"
#include "keel/world/transform.h"

#include <array>
#include <span>

namespace keel::world {

inline constexpr f32 kMetresPerUnit = 0.125f;
// Box2D's limit on polygon vertices (b2_maxPolygonVertices).
inline constexpr usize kMaxPolygonVertices = 8;
// Box2D's collision filter has 16 category bits: group tables may use groups 0..15 only.
inline constexpr usize kMaxPhysicsGroups = 16;
// Bounds add_body, steer, attach_turret and restore() enforce, so Box2D's floats stay finite:
// coordinates and shape sizes (units), speeds (units/s), materials, forces and torques.
inline constexpr f32 kMaxCoordinate = 1e7f;
inline constexpr f32 kMaxShapeSize = 1e5f;
inline constexpr f32 kMaxSpeed = 1e7f;
inline constexpr f32 kMaxMaterial = 1e6f;  // density, friction, restitution, damping
inline constexpr f32 kMaxForce = 1e12f;    // forces, impulses, torques, steering limits
// Shortest polygon edge add_body accepts, in world units (Box2D welds closer vertices).
inline constexpr f32 kMinPolygonEdge = 0.1f;

enum class ShapeKind : u8 { kCircle, kPolygon };

// One shape per body: a circle (radius, centre offset) or a convex polygon (3-8 vertices in
// counter-clockwise order, body space, strictly convex, every edge at least kMinPolygonEdge long).
struct ShapeDef {
  ShapeKind kind = ShapeKind::kCircle;
  u8 vertex_count = 0;         // polygons
  std::array<u8, 2> unused{};  // explicit: no padding bytes (Body is hashed as bytes)
  f32 radius = 1;              // circles
  Vec2 offset{};               // circles: the centre in body space
  std::array<Vec2, kMaxPolygonVertices> vertices{};

  static ShapeDef circle(f32 radius, Vec2 offset = {});
  // An axis-aligned box around the body's origin.
  static ShapeDef box(f32 half_width, f32 half_height);
  // Up to 8 counter-clockwise vertices (more are cut off; validity is checked by add_body).
  static ShapeDef polygon(std::span<const Vec2> vertices);
};

enum class BodyType : u8 { kStatic, kKinematic, kDynamic };

// No padding bytes (static_assert in physics.cpp): a Body component hashes and saves as its bytes.
struct BodyDef {
  BodyType type = BodyType::kDynamic;
  spatial::GroupId group = 0;  // collision group (< 16), filtered through the group table
  bool bullet = false;         // continuous collision against dynamic bodies (fast shots)
  bool fixed_rotation = false;
  ShapeDef shape;
  f32 density = 1;  // kg per square world unit
  f32 friction = 0.2f;
  f32 restitution = 0;
  f32 linear_damping = 0;   // 1/s
  f32 angular_damping = 0;  // 1/s
  Transform start{};        // where the body starts and how it moves
};

// Bounds of a steering controller (physics_steering.h).
struct SteeringLimits {
  f32 max_force = 0;   // kg * units / s^2
  f32 max_torque = 0;  // kg * units^2 / s^2
  // Seconds in which the controller means to close the velocity / heading error (never less
  // than one step): larger is softer.
  f32 velocity_time = 0.25f;
  f32 heading_time = 0.25f;
};

// A body's standing steering order, applied as a force and a torque before every fixed step
// until changed or cleared (the blog: steering is an optional part of the Body and exerts extra
// forces and torques while active).
struct SteeringCommand {
  Vec2 desired_velocity{};    // units / s
  f32 desired_heading = 0;    // radians
  bool steer_heading = true;  // false: no torque (turrets, debris)
  SteeringLimits limits;
};

// A turret on a ship: a revolute joint with a motor, anchored at ship_anchor in the ship's
// space and turret_anchor in the turret's. The two bodies do not collide with each other.
struct TurretDef {
  Vec2 ship_anchor{};
  Vec2 turret_anchor{};
  f32 max_motor_torque = 0;  // kg * units^2 / s^2; 0: free hinge
  f32 motor_speed = 0;       // radians / s
  bool limit_angle = false;  // lower..upper, radians relative to the angle at attachment
  f32 lower_angle = 0;
  f32 upper_angle = 0;
};

enum class ContactPhase : u8 { kBegin, kEnd };

// Two bodies' shapes started or stopped touching. a < b (by index, then generation).
struct ContactEvent {
  Entity a{};
  Entity b{};
  ContactPhase phase = ContactPhase::kBegin;
  friend bool operator==(const ContactEvent&, const ContactEvent&) = default;
};

}  // namespace keel::world
