// The Vehicle component and the steering system (Citizen's Vehicle): each frame every vehicle sums
// its weighted behaviours (steering.h) into a desired velocity and heading; then either the
// motion model (motion.h) moves its Transform, or physics turns the desired velocity and heading
// into force and torque (drive_transform = false: the system only writes desired_velocity and
// desired_heading).
//
//   Vehicle v;                                  // or from an entity definition
//   v.weights.seek = 1; v.weights.separation = 1.5f; v.weights.cohesion = 0.5f;
//   v.target = goal; v.has_target = true;       // the game, a Target link or a fleet sets it
//   SteeringSystem steering;
//   steering.steer(vehicles, transforms, obstacles, dt);   // desired velocities
//   SteeringSystem::move(vehicles, transforms, dt);        // motion model -> Transforms
//
// Neighbours (separation, cohesion, align) are the other vehicles of the same call within each
// vehicle's radius, found through spatial's NeighbourGrid. The component is trivially copyable
// (the world's state hash and saves copy its bytes).
#pragma once

#include "keel/core/types.h"
#include "keel/spatial/grid.h"
#include "keel/world/entity.h"
#include "keel/world/motion.h"
#include "keel/world/steering.h"
#include "keel/world/transform.h"

#include <span>
#include <vector>

namespace keel::world {

class World;

struct BehaviourWeights {
  f32 seek = 0;  // toward target
  f32 flee = 0;  // away from threat
  f32 arrive = 0;
  f32 pursue = 0;  // toward target's predicted position
  f32 evade = 0;   // away from threat's predicted position
  f32 wander = 0;
  f32 align = 0;
  f32 separation = 0;
  f32 cohesion = 0;
  f32 avoidance = 0;  // obstacles
};

// No padding bytes anywhere (checked at compile time): World::track_state hashes and saves a
// component's bytes, so a Vehicle's state takes part in the world's state hash deterministically.
struct Vehicle {
  // The seeded wander generator (first: its u64 sits at offset 0).
  WanderState wander_state;

  MotionParams motion;  // max speed, mass, acceleration and turn rates, delicate or reckless
  BehaviourWeights weights;
  f32 radius = 8;              // the vehicle's own size (obstacle avoidance's corridor)
  f32 slowing_radius = 60;     // arrive
  f32 max_prediction = 1;      // pursue and evade, seconds
  f32 neighbour_radius = 80;   // align, cohesion: the other vehicles within it are neighbours
  f32 separation_radius = 30;  // separation pushes from the neighbours within it (<= the above)
  f32 look_ahead = 100;        // obstacle avoidance
  WanderParams wander;

  bool face_target = false;     // heading turns toward the target, not the direction of travel
  bool drive_transform = true;  // false: physics reads desired_velocity and desired_heading
  bool has_target = false;      // input: target and target_velocity are set
  bool has_threat = false;      // input: threat and threat_velocity are set
  bool started = false;         // state: synced from the Transform on the first move
  u8 reserved_[3]{};            // explicit, zeroed: no padding bytes

  // Inputs, set by the game each frame (or by SteeringSystem::update from a Target link).
  Vec2 target;
  Vec2 target_velocity;
  Vec2 threat;
  Vec2 threat_velocity;

  // State: the motion model's speed and direction of travel.
  Motion state;

  // Outputs of the last steer().
  Vec2 desired_velocity;    // world units per second, length <= motion.max_speed
  f32 desired_heading = 0;  // radians: toward the target when face_target, else along travel
  f32 reserved_tail_ = 0;   // explicit: no tail padding
};

class SteeringSystem {
 public:
  // Desired velocity and heading of every vehicle (vehicles[i] at transforms[i]; the sizes must
  // match, asserted; release builds steer min(sizes)). `obstacles` feed obstacle avoidance
  // (each vehicle looks only at those within reach of its look-ahead, through a grid).
  // Allocates nothing once its scratch space has grown to the crowd's size.
  void steer(std::span<Vehicle> vehicles, std::span<const Transform> transforms,
             std::span<const spatial::Obstacle> obstacles, f32 dt);

  // The motion model for every vehicle with drive_transform: speed and direction toward the
  // desired velocity, the heading toward desired_heading (face_target) or along travel, then
  // position += velocity * dt. Sets velocity, angle, angular_velocity and position.
  static void move(std::span<Vehicle> vehicles, std::span<Transform> transforms, f32 dt);

  // One frame over a World: every entity with a Vehicle and a Transform. An entity that also has
  // a Target gets its vehicle's target (position and velocity) from the target's Transform each
  // frame (has_target false once the target is dead or has none); entities with a Transform and
  // an Obstacle are the obstacles avoided. Then steer() and move() as above. No allocation once
  // the scratch space has grown to the crowd's size.
  void update(World& world, f32 dt);

 private:
  void steer_one(Vehicle& v, const Transform& t, usize self, std::span<const Transform> all,
                 std::span<const spatial::Obstacle> obstacles, f32 dt);
  void build_grid(std::span<const Transform> transforms, f32 cell);
  void build_obstacle_grid(std::span<const spatial::Obstacle> obstacles, f32 look_ahead);
  void gather_neighbours(usize self, const Vehicle& v, Vec2 position,
                         std::span<const Transform> transforms);
  std::span<const spatial::Obstacle> obstacles_near(const Vehicle& v, Vec2 position,
                                                    std::span<const spatial::Obstacle> obstacles);
  Vec2 desired_of(Vehicle& v, const Transform& t, std::span<const spatial::Obstacle> obstacles,
                  f32 dt);

  spatial::NeighbourGrid grid_;
  std::vector<Vec2> positions_;
  std::vector<Vec2> near_positions_;
  std::vector<Vec2> near_velocities_;
  // Obstacle avoidance looks only at the obstacles near each vehicle (a second grid).
  spatial::NeighbourGrid obstacle_grid_;
  std::vector<Vec2> obstacle_positions_;
  std::vector<spatial::Obstacle> near_obstacles_;
  f32 max_obstacle_radius_ = 0;
  bool obstacle_grid_built_ = false;
  // update(World&): the crowd gathered from the World's stores.
  std::vector<Vehicle*> world_vehicles_;
  std::vector<Transform> world_transforms_;
  std::vector<spatial::Obstacle> world_obstacles_;
};

}  // namespace keel::world
