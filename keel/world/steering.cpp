#include "keel/world/steering.h"

#include "keel/world/motion.h"

#include <algorithm>
#include <cmath>

namespace keel::world {

namespace {

f32 positive(f32 v) { return v > 0 && std::isfinite(v) ? v : 0.0f; }

Vec2 clamped(Vec2 v, f32 max_speed) {
  if (!std::isfinite(v.x) || !std::isfinite(v.y)) return {};
  return clamp_length(v, positive(max_speed));
}

}  // namespace

Vec2 seek(Vec2 position, Vec2 target, f32 max_speed) {
  return clamped(normalized(target - position) * positive(max_speed), max_speed);
}

Vec2 flee(Vec2 position, Vec2 threat, f32 max_speed) { return -seek(position, threat, max_speed); }

Vec2 arrive(Vec2 position, Vec2 target, f32 max_speed, f32 slowing_radius) {
  const Vec2 to_target = target - position;
  const f32 distance = length(to_target);
  const f32 speed = positive(max_speed);
  if (!(distance > 0) || speed == 0) return {};
  const f32 slowing = positive(slowing_radius);
  const f32 wanted = slowing > 0 ? speed * std::min(1.0f, distance / slowing) : speed;
  return clamped(to_target * (wanted / distance), speed);
}

namespace {

Vec2 predicted(Vec2 position, Vec2 target, Vec2 target_velocity, f32 max_speed,
               f32 max_prediction) {
  const f32 speed = positive(max_speed);
  const f32 distance = spatial::distance(position, target);
  f32 t = positive(max_prediction);
  if (speed > 0) t = std::min(t, distance / speed);
  return target + target_velocity * t;
}

}  // namespace

Vec2 pursue(Vec2 position, Vec2 target, Vec2 target_velocity, f32 max_speed, f32 max_prediction) {
  return seek(position, predicted(position, target, target_velocity, max_speed, max_prediction),
              max_speed);
}

Vec2 evade(Vec2 position, Vec2 threat, Vec2 threat_velocity, f32 max_speed, f32 max_prediction) {
  return flee(position, predicted(position, threat, threat_velocity, max_speed, max_prediction),
              max_speed);
}

f32 WanderState::next_unit() {
  // splitmix64: full period, one state word, the same sequence on every platform.
  ++draws;
  u64 z = (rng += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return static_cast<f32>(static_cast<f64>(z >> 40) / static_cast<f64>(1ull << 23) - 1.0);
}

Vec2 wander(WanderState& state, f32 heading, f32 max_speed, const WanderParams& params, f32 dt) {
  const f32 step = positive(params.jitter) * positive(dt);
  const f32 r = state.next_unit();  // drawn every call, so the sequence does not depend on dt
  state.angle = wrap_angle(state.angle + r * step);
  const Vec2 ahead = spatial::from_angle(heading) * positive(params.distance);
  const Vec2 on_circle = spatial::from_angle(heading + state.angle) * positive(params.radius);
  return clamped(normalized(ahead + on_circle) * positive(max_speed), max_speed);
}

Vec2 align(std::span<const Vec2> neighbour_velocities, f32 max_speed) {
  if (neighbour_velocities.empty()) return {};
  Vec2 sum;
  for (const Vec2 v : neighbour_velocities) sum += v;
  return clamped(sum / static_cast<f32>(neighbour_velocities.size()), max_speed);
}

Vec2 facing(Vec2 position, Vec2 look_at) { return normalized(look_at - position); }

Vec2 separation(Vec2 position, std::span<const Vec2> neighbours, f32 radius, f32 max_speed) {
  const f32 r = positive(radius);
  if (r == 0) return {};
  const f32 r_sq = r * r;
  Vec2 push;
  for (const Vec2 n : neighbours) {
    const Vec2 away = position - n;
    const f32 d_sq = length_squared(away);
    if (!(d_sq > 0) || !(d_sq < r_sq)) continue;
    const f32 d = std::sqrt(d_sq);
    push += away * ((1.0f - d / r) / d);
  }
  return clamped(push * positive(max_speed), max_speed);
}

Vec2 cohesion(Vec2 position, std::span<const Vec2> neighbours, f32 radius, f32 max_speed) {
  if (neighbours.empty()) return {};
  Vec2 centre;
  for (const Vec2 n : neighbours) centre += n;
  centre = centre / static_cast<f32>(neighbours.size());
  return arrive(position, centre, max_speed, radius);
}

Vec2 avoid_obstacles(Vec2 position, Vec2 velocity, f32 vehicle_radius,
                     std::span<const spatial::Obstacle> obstacles, f32 look_ahead, f32 max_speed) {
  const Vec2 forward = normalized(velocity);
  const f32 reach = positive(look_ahead);
  if (forward == Vec2{} || reach == 0) return {};
  f32 nearest_ahead = 0;
  f32 nearest_side = 0;
  f32 nearest_reach = 0;
  bool found = false;
  for (const spatial::Obstacle& o : obstacles) {
    const Vec2 to = o.position - position;
    const f32 ahead = dot(to, forward);
    const f32 side = cross(forward, to);  // > 0: the obstacle is to the left
    const f32 obstacle_radius = positive(o.radius);
    const f32 corridor = obstacle_radius + positive(vehicle_radius);
    if (!(ahead > 0) || !(ahead < reach + obstacle_radius) || !(std::abs(side) < corridor)) {
      continue;
    }
    if (!found || ahead < nearest_ahead) {
      found = true;
      nearest_ahead = ahead;
      nearest_side = side;
      nearest_reach = reach + obstacle_radius;
    }
  }
  if (!found) return {};
  // Steer to the side the obstacle is not on (to the right when dead ahead).
  const Vec2 away = nearest_side > 0 ? -perp(forward) : perp(forward);
  return clamped(away * (positive(max_speed) * (1.0f - nearest_ahead / nearest_reach)), max_speed);
}

Vec2 SteeringSum::result(f32 max_speed) const { return clamped(sum_, max_speed); }

}  // namespace keel::world
