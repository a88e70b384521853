// Citizen's motion model (dev blog, "Flow"): a steered object matches a desired velocity with speed
// and direction handled apart, each approached by exponential interpolation, and the hierarchical
// relative-motion transform (an object moving relative to a moving, rotating parent).
//
//   const MotionWeights w = motion_weights(params, 1.0f / 60.0f);   // once per fixed step size
//   motion = step_motion(motion, desired_velocity, w, params);       // each step
//   transform.velocity = velocity_of(motion);
//
// Speed: reckless mode   speed += (desired_speed - speed) * w.accel
//        delicate mode   speed += (desired_speed * clamp(dot(dir, desired_dir), 0, 1) - speed) *
//        w.accel
// Direction:             dir = angle_lerp(dir, desired_dir, w.turn)   (the shorter arc)
// with w = 1 - exp(-(C / mass) * dt). Departure from the seed: the blog divides the weight by
// the mass (weight / mass), which exceeds 1 — an overshoot — for light objects or long steps; here
// the mass divides the rate C inside the exponent, so every weight stays in [0, 1) and the speed
// and direction approach their targets without ever passing them, for any C, mass and dt.
#pragma once

#include "keel/core/types.h"
#include "keel/world/entity.h"
#include "keel/world/transform.h"

#include <optional>
#include <string_view>

namespace keel::world {

inline constexpr f32 kPi = 3.14159265358979323846f;

// 1 - exp(-rate * dt): in [0, 1) for rate, dt >= 0; 0 for negative or NaN inputs.
f32 exp_weight(f32 rate, f32 dt);

// `radians` wrapped into (-pi, pi]; 0 for a non-finite angle.
f32 wrap_angle(f32 radians);
// The signed turn from `from` to `to` along the shorter arc, in (-pi, pi] (exactly opposite
// angles turn counter-clockwise, +pi).
f32 angle_difference(f32 from, f32 to);
// Linear interpolation of angles along the shorter arc: t = 0 gives `from`, t = 1 gives `to`
// (both wrapped into (-pi, pi]); the result is wrapped.
f32 angle_lerp(f32 from, f32 to, f32 t);

enum class SpeedMode : u32 {  // u32: MotionParams has no padding bytes
  kDelicate,  // turn before accelerating: no forward speed while facing more than 90 degrees away
  kReckless,  // full speed ahead while turning (missiles)
};

// "delicate" / "reckless" (entity definitions), and back.
std::optional<SpeedMode> speed_mode_from_name(std::string_view name);
std::string_view name_of(SpeedMode mode);

struct MotionParams {
  f32 max_speed = 100;  // world units per second; desired speeds are clamped to it
  f32 mass = 1;         // divides both rates (inertia); must be > 0
  f32 accel_rate = 4;   // C of the speed weight, per second
  f32 turn_rate = 6;    // C of the direction weight, per second
  SpeedMode mode = SpeedMode::kDelicate;
};

// The two interpolation weights of one fixed step.
struct MotionWeights {
  f32 accel = 0;
  f32 turn = 0;
};
// A mass that is not a positive finite number is a programmer error (asserted; release uses 1).
MotionWeights motion_weights(const MotionParams& params, f32 dt);

// Speed along a direction (radians): the state the model interpolates.
struct Motion {
  f32 speed = 0;
  f32 direction = 0;
};

// One step toward `desired_velocity` (its length clamped to params.max_speed). The speed is
// updated first, against the current direction (the seed's order), then the direction turns
// toward the desired one; a zero desired velocity keeps the direction and brakes.
Motion step_motion(Motion motion, Vec2 desired_velocity, MotionWeights weights,
                   const MotionParams& params);

inline Vec2 velocity_of(Motion motion) {
  return spatial::from_angle(motion.direction) * motion.speed;
}

// Hierarchical relative motion. `local` is an object's transform in the frame of `parent` (whose
// transform is in world space, or in its own parent's frame: compose to recurse):
//   position = p + rot(r, a)
//   velocity = v + rot(u, a) + w * perp(rot(r, a))
//   angle    = a + b,  angular velocity = w + o
// for a parent at p moving with v, at angle a turning with w, and an object at r moving with u,
// at angle b turning with o. Departure from the seed: the blog's position formula adds r without
// rotating it into the parent's axes (r_A = r + r_B); the velocity formula rotates it, and so
// does this one.
Transform to_parent_space(const Transform& parent, const Transform& local);
// The inverse: `world` expressed in the frame of `parent`.
Transform to_local_space(const Transform& parent, const Transform& world);

}  // namespace keel::world
