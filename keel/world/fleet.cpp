#include "keel/world/fleet.h"

#include "keel/core/assert.h"
#include "keel/world/steering.h"

#include <algorithm>
#include <cmath>

namespace keel::world {

Vec2 centre_of(std::span<const Vec2> positions) {
  if (positions.empty()) return {};
  Vec2 sum;
  for (const Vec2 p : positions) sum += p;
  return sum / static_cast<f32>(positions.size());
}

Vec2 fleet_goal(Vec2 player, Vec2 fleet_centre, f32 distance) {
  Vec2 toward = normalized(fleet_centre - player);
  if (toward == Vec2{}) toward = {1, 0};
  const f32 d = distance > 0 && std::isfinite(distance) ? distance : 0.0f;
  return player + toward * d;
}

Vec2 FleetSteering::steer_one(Vec2 position, Vec2 goal, const FleetParams& params) const {
  SteeringSum sum;
  sum.add(arrive(position, goal, params.max_speed, params.arrive_radius), params.seek_weight);
  sum.add(cohesion(position, near_, params.neighbour_radius, params.max_speed),
          params.cohesion_weight);
  sum.add(separation(position, near_, params.separation_radius, params.max_speed),
          params.separation_weight);
  return sum.result(params.max_speed);
}

void FleetSteering::steer(std::span<const Vec2> positions, Vec2 goal, const FleetParams& params,
                          std::span<Vec2> desired, NeighbourSearch search) {
  KEEL_ASSERT(desired.size() == positions.size(),
              "FleetSteering::steer: {} desired velocities for {} positions", desired.size(),
              positions.size());
  const usize n = std::min(positions.size(), desired.size());
  const f32 radius = params.neighbour_radius > 0 && std::isfinite(params.neighbour_radius)
                         ? params.neighbour_radius
                         : 0.0f;
  neighbours_found_ = 0;
  near_.reserve(n);  // no agent has more neighbours: no growth in later frames
  // Cells of a quarter of the query radius: a query scans about 9 x 9 cells, one contiguous run
  // per row, and reads far fewer candidates outside the circle than with cells of the full
  // radius (measured on the 2,000-agent fleet: 2.6 ms per frame against 4.4 ms; r/2 3.3 ms).
  if (search == NeighbourSearch::kGrid) {
    grid_.build(positions.first(n), radius > 0 ? radius / 4 : 1);
  }
  const f32 r_sq = radius * radius;
  for (usize i = 0; i < n; ++i) {
    const Vec2 p = positions[i];
    near_.clear();
    if (search == NeighbourSearch::kGrid) {
      // Neighbours come in the grid's order (cells row by row, index order inside a cell):
      // deterministic, and the same set as the brute force (sums may differ in the last bits).
      grid_.for_each_within(p, radius, [&](u32 j) {
        if (j != i) near_.push_back(positions[j]);
      });
    } else {
      for (usize j = 0; j < n; ++j) {
        if (j != i && distance_squared(positions[j], p) <= r_sq) near_.push_back(positions[j]);
      }
    }
    neighbours_found_ += near_.size();
    desired[i] = steer_one(p, goal, params);
  }
}

}  // namespace keel::world
