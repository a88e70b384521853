#include "keel/world/motion.h"

#include "keel/core/testing/assert_recorder.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numbers>

namespace keel::world {
namespace {

constexpr f32 kEps = 1e-5f;

// Angles compare as directions: pi and -pi (and their f32 neighbours) are the same.
f32 angle_gap(f32 a, f32 b) { return std::abs(angle_difference(a, b)); }

TEST(Motion, ExpWeightIsOneMinusExpOfMinusCdt) {
  EXPECT_NEAR(exp_weight(2, 0.5f), 1 - std::exp(-1.0f), 1e-7f);
  EXPECT_NEAR(exp_weight(4, 1.0f / 60), 1 - std::exp(-4.0f / 60), 1e-7f);
  EXPECT_EQ(exp_weight(0, 1), 0);
  EXPECT_EQ(exp_weight(5, 0), 0);
  EXPECT_EQ(exp_weight(-1, 1), 0);
  EXPECT_EQ(exp_weight(std::numeric_limits<f32>::quiet_NaN(), 1), 0);
  EXPECT_LE(exp_weight(1e30f, 1e30f), 1.0f);
}

TEST(Motion, WrapAngleIntoMinusPiPi) {
  EXPECT_NEAR(wrap_angle(3 * kPi / 2), -kPi / 2, kEps);
  EXPECT_NEAR(wrap_angle(-3 * kPi / 2), kPi / 2, kEps);
  EXPECT_NEAR(wrap_angle(0.25f + 8 * kPi), 0.25f, 1e-4f);
  EXPECT_FLOAT_EQ(wrap_angle(-kPi), kPi);
  EXPECT_FLOAT_EQ(wrap_angle(kPi), kPi);
  EXPECT_EQ(wrap_angle(std::numeric_limits<f32>::infinity()), 0);
  for (f32 a = -100; a < 100; a += 0.37f) {
    const f32 w = wrap_angle(a);
    EXPECT_GT(w, -kPi);
    EXPECT_LE(w, kPi);
  }
}

TEST(Motion, AngleLerpAcrossThePiSeam) {
  // From 170 to -170 degrees: the shorter arc goes up through 180, 20 degrees, not down 340.
  const f32 from = 170 * kPi / 180;
  const f32 to = -170 * kPi / 180;
  EXPECT_NEAR(angle_difference(from, to), 20 * kPi / 180, kEps);
  EXPECT_LT(angle_gap(angle_lerp(from, to, 0.5f), kPi), kEps);  // on the seam
  EXPECT_NEAR(angle_lerp(from, to, 0.25f), 175 * kPi / 180, kEps);
  EXPECT_NEAR(angle_lerp(from, to, 0.75f), -175 * kPi / 180, kEps);  // wrapped
  // And the other way.
  EXPECT_NEAR(angle_lerp(to, from, 0.25f), -175 * kPi / 180, kEps);
  EXPECT_NEAR(angle_lerp(to, from, 0.75f), 175 * kPi / 180, kEps);
  // Ends, and angles given outside (-pi, pi].
  EXPECT_NEAR(angle_lerp(from, to, 0), from, kEps);
  EXPECT_NEAR(angle_lerp(from, to, 1), to, kEps);
  EXPECT_LT(angle_gap(angle_lerp(from + 2 * kPi, to - 4 * kPi, 0.5f), kPi), 1e-4f);
  // Small arcs away from the seam, both signs.
  EXPECT_NEAR(angle_lerp(0.1f, 0.5f, 0.5f), 0.3f, kEps);
  EXPECT_NEAR(angle_lerp(0.5f, 0.1f, 0.5f), 0.3f, kEps);
  // Exactly opposite: counter-clockwise.
  EXPECT_NEAR(angle_lerp(0, kPi, 0.5f), kPi / 2, kEps);
}

TEST(Motion, RecklessSpeedUpdateMatchesTheFormula) {
  const MotionParams params{
      .max_speed = 10, .mass = 2, .accel_rate = 3, .turn_rate = 5, .mode = SpeedMode::kReckless};
  const f32 dt = 0.1f;
  const MotionWeights w = motion_weights(params, dt);
  EXPECT_NEAR(w.accel, 1 - std::exp(-1.5f * 0.1f), 1e-6f);
  EXPECT_NEAR(w.turn, 1 - std::exp(-2.5f * 0.1f), 1e-6f);
  // Facing away (pi) with desired speed 8 ahead along +x: reckless accelerates anyway.
  const Motion m = step_motion({.speed = 2, .direction = kPi}, {8, 0}, w, params);
  EXPECT_NEAR(m.speed, 2 + (8 - 2) * w.accel, kEps);
  EXPECT_NEAR(std::abs(m.direction), kPi * (1 - w.turn), 1e-4f);
  // Desired speed above max_speed is clamped.
  const Motion fast = step_motion({.speed = 0, .direction = 0}, {100, 0}, w, params);
  EXPECT_NEAR(fast.speed, 10 * w.accel, kEps);
}

TEST(Motion, DelicateSpeedUpdateScalesByTheFacingDot) {
  const MotionParams params{
      .max_speed = 10, .mass = 1, .accel_rate = 2, .turn_rate = 2, .mode = SpeedMode::kDelicate};
  const MotionWeights w = motion_weights(params, 0.25f);
  // 60 degrees off: target = 6 * cos(60) = 3.
  const Motion m = step_motion({.speed = 1, .direction = kPi / 3}, {6, 0}, w, params);
  EXPECT_NEAR(m.speed, 1 + (3 - 1) * w.accel, kEps);
  EXPECT_NEAR(m.direction, kPi / 3 * (1 - w.turn), kEps);
  // A zero desired velocity brakes and keeps the direction.
  const Motion stop = step_motion({.speed = 4, .direction = 1}, {}, w, params);
  EXPECT_NEAR(stop.speed, 4 * (1 - w.accel), kEps);
  EXPECT_FLOAT_EQ(stop.direction, 1);
}

TEST(Motion, DelicateNeverAcceleratesWhileFacingMoreThan90DegreesAway) {
  const MotionParams params{.max_speed = 50,
                            .mass = 1.5f,
                            .accel_rate = 8,
                            .turn_rate = 0.5f,
                            .mode = SpeedMode::kDelicate};
  for (const f32 dt : {1.0f / 120, 1.0f / 60, 0.1f, 1.0f}) {
    const MotionWeights w = motion_weights(params, dt);
    for (f32 speed : {0.0f, 5.0f, 49.0f}) {
      for (int k = 0; k < 72; ++k) {
        const f32 desired_dir = static_cast<f32>(k) * kPi / 36;
        Motion m{.speed = speed, .direction = 0};
        const Vec2 desired = spatial::from_angle(desired_dir) * 40;
        for (int step = 0; step < 400; ++step) {
          const bool away = std::cos(angle_difference(m.direction, desired_dir)) < 0;
          const Motion next = step_motion(m, desired, w, params);
          if (away) {
            ASSERT_LE(next.speed, m.speed) << "dt " << dt << " k " << k << " step " << step;
          }
          m = next;
        }
      }
    }
  }
}

TEST(Motion, NoOvershootForAnyRateAndStep) {
  // Sweep rates, masses and steps: speed and direction approach their targets monotonically and
  // never pass them, in both modes.
  for (const f32 rate : {0.01f, 0.5f, 3.0f, 40.0f, 1e4f}) {
    for (const f32 mass : {0.01f, 0.5f, 1.0f, 20.0f}) {
      for (const f32 dt : {1e-4f, 1.0f / 60, 0.5f, 10.0f}) {
        for (const SpeedMode mode : {SpeedMode::kReckless, SpeedMode::kDelicate}) {
          const MotionParams params{
              .max_speed = 30, .mass = mass, .accel_rate = rate, .turn_rate = rate, .mode = mode};
          const MotionWeights w = motion_weights(params, dt);
          ASSERT_GE(w.accel, 0);
          ASSERT_LE(w.accel, 1);
          for (const f32 target_dir : {0.3f, -2.9f, 3.1f}) {
            Motion m{.speed = 0, .direction = -0.2f};
            const Vec2 desired = spatial::from_angle(target_dir) * 25;
            f32 rest = angle_difference(m.direction, target_dir);
            for (int step = 0; step < 200; ++step) {
              const Motion next = step_motion(m, desired, w, params);
              ASSERT_LE(next.speed, length(desired)) << rate << " " << mass << " " << dt;
              if (mode == SpeedMode::kReckless) {
                ASSERT_GE(next.speed, m.speed);
              }
              const f32 next_rest = angle_difference(next.direction, target_dir);
              ASSERT_LE(std::abs(next_rest), std::abs(rest) + 1e-6f);
              ASSERT_FALSE((rest > 0 && next_rest < 0) || (rest < 0 && next_rest > 0))
                  << "direction passed its target: " << rate << " " << mass << " " << dt;
              rest = next_rest;
              m = next;
            }
          }
          // Braking from above: speed comes down to the desired one, never below.
          Motion m{.speed = 30, .direction = 0};
          for (int step = 0; step < 100; ++step) {
            m = step_motion(m, {10, 0}, w, params);
            ASSERT_GE(m.speed, 10.0f);
          }
        }
      }
    }
  }
}

TEST(Motion, RelativeMotionAgainstHandComputedValues) {
  // Parent at (10, 0) facing +y (90 degrees), moving +x at 1, turning at 2 rad/s.
  const Transform parent{
      .position = {10, 0}, .angle = kPi / 2, .velocity = {1, 0}, .angular_velocity = 2};
  // Child 1 unit along the parent's x axis, moving 1 along the parent's y, angle 0.5, spin 0.25.
  const Transform local{
      .position = {1, 0}, .angle = 0.5f, .velocity = {0, 1}, .angular_velocity = 0.25f};
  const Transform world = to_parent_space(parent, local);
  // rot(r) = (0, 1); position = (10, 1).
  EXPECT_NEAR(world.position.x, 10, kEps);
  EXPECT_NEAR(world.position.y, 1, kEps);
  // v + rot(u) + w * perp(rot(r)) = (1, 0) + (-1, 0) + 2 * (-1, 0) = (-2, 0).
  EXPECT_NEAR(world.velocity.x, -2, kEps);
  EXPECT_NEAR(world.velocity.y, 0, kEps);
  EXPECT_NEAR(world.angle, kPi / 2 + 0.5f, kEps);
  EXPECT_NEAR(world.angular_velocity, 2.25f, kEps);

  // The inverse gives the local transform back.
  const Transform back = to_local_space(parent, world);
  EXPECT_NEAR(back.position.x, 1, kEps);
  EXPECT_NEAR(back.position.y, 0, kEps);
  EXPECT_NEAR(back.velocity.x, 0, kEps);
  EXPECT_NEAR(back.velocity.y, 1, kEps);
  EXPECT_NEAR(back.angle, 0.5f, kEps);
  EXPECT_NEAR(back.angular_velocity, 0.25f, kEps);
}

TEST(Motion, RelativeVelocityIsTheDerivativeOfPosition) {
  // Two-level hierarchy moved by its own velocities for a small h: the world position changes by
  // world velocity * h (central difference), at every level.
  const Transform grand{
      .position = {3, -2}, .angle = 0.7f, .velocity = {0.5f, 2}, .angular_velocity = -1.3f};
  const Transform parent{
      .position = {4, 1}, .angle = -0.4f, .velocity = {-1, 0.5f}, .angular_velocity = 0.8f};
  const Transform child{
      .position = {-2, 3}, .angle = 1.1f, .velocity = {0.3f, -0.7f}, .angular_velocity = 0.1f};
  auto advanced = [](Transform t, f32 h) {
    t.position += t.velocity * h;
    t.angle += t.angular_velocity * h;
    return t;
  };
  auto world_at = [&](f32 h) {
    return to_parent_space(advanced(grand, h),
                           to_parent_space(advanced(parent, h), advanced(child, h)));
  };
  const f32 h = 1e-3f;
  const Vec2 numeric = (world_at(h).position - world_at(-h).position) / (2 * h);
  const Transform now = world_at(0);
  EXPECT_NEAR(now.velocity.x, numeric.x, 2e-2f);
  EXPECT_NEAR(now.velocity.y, numeric.y, 2e-2f);
  EXPECT_NEAR(now.angular_velocity, -1.3f + 0.8f + 0.1f, kEps);
}

TEST(Motion, SpeedModeNames) {
  EXPECT_EQ(speed_mode_from_name("delicate"), SpeedMode::kDelicate);
  EXPECT_EQ(speed_mode_from_name("reckless"), SpeedMode::kReckless);
  EXPECT_EQ(speed_mode_from_name("Reckless"), std::nullopt);
  EXPECT_EQ(speed_mode_from_name(""), std::nullopt);
  EXPECT_EQ(name_of(SpeedMode::kReckless), "reckless");
  EXPECT_EQ(name_of(SpeedMode::kDelicate), "delicate");
}

TEST(EntryPoints, MotionBadMassAndNonFiniteInputs) {
  keel::testing::AssertRecorder asserts;
  const MotionWeights w = motion_weights({.mass = 0}, 0.1f);
  asserts.expect_asserted("mass");
  EXPECT_NEAR(w.accel, exp_weight(4, 0.1f), 1e-6f);  // release falls back to mass 1
  motion_weights({.mass = std::numeric_limits<f32>::quiet_NaN()}, 0.1f);
  asserts.expect_asserted("mass");

  const f32 nan = std::numeric_limits<f32>::quiet_NaN();
  const Motion m = step_motion({.speed = 3, .direction = 0.5f}, {nan, 1}, w, {});
  EXPECT_TRUE(std::isfinite(m.speed));
  EXPECT_FLOAT_EQ(m.direction, 0.5f);
  const Motion z = step_motion({.speed = 3, .direction = 0.5f}, {5, 0}, w, {.max_speed = -1});
  EXPECT_LE(z.speed, 3.0f);
  EXPECT_EQ(angle_lerp(nan, 1, 0.5f), angle_lerp(0, 1, 0.5f));
}

}  // namespace
}  // namespace keel::world
