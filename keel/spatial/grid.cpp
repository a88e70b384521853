#include "keel/spatial/grid.h"

#include "keel/core/assert.h"

#include <limits>

namespace keel::spatial {

namespace {

bool finite(Vec2 p) { return std::isfinite(p.x) && std::isfinite(p.y); }

// Cells along one axis for an extent (f64: extents up to 2 * 3.4e38 stay finite).
f64 cells_along(f64 extent, f64 cell) { return std::floor(extent / cell) + 1.0; }

}  // namespace

void NeighbourGrid::build(std::span<const Vec2> positions, f32 cell_size) {
  KEEL_ASSERT(cell_size > 0 && std::isfinite(cell_size),
              "NeighbourGrid::build: cell_size must be a positive finite number, got {}",
              cell_size);
  if (!(cell_size > 0) || !std::isfinite(cell_size)) cell_size = 1;
  KEEL_ASSERT(positions.size() < std::numeric_limits<u32>::max(),
              "NeighbourGrid::build: {} points exceed the u32 index range", positions.size());
  const usize n = std::min<usize>(positions.size(), std::numeric_limits<u32>::max() - 1);

  // Bounding box of the finite points.
  Vec2 lo{std::numeric_limits<f32>::max(), std::numeric_limits<f32>::max()};
  Vec2 hi{std::numeric_limits<f32>::lowest(), std::numeric_limits<f32>::lowest()};
  for (usize i = 0; i < n; ++i) {
    const Vec2 p = positions[i];
    if (!finite(p)) continue;
    lo = {std::min(lo.x, p.x), std::min(lo.y, p.y)};
    hi = {std::max(hi.x, p.x), std::max(hi.y, p.y)};
  }
  if (lo.x > hi.x) lo = hi = Vec2{};  // no finite point

  // Grow the cell until the grid has at most ~4 cells per point (and at least one).
  const f64 max_cells = 4.0 * static_cast<f64>(std::max<usize>(n, 16));
  const f64 extent_x = static_cast<f64>(hi.x) - lo.x;
  const f64 extent_y = static_cast<f64>(hi.y) - lo.y;
  f64 cell = cell_size;
  while (cells_along(extent_x, cell) * cells_along(extent_y, cell) > max_cells) cell *= 2;
  cell_size_ = static_cast<f32>(std::min(cell, 3.0e38));
  inverse_cell_ = static_cast<f32>(1.0 / cell);
  origin_ = lo;
  columns_ = static_cast<u32>(cells_along(extent_x, cell));
  rows_ = static_cast<u32>(cells_along(extent_y, cell));

  // Counting sort of the points by cell.
  const usize cells = static_cast<usize>(columns_) * rows_;
  cell_start_.reserve(static_cast<usize>(max_cells) + 1);  // the cap: no growth as points move
  cell_start_.assign(cells + 1, 0);
  cell_of_.resize(n);
  for (usize i = 0; i < n; ++i) {
    const Vec2 p = positions[i];
    u32 cell_index = 0;
    if (finite(p)) {
      cell_index = cell_coordinate(p.y, origin_.y, inverse_cell_, rows_) * columns_ +
                   cell_coordinate(p.x, origin_.x, inverse_cell_, columns_);
    }
    cell_of_[i] = cell_index;
    ++cell_start_[cell_index + 1];
  }
  for (usize c = 0; c < cells; ++c) cell_start_[c + 1] += cell_start_[c];
  indices_.resize(n);
  sorted_positions_.resize(n);
  // cell_of_ becomes each cell's next free slot, read through the cell start offsets.
  for (usize i = 0; i < n; ++i) {
    const u32 slot = cell_start_[cell_of_[i]]++;
    indices_[slot] = static_cast<u32>(i);
    sorted_positions_[slot] = positions[i];
  }
  // The increments moved each start to the next cell's start: shift back.
  for (usize c = cells; c > 0; --c) cell_start_[c] = cell_start_[c - 1];
  cell_start_[0] = 0;
}

void NeighbourGrid::query(Vec2 center, f32 radius, std::vector<u32>& out) const {
  out.clear();
  for_each_within(center, radius, [&out](u32 i) { out.push_back(i); });
}

}  // namespace keel::spatial
