#include "keel/world/steering_system.h"

#include "keel/core/assert.h"
#include "keel/world/components.h"
#include "keel/world/world.h"

#include <algorithm>
#include <cmath>
#include <type_traits>

namespace keel::world {

static_assert(std::is_trivially_copyable_v<Vehicle>, "the world hashes and saves its bytes");
// No padding: every byte of a Vehicle is a member's (the sums of the member sizes).
static_assert(sizeof(WanderState) == sizeof(u64) + 2 * sizeof(f32));
static_assert(sizeof(MotionParams) == 5 * sizeof(f32));
static_assert(sizeof(BehaviourWeights) == 10 * sizeof(f32));
static_assert(sizeof(WanderParams) == 3 * sizeof(f32));
static_assert(sizeof(Motion) == 2 * sizeof(f32));
static_assert(sizeof(Vehicle) == sizeof(WanderState) + sizeof(MotionParams) +
                                     sizeof(BehaviourWeights) + 6 * sizeof(f32) +
                                     sizeof(WanderParams) + 8 + 5 * sizeof(Vec2) + sizeof(Motion) +
                                     2 * sizeof(f32));

namespace {

f32 usable_radius(f32 r) { return r > 0 && std::isfinite(r) ? r : 0.0f; }

}  // namespace

void SteeringSystem::gather_neighbours(usize self, const Vehicle& v, Vec2 position,
                                       std::span<const Transform> transforms) {
  near_positions_.clear();
  near_velocities_.clear();
  const BehaviourWeights& w = v.weights;
  if (w.align == 0 && w.cohesion == 0 && w.separation == 0) return;
  grid_.for_each_within(position, usable_radius(v.neighbour_radius), [&](u32 j) {
    if (j == self) return;
    near_positions_.push_back(transforms[j].position);
    near_velocities_.push_back(transforms[j].velocity);
  });
}

std::span<const spatial::Obstacle> SteeringSystem::obstacles_near(
    const Vehicle& v, Vec2 position, std::span<const spatial::Obstacle> obstacles) {
  near_obstacles_.clear();
  if (!obstacle_grid_built_) return obstacles;
  // An obstacle that counts lies within look_ahead + its radius ahead and its radius plus the
  // vehicle's to the side: within look_ahead + 2 * max radius + the vehicle's radius.
  const f32 reach =
      usable_radius(v.look_ahead) + 2 * max_obstacle_radius_ + usable_radius(v.radius);
  obstacle_grid_.for_each_within(position, reach,
                                 [&](u32 j) { near_obstacles_.push_back(obstacles[j]); });
  return near_obstacles_;
}

Vec2 SteeringSystem::desired_of(Vehicle& v, const Transform& t,
                                std::span<const spatial::Obstacle> obstacles, f32 dt) {
  const BehaviourWeights& w = v.weights;
  const f32 max_speed = v.motion.max_speed;
  const Vec2 p = t.position;
  SteeringSum sum;
  if (v.has_target) {
    if (w.seek != 0) sum.add(seek(p, v.target, max_speed), w.seek);
    if (w.arrive != 0) sum.add(arrive(p, v.target, max_speed, v.slowing_radius), w.arrive);
    if (w.pursue != 0) {
      sum.add(pursue(p, v.target, v.target_velocity, max_speed, v.max_prediction), w.pursue);
    }
  }
  if (v.has_threat) {
    if (w.flee != 0) sum.add(flee(p, v.threat, max_speed), w.flee);
    if (w.evade != 0) {
      sum.add(evade(p, v.threat, v.threat_velocity, max_speed, v.max_prediction), w.evade);
    }
  }
  if (w.wander != 0) sum.add(wander(v.wander_state, t.angle, max_speed, v.wander, dt), w.wander);
  if (w.align != 0) sum.add(align(near_velocities_, max_speed), w.align);
  if (w.cohesion != 0) {
    sum.add(cohesion(p, near_positions_, v.neighbour_radius, max_speed), w.cohesion);
  }
  if (w.separation != 0) {
    sum.add(separation(p, near_positions_, v.separation_radius, max_speed), w.separation);
  }
  if (w.avoidance != 0) {
    sum.add(avoid_obstacles(p, t.velocity, v.radius, obstacles_near(v, p, obstacles), v.look_ahead,
                            max_speed),
            w.avoidance);
  }
  return sum.result(max_speed);
}

void SteeringSystem::build_grid(std::span<const Transform> transforms, f32 cell) {
  positions_.resize(transforms.size());
  for (usize i = 0; i < transforms.size(); ++i) positions_[i] = transforms[i].position;
  const usize n = transforms.size();
  near_positions_.reserve(n);  // no vehicle has more neighbours: no growth in later frames
  near_velocities_.reserve(n);
  grid_.build(positions_, cell > 0 ? cell / 4 : 1);  // a quarter of the radius (fleet.cpp)
}

void SteeringSystem::build_obstacle_grid(std::span<const spatial::Obstacle> obstacles,
                                         f32 look_ahead) {
  // Only when some vehicle avoids obstacles (look_ahead > 0).
  obstacle_grid_built_ = look_ahead > 0 && !obstacles.empty();
  if (!obstacle_grid_built_) return;
  obstacle_positions_.resize(obstacles.size());
  max_obstacle_radius_ = 0;
  for (usize i = 0; i < obstacles.size(); ++i) {
    obstacle_positions_[i] = obstacles[i].position;
    max_obstacle_radius_ = std::max(max_obstacle_radius_, usable_radius(obstacles[i].radius));
  }
  near_obstacles_.reserve(obstacles.size());
  obstacle_grid_.build(obstacle_positions_, look_ahead / 2);
}

void SteeringSystem::steer_one(Vehicle& v, const Transform& t, usize self,
                               std::span<const Transform> all,
                               std::span<const spatial::Obstacle> obstacles, f32 dt) {
  gather_neighbours(self, v, t.position, all);
  v.desired_velocity = desired_of(v, t, obstacles, dt);
  if (v.face_target && v.has_target) {
    const Vec2 look = facing(t.position, v.target);
    v.desired_heading = look == Vec2{} ? t.angle : angle_of(look);
  } else {
    v.desired_heading = v.desired_velocity == Vec2{} ? t.angle : angle_of(v.desired_velocity);
  }
}

void SteeringSystem::steer(std::span<Vehicle> vehicles, std::span<const Transform> transforms,
                           std::span<const spatial::Obstacle> obstacles, f32 dt) {
  KEEL_ASSERT(vehicles.size() == transforms.size(),
              "SteeringSystem::steer: {} vehicles but {} transforms", vehicles.size(),
              transforms.size());
  const usize n = std::min(vehicles.size(), transforms.size());
  f32 cell = 0;
  f32 look_ahead = 0;
  for (usize i = 0; i < n; ++i) {
    cell = std::max(cell, usable_radius(vehicles[i].neighbour_radius));
    if (vehicles[i].weights.avoidance != 0) {
      look_ahead = std::max(look_ahead, usable_radius(vehicles[i].look_ahead));
    }
  }
  build_grid(transforms.first(n), cell);
  build_obstacle_grid(obstacles, look_ahead);
  for (usize i = 0; i < n; ++i) {
    steer_one(vehicles[i], transforms[i], i, transforms.first(n), obstacles, dt);
  }
}

namespace {

void move_one(Vehicle& v, Transform& t, f32 step) {
  if (!v.drive_transform) return;
  if (!v.started) {
    v.state.speed = length(t.velocity);
    v.state.direction = v.state.speed > 0 ? angle_of(t.velocity) : wrap_angle(t.angle);
    v.started = true;
  }
  const MotionWeights w = motion_weights(v.motion, step);
  v.state = step_motion(v.state, v.desired_velocity, w, v.motion);
  const f32 heading =
      v.face_target ? angle_lerp(t.angle, v.desired_heading, w.turn) : v.state.direction;
  t.angular_velocity = step > 0 ? angle_difference(t.angle, heading) / step : 0.0f;
  t.angle = heading;
  t.velocity = velocity_of(v.state);
  t.position += t.velocity * step;
}

f32 usable_step(f32 dt) { return dt > 0 && std::isfinite(dt) ? dt : 0.0f; }

}  // namespace

void SteeringSystem::move(std::span<Vehicle> vehicles, std::span<Transform> transforms, f32 dt) {
  KEEL_ASSERT(vehicles.size() == transforms.size(),
              "SteeringSystem::move: {} vehicles but {} transforms", vehicles.size(),
              transforms.size());
  const usize n = std::min(vehicles.size(), transforms.size());
  for (usize i = 0; i < n; ++i) move_one(vehicles[i], transforms[i], usable_step(dt));
}

void SteeringSystem::update(World& world, f32 dt) {
  world_vehicles_.clear();
  world_transforms_.clear();
  world_obstacles_.clear();
  f32 cell = 0;
  f32 look_ahead = 0;
  for (auto [e, t, obstacle] : world.view<Transform, Obstacle>()) {
    spatial::Obstacle o;
    o.position = t.position;
    o.velocity = t.velocity;
    o.radius = obstacle.radius;
    o.group = obstacle.group;
    world_obstacles_.push_back(o);
  }
  for (auto [e, v, t] : world.view<Vehicle, Transform>()) {
    if (const Target* link = world.get<Target>(e)) {
      const Transform* aim =
          world.alive(link->entity) ? world.get<Transform>(link->entity) : nullptr;
      v.has_target = aim != nullptr;
      if (aim != nullptr) {
        v.target = aim->position;
        v.target_velocity = aim->velocity;
      }
    }
    world_vehicles_.push_back(&v);
    world_transforms_.push_back(t);
    cell = std::max(cell, usable_radius(v.neighbour_radius));
    if (v.weights.avoidance != 0) look_ahead = std::max(look_ahead, usable_radius(v.look_ahead));
  }
  build_grid(world_transforms_, cell);
  build_obstacle_grid(world_obstacles_, look_ahead);
  for (usize i = 0; i < world_vehicles_.size(); ++i) {
    steer_one(*world_vehicles_[i], world_transforms_[i], i, world_transforms_, world_obstacles_,
              dt);
  }
  const f32 step = usable_step(dt);
  world.view<Vehicle, Transform>().each([step](Vehicle& v, Transform& t) { move_one(v, t, step); });
}

}  // namespace keel::world
