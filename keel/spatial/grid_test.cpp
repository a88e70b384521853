#include "keel/spatial/grid.h"

#include "keel/core/testing/alloc_counter.h"
#include "keel/core/testing/assert_recorder.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <random>
#include <vector>

namespace keel::spatial {
namespace {

std::vector<u32> brute_force(std::span<const Vec2> points, Vec2 center, f32 radius) {
  std::vector<u32> out;
  for (usize i = 0; i < points.size(); ++i) {
    if (distance_squared(points[i], center) <= radius * radius) out.push_back(static_cast<u32>(i));
  }
  return out;
}

std::vector<u32> sorted_query(const NeighbourGrid& grid, Vec2 center, f32 radius) {
  std::vector<u32> out;
  grid.query(center, radius, out);
  std::ranges::sort(out);
  return out;
}

std::vector<Vec2> random_scene(usize n, u32 seed, f32 extent, bool clustered) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<f32> uniform(-extent, extent);
  std::normal_distribution<f32> spread(0, extent / 20);
  std::vector<Vec2> centres(8);
  for (Vec2& c : centres) c = {uniform(rng), uniform(rng)};
  std::vector<Vec2> points(n);
  for (usize i = 0; i < n; ++i) {
    if (clustered) {
      const Vec2 c = centres[i % centres.size()];
      points[i] = {c.x + spread(rng), c.y + spread(rng)};
    } else {
      points[i] = {uniform(rng), uniform(rng)};
    }
  }
  return points;
}

TEST(NeighbourGrid, QueryEqualsBruteForceOnRandomScenes) {
  NeighbourGrid grid;  // reused across scenes, as a frame loop does
  for (u32 seed = 1; seed <= 6; ++seed) {
    for (const usize n : {1u, 17u, 300u, 2000u}) {
      const bool clustered = seed % 2 == 0;
      const std::vector<Vec2> points = random_scene(n, seed, 1000, clustered);
      const f32 cell = seed <= 3 ? 60.0f : 7.0f;
      grid.build(points, cell);
      std::mt19937 rng(seed * 31);
      std::uniform_real_distribution<f32> where(-1100, 1100);
      std::uniform_real_distribution<f32> how_far(0, 150);
      for (int q = 0; q < 200; ++q) {
        const Vec2 center =
            q % 2 == 0 ? points[static_cast<usize>(q) % n] : Vec2{where(rng), where(rng)};
        const f32 radius = q % 10 == 0 ? 5000.0f : how_far(rng);
        ASSERT_EQ(sorted_query(grid, center, radius), brute_force(points, center, radius))
            << "seed " << seed << " n " << n << " query " << q;
      }
    }
  }
}

TEST(NeighbourGrid, BoundaryDistanceIsIncludedAndSelfIsReported) {
  const std::vector<Vec2> points = {{0, 0}, {3, 4}, {3.0001f, 4}, {-5, 0}};
  NeighbourGrid grid;
  grid.build(points, 2);
  EXPECT_EQ(sorted_query(grid, {0, 0}, 5), (std::vector<u32>{0, 1, 3}));
  EXPECT_EQ(sorted_query(grid, {0, 0}, 0), (std::vector<u32>{0}));
}

TEST(NeighbourGrid, CellCountStaysBoundedForFarApartPoints) {
  const std::vector<Vec2> points = {{-3e38f, -3e38f}, {3e38f, 3e38f}, {0, 0}, {1, 1}};
  NeighbourGrid grid;
  grid.build(points, 0.001f);
  EXPECT_LE(static_cast<usize>(grid.columns()) * grid.rows(), 64u);
  EXPECT_EQ(sorted_query(grid, {0, 0}, 2), (std::vector<u32>{2, 3}));
  EXPECT_EQ(sorted_query(grid, {3e38f, 3e38f}, 1), (std::vector<u32>{1}));
}

TEST(NeighbourGrid, RebuildAllocatesNothingInSteadyState) {
  std::vector<Vec2> points = random_scene(2000, 5, 800, true);
  NeighbourGrid grid;
  grid.build(points, 50);
  std::vector<u32> out;
  grid.query({0, 0}, 3000, out);  // out's capacity covers every later query
  keel::testing::AllocationScope scope;
  for (int frame = 0; frame < 10; ++frame) {
    for (Vec2& p : points) p += Vec2{1.5f, -0.5f};
    grid.build(points, 50);
    for (usize i = 0; i < points.size(); i += 50) grid.query(points[i], 50, out);
  }
  EXPECT_EQ(scope.count(), 0u) << scope.counts();
}

TEST(EntryPoints, NeighbourGridEmptyNonFiniteAndBadCellSize) {
  NeighbourGrid grid;
  std::vector<u32> out{7};
  grid.query({0, 0}, 10, out);  // never built
  EXPECT_TRUE(out.empty());
  grid.build({}, 10);
  grid.query({0, 0}, 10, out);
  EXPECT_TRUE(out.empty());

  const f32 nan = std::numeric_limits<f32>::quiet_NaN();
  const f32 inf = std::numeric_limits<f32>::infinity();
  const std::vector<Vec2> points = {{nan, 0}, {1, 1}, {inf, -inf}, {2, 2}};
  grid.build(points, 1);
  EXPECT_EQ(sorted_query(grid, {1.5f, 1.5f}, 10), (std::vector<u32>{1, 3}));
  grid.query({nan, 0}, 10, out);
  EXPECT_TRUE(out.empty());
  grid.query({1, 1}, -1, out);
  EXPECT_TRUE(out.empty());
  grid.query({1, 1}, nan, out);
  EXPECT_TRUE(out.empty());
  EXPECT_EQ(sorted_query(grid, {1, 1}, inf), (std::vector<u32>{1, 3}));

  keel::testing::AssertRecorder asserts;
  grid.build(points, 0);
  asserts.expect_asserted("cell_size");
  grid.build(points, nan);
  asserts.expect_asserted("cell_size");
  EXPECT_EQ(sorted_query(grid, {1.5f, 1.5f}, 10), (std::vector<u32>{1, 3}));
}

}  // namespace
}  // namespace keel::spatial
