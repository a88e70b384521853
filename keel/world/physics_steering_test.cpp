#include "keel/world/physics_steering.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

namespace keel::world {
namespace {

constexpr f32 kPi = std::numbers::pi_v<f32>;

SteeringCommand command(Vec2 v, f32 heading, f32 max_force, f32 max_torque) {
  SteeringCommand c;
  c.desired_velocity = v;
  c.desired_heading = heading;
  c.limits.max_force = max_force;
  c.limits.max_torque = max_torque;
  c.limits.velocity_time = 0.5f;
  c.limits.heading_time = 0.5f;
  return c;
}

TEST(PhysicsSteering, ForceClosesTheVelocityErrorInTheResponseTime) {
  Transform t;
  t.velocity = {2, 0};
  // error (8, 0), mass 3, T 0.5: 3 * 8 / 0.5 = 48
  const SteeringForce f = steering_force(t, 3, 1, command({10, 0}, 0, 1000, 1000), 1.0f / 60);
  EXPECT_FLOAT_EQ(f.force.x, 48);
  EXPECT_FLOAT_EQ(f.force.y, 0);
  EXPECT_FLOAT_EQ(f.torque, 0);  // already facing 0 and not turning
}

TEST(PhysicsSteering, ForceAndTorqueAreClampedToTheLimits) {
  Transform t;
  const SteeringForce f = steering_force(t, 10, 4, command({0, 100}, kPi / 2, 5, 0.25f), 0.1f);
  EXPECT_FLOAT_EQ(f.force.x, 0);
  EXPECT_FLOAT_EQ(f.force.y, 5);
  EXPECT_FLOAT_EQ(f.torque, 0.25f);
}

TEST(PhysicsSteering, NoOvershootForAnyResponseTimeAndStep) {
  for (f32 T : {0.0f, 0.001f, 0.016f, 0.1f, 1.0f, 10.0f}) {
    for (f32 dt : {0.001f, 1.0f / 60, 0.1f, 0.5f}) {
      Transform t;
      t.velocity = {-3, 7};
      const Vec2 want{5, -1};
      SteeringCommand c = command(want, 0, 1e9f, 0);
      c.limits.velocity_time = T;
      Vec2 v = t.velocity;
      for (int i = 0; i < 200; ++i) {
        t.velocity = v;
        const SteeringForce f = steering_force(t, 2, 1, c, dt);
        const Vec2 next = v + f.force / 2.0f * dt;
        // each component moves toward the target and never past it
        EXPECT_LE(std::abs(next.x - want.x), std::abs(v.x - want.x) + 1e-4f) << T << " " << dt;
        EXPECT_LE(std::abs(next.y - want.y), std::abs(v.y - want.y) + 1e-4f) << T << " " << dt;
        EXPECT_GE((next.x - want.x) * (v.x - want.x), -1e-6f) << T << " " << dt;
        v = next;
      }
    }
  }
}

TEST(PhysicsSteering, TurnsAlongTheShorterArcAcrossTheSeam) {
  Transform t;
  t.angle = kPi - 0.1f;  // desired just across +-pi: turn counter-clockwise by 0.2
  const SteeringForce f = steering_force(t, 1, 2, command({}, -kPi + 0.1f, 0, 100), 1.0f / 60);
  EXPECT_GT(f.torque, 0);
  // wanted angular velocity 0.2 / 0.5 = 0.4; torque 0.4 * 2 / 0.5 = 1.6
  EXPECT_NEAR(f.torque, 1.6f, 1e-3f);
  EXPECT_NEAR(angle_difference(kPi - 0.1f, -kPi + 0.1f), 0.2f, 1e-5f);
  EXPECT_NEAR(angle_difference(-kPi + 0.1f, kPi - 0.1f), -0.2f, 1e-5f);
  EXPECT_NEAR(angle_difference(0, 7 * kPi / 2), -kPi / 2, 1e-4f);
}

TEST(PhysicsSteering, BrakesTheTurnNearTheHeading) {
  Transform t;
  t.angle = 0;
  t.angular_velocity = 3;  // turning fast toward 0.1 rad: the controller must brake
  const SteeringForce f = steering_force(t, 1, 1, command({}, 0.1f, 0, 100), 1.0f / 60);
  EXPECT_LT(f.torque, 0);
}

TEST(PhysicsSteering, BadInputsGiveNoForce) {
  Transform t;
  const f32 nan = std::nanf("");
  EXPECT_FLOAT_EQ(steering_force(t, 0, 1, command({1, 0}, 1, 10, 10), 0.1f).force.x, 0);
  EXPECT_FLOAT_EQ(steering_force(t, nan, 1, command({1, 0}, 1, 10, 10), 0.1f).force.x, 0);
  EXPECT_FLOAT_EQ(steering_force(t, 1, 1, command({1, 0}, 1, 10, 10), 0).force.x, 0);
  const SteeringForce f = steering_force(t, 1, nan, command({1, 0}, 1, 10, 10), 0.1f);
  EXPECT_FLOAT_EQ(f.torque, 0);
  EXPECT_GT(f.force.x, 0);
  SteeringCommand no_turn = command({}, 1, 10, 10);
  no_turn.steer_heading = false;
  EXPECT_FLOAT_EQ(steering_force(t, 1, 1, no_turn, 0.1f).torque, 0);
}

}  // namespace
}  // namespace keel::world
