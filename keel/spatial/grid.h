// keel::spatial::NeighbourGrid: "which points lie within r of here?" for crowds of moving points
// (the steering fleets' separation and cohesion). A uniform grid rebuilt every frame by a counting
// sort: O(n) to build, a query visits only the cells its circle's box touches.
//
//   NeighbourGrid grid;
//   grid.build(positions, 60.0f);                  // each frame; cell size ~ the query radius
//   grid.for_each_within(p, 60.0f, [&](u32 i) { ... });   // indices into `positions`
//   grid.query(p, 60.0f, out);                     // or collected into a vector (cleared first)
//
// The grid covers the points' bounding box; cells are stored as one array in row-major order, so
// the cells of one row of a query are one contiguous run. The number of cells is capped at about
// four per point (the cell size grows when the points spread far apart), so memory stays O(n)
// whatever the positions. Points with a non-finite coordinate are kept but never reported. After
// the first frames, build() and the queries allocate nothing unless the point count grows.
// A point is reported when distance_squared(point, center) <= radius * radius (the point itself
// included when it is the center). Indices come in cell order, not sorted.
#pragma once

#include "keel/core/types.h"
#include "keel/spatial/vec2.h"

#include <algorithm>
#include <cmath>
#include <span>
#include <vector>

namespace keel::spatial {

class NeighbourGrid {
 public:
  // Rebuilds the grid over `positions` (indices 0..size-1). A cell_size that is not a positive
  // finite number is a programmer error (asserted; release builds use 1).
  void build(std::span<const Vec2> positions, f32 cell_size);

  // Calls fn(u32 index) for every point within `radius` of `center`. A negative or NaN radius, or
  // a non-finite center, visits nothing.
  template <class Fn>
  void for_each_within(Vec2 center, f32 radius, Fn&& fn) const;

  // The indices within `radius` of `center`, into `out` (cleared first).
  void query(Vec2 center, f32 radius, std::vector<u32>& out) const;

  usize size() const { return indices_.size(); }
  f32 cell_size() const { return cell_size_; }
  u32 columns() const { return columns_; }
  u32 rows() const { return rows_; }

 private:
  // The clamped cell coordinate of a world coordinate (v finite).
  static u32 cell_coordinate(f32 v, f32 origin, f32 inverse_cell, u32 count) {
    const f32 c = (v - origin) * inverse_cell;
    if (!(c > 0)) return 0;
    if (c >= static_cast<f32>(count - 1)) return count - 1;
    return static_cast<u32>(c);
  }

  Vec2 origin_;
  f32 cell_size_ = 1;
  f32 inverse_cell_ = 1;
  u32 columns_ = 1;
  u32 rows_ = 1;
  std::vector<u32> cell_start_;         // columns_ * rows_ + 1 offsets into indices_
  std::vector<u32> indices_;            // point indices sorted by cell
  std::vector<Vec2> sorted_positions_;  // positions in the same order (queries read these)
  std::vector<u32> cell_of_;            // scratch: each point's cell
};

template <class Fn>
void NeighbourGrid::for_each_within(Vec2 center, f32 radius, Fn&& fn) const {
  if (indices_.empty() || !(radius >= 0) || !std::isfinite(center.x) || !std::isfinite(center.y)) {
    return;
  }
  const f32 r = std::min(radius, 1.0e19f);  // r * r stays finite
  const f32 r_sq = r * r;
  // The box is padded by a few ulps so rounding of center +- r never drops a boundary point.
  const f32 box = r + (std::abs(center.x) + std::abs(center.y) + r) * 1e-6f;
  const u32 c0 = cell_coordinate(center.x - box, origin_.x, inverse_cell_, columns_);
  const u32 c1 = cell_coordinate(center.x + box, origin_.x, inverse_cell_, columns_);
  const u32 r0 = cell_coordinate(center.y - box, origin_.y, inverse_cell_, rows_);
  const u32 r1 = cell_coordinate(center.y + box, origin_.y, inverse_cell_, rows_);
  for (u32 row = r0; row <= r1; ++row) {
    const usize first_cell = static_cast<usize>(row) * columns_;
    const u32 begin = cell_start_[first_cell + c0];
    const u32 end = cell_start_[first_cell + c1 + 1];
    for (u32 k = begin; k < end; ++k) {
      if (distance_squared(sorted_positions_[k], center) <= r_sq) fn(indices_[k]);
    }
  }
}

}  // namespace keel::spatial
