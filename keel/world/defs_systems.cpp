// The spawn factories of Body, Vehicle and Emitter (register_system_components, defs_spawn.h).
#include "keel/world/defs_spawn.h"
#include "keel/world/particles.h"
#include "keel/world/physics_world.h"
#include "keel/world/steering_system.h"

#include <algorithm>
#include <numbers>

namespace keel::world {
namespace {

f32 clamped(const Params& p, std::string_view name, f32 lo, f32 hi, f32 fallback) {
  const f32 v = p.number(name, fallback);
  return v >= lo ? std::min(v, hi) : lo;  // NaN -> lo
}
bool flag(const Params& p, std::string_view name, bool fallback) {
  return p.number(name, fallback ? 1.0f : 0.0f) != 0;
}

Result<ShapeDef> shape_of(const Params& p) {
  const std::string_view shape = p.text("shape", "circle");
  const f32 radius = clamped(p, "radius", 0.05f, kMaxShapeSize, 1);
  if (shape == "circle") return ShapeDef::circle(radius);
  if (shape == "box") {
    const Vec2 size = p.vec2("size", {2 * radius, 2 * radius});
    return ShapeDef::box(std::clamp(size.x / 2, 0.05f, kMaxShapeSize),
                         std::clamp(size.y / 2, 0.05f, kMaxShapeSize));
  }
  return fail(ErrorCode::kInvalidArgument, "unknown shape `{}` (circle, box)", shape);
}

Status add_body(World& w, Entity e, const Params& p) {
  BodyDef def;
  Result<ShapeDef> shape = shape_of(p);
  if (!shape) return Unexpected(shape.error());
  def.shape = *shape;
  const std::string_view type = p.text("type", "dynamic");
  if (type == "dynamic") {
    def.type = BodyType::kDynamic;
  } else if (type == "kinematic") {
    def.type = BodyType::kKinematic;
  } else if (type == "static") {
    def.type = BodyType::kStatic;
  } else {
    return fail(ErrorCode::kInvalidArgument, "unknown type `{}` (dynamic, kinematic, static)",
                type);
  }
  const f32 area = def.shape.kind == ShapeKind::kCircle
                       ? std::numbers::pi_v<f32> * def.shape.radius * def.shape.radius
                       : 4 * std::abs(def.shape.vertices[0].x * def.shape.vertices[0].y);
  def.density = p.has("mass") ? clamped(p, "mass", 0, 1e9f, 1) / area
                              : clamped(p, "density", 0, kMaxMaterial, 1);
  def.density = std::min(def.density, kMaxMaterial);
  def.linear_damping = clamped(p, "damping", 0, kMaxMaterial, 0);
  def.angular_damping = clamped(p, "angular_damping", 0, kMaxMaterial, 0);
  def.friction = clamped(p, "friction", 0, kMaxMaterial, 0.2f);
  def.restitution = clamped(p, "restitution", 0, 1, 0);
  def.fixed_rotation = flag(p, "fixed_rotation", false);
  def.bullet = flag(p, "bullet", false);
  def.group = static_cast<spatial::GroupId>(clamped(p, "group", 0, kMaxPhysicsGroups - 1, 0));
  if (const Transform* t = w.get<Transform>(e)) def.start = *t;
  if (w.create<Body>(e, Body{def}) == nullptr) {
    return fail(ErrorCode::kInvalidArgument, "the entity is not alive");
  }
  return ok();
}

Status add_vehicle(World& w, Entity e, const Params& p) {
  Vehicle v;
  v.motion.max_speed = clamped(p, "max_speed", 0, kMaxSpeed, v.motion.max_speed);
  v.motion.mass = clamped(p, "mass", 1e-6f, 1e9f, v.motion.mass);
  v.motion.accel_rate = clamped(p, "accel_rate", 0, 1e6f, v.motion.accel_rate);
  v.motion.turn_rate = clamped(p, "turn_rate", 0, 1e6f, v.motion.turn_rate);
  const std::string_view mode = p.text("mode", "delicate");
  if (mode == "delicate") {
    v.motion.mode = SpeedMode::kDelicate;
  } else if (mode == "reckless") {
    v.motion.mode = SpeedMode::kReckless;
  } else {
    return fail(ErrorCode::kInvalidArgument, "unknown mode `{}` (delicate, reckless)", mode);
  }
  BehaviourWeights& wt = v.weights;
  const auto weight = [&](std::string_view name) { return clamped(p, name, 0, 1e6f, 0); };
  wt.seek = weight("seek");
  wt.flee = weight("flee");
  wt.arrive = weight("arrive");
  wt.pursue = weight("pursue");
  wt.evade = weight("evade");
  wt.wander = weight("wander");
  wt.align = weight("align");
  wt.separation = weight("separation");
  wt.cohesion = weight("cohesion");
  wt.avoidance = weight("avoidance");
  v.radius = clamped(p, "radius", 0, kMaxShapeSize, v.radius);
  v.neighbour_radius = clamped(p, "neighbour_radius", 0, kMaxCoordinate, v.neighbour_radius);
  v.separation_radius = std::min(
      clamped(p, "separation_radius", 0, kMaxCoordinate, v.separation_radius), v.neighbour_radius);
  v.slowing_radius = clamped(p, "slowing_radius", 0, kMaxCoordinate, v.slowing_radius);
  v.look_ahead = clamped(p, "look_ahead", 0, kMaxCoordinate, v.look_ahead);
  v.max_prediction = clamped(p, "max_prediction", 0, 1e6f, v.max_prediction);
  v.face_target = flag(p, "face_target", false);
  v.drive_transform = w.get<Body>(e) == nullptr;
  if (w.create<Vehicle>(e, v) == nullptr) {
    return fail(ErrorCode::kInvalidArgument, "the entity is not alive");
  }
  return ok();
}

}  // namespace

void register_system_components(SpawnRegistry& registry, ParticleSystem& particles) {
  registry.add("Body", add_body);
  registry.add("Vehicle", add_vehicle);
  registry.add("Emitter", [&particles](World& w, Entity e, const Params& p) -> Status {
    const std::string_view name = p.text("name");
    const EmitterOptions options{.offset = p.vec2("offset"),
                                 .angle = p.number("angle", 0),
                                 .on = flag(p, "on", true),
                                 .burst_on_shoot = flag(p, "burst_on_shoot", false)};
    if (!w.alive(e)) return fail(ErrorCode::kInvalidArgument, "the entity is not alive");
    if (add_emitter(w, e, particles, runtime_id(name), options) == nullptr) {
      return fail(ErrorCode::kNotFound, "no particle effect `{}` is loaded", name);
    }
    return ok();
  });
}

}  // namespace keel::world
