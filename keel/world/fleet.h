// Enemy fleets (Citizen's dev blog): enemies seek a point half a screen from the player, band
// together (cohesion) and keep apart (separation), so they move as a loose group. Neighbours come
// from spatial's NeighbourGrid, rebuilt each frame; the brute-force search over all pairs is kept
// as the reference (tests compare the two, the benchmark measures both). Both are deterministic:
// the same positions give the same velocities, bit for bit, on every run.
//
//   FleetSteering fleet;                                     // holds the grid and scratch space
//   const Vec2 goal = fleet_goal(player, centre_of(positions), params.goal_distance);
//   fleet.steer(positions, goal, params, desired);           // desired velocity per agent
//   ... motion model (motion.h) or the steering system turns them into motion.
#pragma once

#include "keel/core/types.h"
#include "keel/spatial/grid.h"
#include "keel/world/entity.h"

#include <span>
#include <vector>

namespace keel::world {

struct FleetParams {
  f32 max_speed = 120;
  f32 goal_distance = 400;     // from the player: half a screen
  f32 arrive_radius = 100;     // the seek slows inside this distance of the goal (0: pure seek)
  f32 neighbour_radius = 80;   // cohesion's reach (and the neighbour query radius)
  f32 separation_radius = 30;  // separation's reach (<= neighbour_radius)
  f32 seek_weight = 1;
  f32 cohesion_weight = 0.4f;
  f32 separation_weight = 2;
};

// The mean of the positions (zero for none).
Vec2 centre_of(std::span<const Vec2> positions);

// The point `distance` from the player on the line toward the fleet's centre: the fleet stops
// half a screen short of the player, on its own side. A fleet centred on the player takes the
// point to the player's right (+x).
Vec2 fleet_goal(Vec2 player, Vec2 fleet_centre, f32 distance);

enum class NeighbourSearch : u8 { kGrid, kBruteForce };

class FleetSteering {
 public:
  // The desired velocity of every agent into `desired` (same size as `positions`, asserted;
  // release builds fill min(sizes)): seek (arrive) toward `goal`, cohesion and separation over
  // the other agents within params.neighbour_radius. No allocation once the scratch space has
  // grown to the fleet's size.
  void steer(std::span<const Vec2> positions, Vec2 goal, const FleetParams& params,
             std::span<Vec2> desired, NeighbourSearch search = NeighbourSearch::kGrid);

  // Neighbours found in the last steer() (pairs counted from both sides, self excluded).
  u64 neighbours_found() const { return neighbours_found_; }

 private:
  Vec2 steer_one(Vec2 position, Vec2 goal, const FleetParams& params) const;

  spatial::NeighbourGrid grid_;
  std::vector<Vec2> near_;
  u64 neighbours_found_ = 0;
};

}  // namespace keel::world
