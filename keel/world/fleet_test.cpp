#include "keel/world/fleet.h"

#include "keel/core/testing/alloc_counter.h"
#include "keel/core/testing/assert_recorder.h"
#include "keel/world/motion.h"
#include "keel/world/steering.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <random>
#include <vector>

namespace keel::world {
namespace {

std::vector<Vec2> random_fleet(usize n, u32 seed, f32 extent) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<f32> where(-extent, extent);
  std::vector<Vec2> p(n);
  for (Vec2& v : p) v = {where(rng), where(rng)};
  return p;
}

TEST(Fleet, GoalIsHalfAScreenFromThePlayerOnTheFleetsSide) {
  EXPECT_EQ(fleet_goal({100, 50}, {100, 1000}, 400), (Vec2{100, 450}));
  EXPECT_EQ(fleet_goal({0, 0}, {-30, 40}, 10), (Vec2{-6, 8}));
  EXPECT_EQ(fleet_goal({5, 5}, {5, 5}, 10), (Vec2{15, 5}));  // on the player: to the right
  EXPECT_EQ(centre_of(std::vector<Vec2>{{0, 0}, {4, 2}}), (Vec2{2, 1}));
  EXPECT_EQ(centre_of({}), Vec2{});
}

TEST(Fleet, HandComputedAgent) {
  // Agent at the origin, goal far right; one neighbour 10 above (inside both radii), one 200 away.
  const std::vector<Vec2> positions = {{0, 0}, {0, 10}, {200, 0}};
  FleetParams params;
  params.max_speed = 100;
  params.arrive_radius = 0;  // pure seek
  params.neighbour_radius = 50;
  params.separation_radius = 20;
  params.seek_weight = 1;
  params.cohesion_weight = 0.5f;
  params.separation_weight = 0.25f;
  std::vector<Vec2> desired(3);
  FleetSteering fleet;
  fleet.steer(positions, {1000, 0}, params, desired);
  // seek (100, 0) * 1; cohesion: centre (0, 10) at 10 of slowing 50 -> (0, 20) * 0.5;
  // separation: (0, -1) * (1 - 10/20) * 100 = (0, -50) * 0.25 -> sum (100, -2.5).
  const Vec2 expected = clamp_length(Vec2{100, 10 - 12.5f}, 100);
  EXPECT_NEAR(desired[0].x, expected.x, 1e-3f);
  EXPECT_NEAR(desired[0].y, expected.y, 1e-3f);
  EXPECT_EQ(fleet.neighbours_found(), 2u);  // 0 <-> 1 from both sides
}

TEST(Fleet, GridNeighboursGiveTheBruteForceResult) {
  FleetSteering grid;
  FleetSteering brute;
  for (u32 seed = 1; seed <= 4; ++seed) {
    for (const usize n : {1u, 50u, 2000u}) {
      const std::vector<Vec2> positions = random_fleet(n, seed, seed % 2 == 0 ? 300.0f : 2000.0f);
      FleetParams params;
      params.neighbour_radius = seed == 3 ? 20.0f : 80.0f;
      std::vector<Vec2> a(n);
      std::vector<Vec2> b(n);
      grid.steer(positions, {50, -20}, params, a, NeighbourSearch::kGrid);
      brute.steer(positions, {50, -20}, params, b, NeighbourSearch::kBruteForce);
      // The same neighbours (counted), summed in another order: equal but for rounding.
      ASSERT_EQ(grid.neighbours_found(), brute.neighbours_found()) << "seed " << seed;
      for (usize i = 0; i < n; ++i) {
        ASSERT_NEAR(a[i].x, b[i].x, 1e-3f) << "seed " << seed << " n " << n << " agent " << i;
        ASSERT_NEAR(a[i].y, b[i].y, 1e-3f) << "seed " << seed << " n " << n << " agent " << i;
      }
      // Deterministic: a second run (fresh grid) gives the same bits.
      FleetSteering again;
      std::vector<Vec2> c(n);
      again.steer(positions, {50, -20}, params, c, NeighbourSearch::kGrid);
      ASSERT_EQ(a, c);
    }
  }
}

TEST(Fleet, MovesAsALooseGroupTowardTheGoalWithoutAllocating) {
  std::vector<Vec2> positions = random_fleet(120, 9, 200);
  for (Vec2& p : positions) p += Vec2{-1500, 0};
  std::vector<Motion> motion(positions.size());
  std::vector<Vec2> desired(positions.size());
  FleetParams params;
  const MotionParams mp{.max_speed = params.max_speed,
                        .mass = 1,
                        .accel_rate = 3,
                        .turn_rate = 6,
                        .mode = SpeedMode::kDelicate};
  const f32 dt = 1.0f / 30;
  const MotionWeights w = motion_weights(mp, dt);
  const Vec2 player{0, 0};
  FleetSteering fleet;
  fleet.steer(positions, {}, params, desired);  // scratch space grows once
  testing::AllocationScope scope;
  for (int frame = 0; frame < 30 * 15; ++frame) {
    const Vec2 goal = fleet_goal(player, centre_of(positions), params.goal_distance);
    fleet.steer(positions, goal, params, desired);
    for (usize i = 0; i < positions.size(); ++i) {
      motion[i] = step_motion(motion[i], desired[i], w, mp);
      positions[i] += velocity_of(motion[i]) * dt;
    }
  }
  EXPECT_EQ(scope.count(), 0u) << scope.counts();
  // The fleet's centre settles near the goal half a screen left of the player ...
  const Vec2 centre = centre_of(positions);
  EXPECT_NEAR(centre.x, -params.goal_distance, 60);
  EXPECT_NEAR(centre.y, 0, 60);
  // ... and the agents keep apart: few pairs closer than a third of the separation radius.
  usize crowded = 0;
  f32 farthest = 0;
  for (usize i = 0; i < positions.size(); ++i) {
    farthest = std::max(farthest, distance(positions[i], centre));
    for (usize j = i + 1; j < positions.size(); ++j) {
      if (distance(positions[i], positions[j]) < params.separation_radius / 3) ++crowded;
    }
  }
  EXPECT_LT(crowded, positions.size() / 10);
  std::printf("fleet: centre (%.1f, %.1f), farthest %.1f, crowded pairs %zu, neighbours %llu\n",
              static_cast<double>(centre.x), static_cast<double>(centre.y),
              static_cast<double>(farthest), crowded,
              static_cast<unsigned long long>(fleet.neighbours_found()));
  EXPECT_LT(farthest, 600.0f);  // still a group
}

TEST(EntryPoints, FleetMismatchedSizesAndEmptyFleets) {
  FleetSteering fleet;
  FleetParams params;
  std::vector<Vec2> none;
  fleet.steer({}, {}, params, none);
  EXPECT_EQ(fleet.neighbours_found(), 0u);

  keel::testing::AssertRecorder asserts;
  const std::vector<Vec2> positions = {{0, 0}, {1, 0}, {2, 0}};
  params.cohesion_weight = 0;
  params.separation_weight = 0;
  std::vector<Vec2> two(2);
  fleet.steer(positions, {10, 0}, params, two);
  asserts.expect_asserted("desired velocities");
  EXPECT_GT(two[0].x, 0);
  params.neighbour_radius = -5;
  std::vector<Vec2> three(3);
  fleet.steer(positions, {10, 0}, params, three, NeighbourSearch::kBruteForce);
  fleet.steer(positions, {10, 0}, params, three, NeighbourSearch::kGrid);
  EXPECT_GT(three[0].x, 0);
}

}  // namespace
}  // namespace keel::world
