#include "keel/world/motion.h"

#include "keel/core/assert.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace keel::world {

f32 exp_weight(f32 rate, f32 dt) {
  if (!(rate > 0) || !(dt > 0)) return 0;
  // -expm1(-x) = 1 - e^-x, accurate for small x. For large x it rounds to 1 in f32: the value
  // then lands on its target, which is still no overshoot.
  const f32 w = static_cast<f32>(-std::expm1(-static_cast<f64>(rate) * static_cast<f64>(dt)));
  return std::min(w, 1.0f);
}

f32 wrap_angle(f32 radians) {
  // kPi (the f32 nearest pi, a little above it) is the top of the range: angles already within
  // (-kPi, kPi] come back unchanged, so kPi itself stays kPi.
  if (radians > -kPi && radians <= kPi) return radians;
  if (radians == -kPi) return kPi;
  if (!std::isfinite(radians)) return 0;
  constexpr f64 kTwoPi = 2.0 * std::numbers::pi;
  f64 a = std::remainder(static_cast<f64>(radians), kTwoPi);  // [-pi, pi]
  if (a <= -std::numbers::pi) a += kTwoPi;
  const f32 out = static_cast<f32>(a);
  if (out <= -kPi) return kPi;  // rounding to f32 may land on -kPi
  return std::min(out, kPi);
}

f32 angle_difference(f32 from, f32 to) {
  return wrap_angle(static_cast<f32>(static_cast<f64>(wrap_angle(to)) - wrap_angle(from)));
}

f32 angle_lerp(f32 from, f32 to, f32 t) {
  const f32 start = wrap_angle(from);
  if (!(t > 0)) return start;
  if (t >= 1) return wrap_angle(to);
  const f32 turn = angle_difference(start, to);
  const f32 out = wrap_angle(start + turn * t);
  // Rounding must not carry the result past `to`: the rest of the turn keeps the turn's sign.
  const f32 rest = angle_difference(out, to);
  if ((turn > 0 && rest < 0) || (turn < 0 && rest > 0)) return wrap_angle(to);
  return out;
}

std::optional<SpeedMode> speed_mode_from_name(std::string_view name) {
  if (name == "delicate") return SpeedMode::kDelicate;
  if (name == "reckless") return SpeedMode::kReckless;
  return std::nullopt;
}

std::string_view name_of(SpeedMode mode) {
  return mode == SpeedMode::kReckless ? "reckless" : "delicate";
}

MotionWeights motion_weights(const MotionParams& params, f32 dt) {
  KEEL_ASSERT(params.mass > 0 && std::isfinite(params.mass),
              "motion_weights: mass must be a positive finite number, got {}", params.mass);
  const f32 mass = params.mass > 0 && std::isfinite(params.mass) ? params.mass : 1.0f;
  return {.accel = exp_weight(params.accel_rate / mass, dt),
          .turn = exp_weight(params.turn_rate / mass, dt)};
}

Motion step_motion(Motion motion, Vec2 desired_velocity, MotionWeights weights,
                   const MotionParams& params) {
  const f32 max_speed = params.max_speed > 0 ? params.max_speed : 0.0f;
  f32 desired_speed = length(desired_velocity);
  if (!std::isfinite(desired_speed)) desired_speed = 0;  // NaN or infinite input: brake
  const bool has_direction = desired_speed > 1e-6f;
  const f32 desired_direction = has_direction ? angle_of(desired_velocity) : motion.direction;
  desired_speed = std::min(desired_speed, max_speed);

  f32 target_speed = desired_speed;
  if (params.mode == SpeedMode::kDelicate) {
    // cos of the angle between the directions = dot of the unit vectors.
    const f32 facing = std::cos(angle_difference(motion.direction, desired_direction));
    target_speed = desired_speed * std::clamp(facing, 0.0f, 1.0f);
  }
  const f32 accel = std::clamp(weights.accel, 0.0f, 1.0f);
  const f32 turn = std::clamp(weights.turn, 0.0f, 1.0f);
  // std::lerp stays within [speed, target] for t in [0, 1]: no overshoot from rounding either.
  motion.speed = std::lerp(motion.speed, target_speed, accel);
  if (has_direction) motion.direction = angle_lerp(motion.direction, desired_direction, turn);
  return motion;
}

Transform to_parent_space(const Transform& parent, const Transform& local) {
  const Vec2 offset = rotated(local.position, parent.angle);
  Transform out;
  out.position = parent.position + offset;
  out.velocity = parent.velocity + rotated(local.velocity, parent.angle) +
                 perp(offset) * parent.angular_velocity;
  out.angle = wrap_angle(parent.angle + local.angle);
  out.angular_velocity = parent.angular_velocity + local.angular_velocity;
  return out;
}

Transform to_local_space(const Transform& parent, const Transform& world) {
  const Vec2 offset = world.position - parent.position;
  Transform out;
  out.position = rotated(offset, -parent.angle);
  out.velocity = rotated(world.velocity - parent.velocity - perp(offset) * parent.angular_velocity,
                         -parent.angle);
  out.angle = wrap_angle(world.angle - parent.angle);
  out.angular_velocity = world.angular_velocity - parent.angular_velocity;
  return out;
}

}  // namespace keel::world
