// Steering behaviours (Reynolds, as Citizen's Vehicle uses them): each behaviour is a pure function
// of plain inputs that returns a desired velocity (length <= max_speed); a vehicle sums the active
// ones with weights and hands the sum to the motion model (motion.h) or to physics.
//
//   SteeringSum sum;
//   sum.add(seek(p, goal, max_speed), 1.0f);
//   sum.add(separation(p, near, 25.0f, max_speed), 1.5f);
//   sum.add(cohesion(p, near, 60.0f, max_speed), 0.5f);
//   Vec2 desired = sum.result(max_speed);              // clamped to max_speed
//
// Conventions: a behaviour with nothing to do returns the zero vector (never NaN); zero or
// negative speeds and radii give zero vectors. `facing` is the one behaviour that is about
// heading rather than travel: it returns the desired direction to face (a unit vector), which
// a vehicle uses for its heading instead of its direction of travel (a turret).
#pragma once

#include "keel/core/types.h"
#include "keel/spatial/group_culling.h"
#include "keel/world/entity.h"

#include <span>

namespace keel::world {

// Full speed toward `target` / away from `threat`.
Vec2 seek(Vec2 position, Vec2 target, f32 max_speed);
Vec2 flee(Vec2 position, Vec2 threat, f32 max_speed);

// Toward `target`, slowing linearly inside `slowing_radius` to stop on it:
// speed = max_speed * min(1, distance / slowing_radius).
Vec2 arrive(Vec2 position, Vec2 target, f32 max_speed, f32 slowing_radius);

// Seek / flee the target's predicted position target + target_velocity * T, where
// T = min(distance / max_speed, max_prediction) seconds.
Vec2 pursue(Vec2 position, Vec2 target, Vec2 target_velocity, f32 max_speed, f32 max_prediction);
Vec2 evade(Vec2 position, Vec2 threat, Vec2 threat_velocity, f32 max_speed, f32 max_prediction);

// Wander: a point on a circle of `radius` held `distance` ahead of the vehicle, moved along the
// circle by a random turn of up to +-jitter radians per second. Deterministic: the state holds
// its own random generator, seeded by the caller (same seed, same path).
struct WanderParams {
  f32 distance = 2;
  f32 radius = 1;
  f32 jitter = 3;  // radians per second
};
struct WanderState {
  explicit WanderState(u64 seed = 1) : rng(seed) {}
  u64 rng;          // splitmix64 state
  f32 angle = 0;    // of the wander point on its circle, relative to the heading
  u32 draws = 0;    // numbers drawn so far (fills what would be padding)
  f32 next_unit();  // uniform in [-1, 1)
};
Vec2 wander(WanderState& state, f32 heading, f32 max_speed, const WanderParams& params, f32 dt);

// Match the neighbours' average velocity (clamped to max_speed); zero without neighbours.
Vec2 align(std::span<const Vec2> neighbour_velocities, f32 max_speed);

// The unit vector from `position` toward `look_at` (the desired heading); zero when they meet.
Vec2 facing(Vec2 position, Vec2 look_at);

// Away from the neighbours closer than `radius`, each pushing with (1 - distance / radius)
// along the line between; the sum times max_speed, clamped to max_speed. Neighbours at the
// vehicle's own position (itself, or an exact overlap) push nothing.
Vec2 separation(Vec2 position, std::span<const Vec2> neighbours, f32 radius, f32 max_speed);

// Arrive at the centre of the neighbours (their mean position) with `radius` as the slowing
// radius; zero without neighbours.
Vec2 cohesion(Vec2 position, std::span<const Vec2> neighbours, f32 radius, f32 max_speed);

// Obstacle avoidance: looks `look_ahead` units along the velocity for the nearest obstacle whose
// circle, grown by the vehicle's radius, crosses that corridor, and steers sideways away from it
// with max_speed * (1 - ahead / (look_ahead + obstacle radius)) — stronger the closer it is.
// Zero when the vehicle stands still or the way is clear. Obstacles are spatial's circles
// (position and radius are read).
Vec2 avoid_obstacles(Vec2 position, Vec2 velocity, f32 vehicle_radius,
                     std::span<const spatial::Obstacle> obstacles, f32 look_ahead, f32 max_speed);

// Weighted sum of desired velocities.
class SteeringSum {
 public:
  void add(Vec2 desired, f32 weight) {
    if (weight != 0) sum_ += desired * weight;
  }
  Vec2 raw() const { return sum_; }
  Vec2 result(f32 max_speed) const;  // clamped to max_speed; zero for a non-finite sum
  void clear() { sum_ = {}; }

 private:
  Vec2 sum_;
};

}  // namespace keel::world
