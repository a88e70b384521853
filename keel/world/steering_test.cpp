#include "keel/world/steering.h"

#include "keel/world/motion.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

namespace keel::world {
namespace {

constexpr f32 kEps = 1e-5f;

spatial::Obstacle circle(Vec2 position, f32 radius) {
  spatial::Obstacle o;
  o.position = position;
  o.radius = radius;
  return o;
}

void expect_vec(Vec2 actual, Vec2 expected, f32 eps = kEps) {
  EXPECT_NEAR(actual.x, expected.x, eps) << "y: " << actual.y;
  EXPECT_NEAR(actual.y, expected.y, eps) << "x: " << actual.x;
}

TEST(Steering, SeekAndFlee) {
  expect_vec(seek({1, 1}, {4, 5}, 10), {6, 8});  // 3-4-5 triangle
  expect_vec(flee({1, 1}, {4, 5}, 10), {-6, -8});
  expect_vec(seek({2, 2}, {2, 2}, 10), {0, 0});  // on the target: nothing to do
  expect_vec(seek({0, 0}, {5, 0}, -3), {0, 0});
}

TEST(Steering, ArriveSlowsInsideTheSlowingRadius) {
  expect_vec(arrive({0, 0}, {100, 0}, 10, 20), {10, 0});  // outside: full speed
  expect_vec(arrive({0, 0}, {5, 0}, 10, 20), {2.5f, 0});  // 5/20 of full speed
  expect_vec(arrive({0, 0}, {0, -10}, 8, 20), {0, -4});
  expect_vec(arrive({3, 3}, {3, 3}, 8, 20), {0, 0});
  expect_vec(arrive({0, 0}, {5, 0}, 10, 0), {10, 0});  // no slowing radius: seek
}

TEST(Steering, PursueAndEvadeLeadTheTarget) {
  // Target 10 ahead moving up at 5; speed 10 -> T = min(10 / 10, 2) = 1 -> predicted (10, 5).
  const Vec2 p = pursue({0, 0}, {10, 0}, {0, 5}, 10, 2);
  expect_vec(p, normalized(Vec2{10, 5}) * 10);
  // The prediction is capped by max_prediction: T = 0.5 -> (10, 2.5).
  expect_vec(pursue({0, 0}, {10, 0}, {0, 5}, 10, 0.5f), normalized(Vec2{10, 2.5f}) * 10);
  expect_vec(evade({0, 0}, {10, 0}, {0, 5}, 10, 2), -p);
  // A still target: pursue is seek.
  expect_vec(pursue({0, 0}, {0, 7}, {}, 3, 2), {0, 3});
}

TEST(Steering, WanderIsDeterministicAndOnItsCircle) {
  // Without jitter the wander point stays put: heading 0, distance 2, radius 1, angle pi/2
  // -> the point (2, 1).
  WanderState still(42);
  still.angle = kPi / 2;
  const WanderParams no_jitter{.distance = 2, .radius = 1, .jitter = 0};
  expect_vec(wander(still, 0, 5, no_jitter, 0.1f), normalized(Vec2{2, 1}) * 5);
  // Heading rotates the construction: heading pi/2 -> (-1, 2).
  expect_vec(wander(still, kPi / 2, 5, no_jitter, 0.1f), normalized(Vec2{-1, 2}) * 5);

  // Same seed, same sequence; another seed, another.
  const WanderParams params{.distance = 2, .radius = 1, .jitter = 4};
  WanderState a(7);
  WanderState b(7);
  WanderState c(8);
  bool differs = false;
  for (int i = 0; i < 100; ++i) {
    const Vec2 va = wander(a, 0.3f, 5, params, 1.0f / 60);
    const Vec2 vb = wander(b, 0.3f, 5, params, 1.0f / 60);
    const Vec2 vc = wander(c, 0.3f, 5, params, 1.0f / 60);
    ASSERT_EQ(va, vb);
    differs = differs || !(va == vc);
    ASSERT_NEAR(length(va), 5, 1e-4f);
    // Each call moves the wander angle by at most jitter * dt.
  }
  EXPECT_TRUE(differs);
  WanderState u(3);
  for (int i = 0; i < 1000; ++i) {
    const f32 r = u.next_unit();
    ASSERT_GE(r, -1);
    ASSERT_LT(r, 1);
  }
}

TEST(Steering, AlignAveragesNeighbourVelocities) {
  const std::vector<Vec2> v = {{2, 0}, {0, 4}, {1, -1}};
  expect_vec(align(v, 10), {1, 1});
  expect_vec(align(v, 1), normalized(Vec2{1, 1}));  // clamped
  expect_vec(align({}, 10), {0, 0});
}

TEST(Steering, FacingPointsAtTheTarget) {
  expect_vec(facing({1, 1}, {1, 5}), {0, 1});
  expect_vec(facing({0, 0}, {-3, 4}), {-0.6f, 0.8f});
  expect_vec(facing({2, 2}, {2, 2}), {0, 0});
}

TEST(Steering, SeparationPushesAwayByCloseness) {
  // One neighbour 1 to the left, radius 4: (1, 0) * (1 - 1/4) * max_speed.
  const std::vector<Vec2> one = {{-1, 0}};
  expect_vec(separation({0, 0}, one, 4, 2), {1.5f, 0});
  // Two: left at 2 (weight 0.5) and below at 3 (weight 0.25); one outside the radius; the
  // vehicle's own position pushes nothing.
  const std::vector<Vec2> several = {{-2, 0}, {0, -3}, {10, 10}, {0, 0}};
  expect_vec(separation({0, 0}, several, 4, 1), {0.5f, 0.25f});
  // Clamped to max_speed when crowded.
  const std::vector<Vec2> crowd = {{-0.1f, 0}, {-0.1f, 0.01f}, {-0.1f, -0.01f}};
  EXPECT_NEAR(length(separation({0, 0}, crowd, 4, 3)), 3, 1e-4f);
  expect_vec(separation({0, 0}, one, 0, 2), {0, 0});
}

TEST(Steering, CohesionArrivesAtTheNeighboursCentre) {
  // Centre (4, 0)... at distance 4 with slowing radius 8: half speed.
  const std::vector<Vec2> n = {{2, 2}, {6, -2}};
  expect_vec(cohesion({0, 0}, n, 8, 10), {5, 0});
  expect_vec(cohesion({0, 0}, n, 2, 10), {10, 0});
  expect_vec(cohesion({0, 0}, {}, 8, 10), {0, 0});
}

TEST(Steering, ObstacleAvoidanceSteersAwayFromTheNearestObstacleAhead) {
  using spatial::Obstacle;
  // Moving +x; an obstacle 5 ahead, 1 to the left (radius 1, vehicle radius 0.5), look-ahead 10:
  // steer right with 4 * (1 - 5 / 11).
  const std::vector<Obstacle> left = {circle({5, 1}, 1)};
  expect_vec(avoid_obstacles({0, 0}, {3, 0}, 0.5f, left, 10, 4), {0, -4 * (1 - 5.0f / 11)});
  // On the right: steer left.
  const std::vector<Obstacle> right = {circle({5, -1}, 1)};
  expect_vec(avoid_obstacles({0, 0}, {3, 0}, 0.5f, right, 10, 4), {0, 4 * (1 - 5.0f / 11)});
  // The nearest of several decides; ones behind, beside or beyond the look-ahead are ignored.
  const std::vector<Obstacle> several = {circle({8, -1}, 1), circle({2, 1}, 1), circle({-3, 0}, 2),
                                         circle({4, 5}, 1), circle({30, 0}, 1)};
  expect_vec(avoid_obstacles({0, 0}, {3, 0}, 0.5f, several, 10, 4), {0, -4 * (1 - 2.0f / 11)});
  const std::vector<Obstacle> clear = {several[2], several[3], several[4]};
  expect_vec(avoid_obstacles({0, 0}, {3, 0}, 0.5f, clear, 10, 4), {0, 0});
  expect_vec(avoid_obstacles({0, 0}, {0, 0}, 0.5f, left, 10, 4), {0, 0});  // standing still
}

TEST(Steering, WeightedSumIsClampedToMaxSpeed) {
  SteeringSum sum;
  sum.add({1, 0}, 2);
  sum.add({0, 3}, 0.5f);
  sum.add({100, 100}, 0);
  expect_vec(sum.raw(), {2, 1.5f});
  expect_vec(sum.result(10), {2, 1.5f});
  expect_vec(sum.result(1.25f), {1, 0.75f});
  sum.add({std::numeric_limits<f32>::infinity(), 0}, 1);
  expect_vec(sum.result(10), {0, 0});
  sum.clear();
  expect_vec(sum.raw(), {0, 0});
}

TEST(EntryPoints, SteeringBehavioursOnDegenerateInputs) {
  const f32 nan = std::numeric_limits<f32>::quiet_NaN();
  for (const Vec2 v : {seek({nan, 0}, {1, 1}, 5), arrive({0, 0}, {nan, nan}, 5, 2),
                       pursue({0, 0}, {1, 0}, {nan, 0}, 5, 1), separation({0, 0}, {}, 3, 5),
                       cohesion({0, 0}, {}, 3, 5), align({}, 5), facing({nan, 0}, {0, 0})}) {
    EXPECT_TRUE(std::isfinite(v.x) && std::isfinite(v.y));
  }
  WanderState w(1);
  const Vec2 v = wander(w, 0, 5, {.distance = 0, .radius = 0, .jitter = -1}, -1);
  EXPECT_EQ(v, Vec2{});
}

}  // namespace
}  // namespace keel::world
