// The fighters' poses (poses.h): key poses on the clips' strike frames, easing between keys, the
// skeleton standing on the ground and mirrored by facing, falls, walking legs.
#include "poses.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

namespace rumble {
namespace {

constexpr f32 kPi = std::numbers::pi_v<f32>;

TEST(RumblePoses, TheJabIsStraightOnItsStrikeFrame) {
  const Pose guard = pose_at("Stance", 0);
  const Pose strike = pose_at("Attack", 0.33f);
  EXPECT_FLOAT_EQ(strike.front_arm, kPi / 2);  // the upper arm straight ahead
  EXPECT_FLOAT_EQ(strike.front_elbow, 0);      // and the forearm in line with it
  EXPECT_GT(strike.lean, guard.lean);
  // The clip starts and ends in the guard, so a loop or the next clip joins without a jump.
  EXPECT_FLOAT_EQ(pose_at("Attack", 0).front_arm, guard.front_arm);
  EXPECT_FLOAT_EQ(pose_at("Attack", 1).front_arm, guard.front_arm);
}

TEST(RumblePoses, BetweenKeysTheAnglesAreEasedAndStayBetween) {
  const Pose a = pose_at("Attack", 0);
  const Pose b = pose_at("Attack", 0.33f);
  f32 last = a.front_arm;
  for (int i = 1; i <= 10; ++i) {
    const f32 arm = pose_at("Attack", 0.033f * static_cast<f32>(i)).front_arm;
    EXPECT_GE(arm, last - 1e-5f);  // in-out sine: monotonic, no overshoot
    EXPECT_LE(arm, b.front_arm + 1e-5f);
    last = arm;
  }
  // In-out sine: slow at both ends, so the first tenth moves less than a tenth of the way.
  EXPECT_LT(pose_at("Attack", 0.033f).front_arm - a.front_arm, (b.front_arm - a.front_arm) * 0.1f);
}

TEST(RumblePoses, UnknownAliasesAndBadProgressAreTheGuard) {
  const Pose guard = pose_at("Stance", 0);
  EXPECT_FLOAT_EQ(pose_at("NoSuchAlias", 0.5f).front_arm, pose_at("Stance", 0.5f).front_arm);
  EXPECT_FLOAT_EQ(pose_at("Attack", -3).front_arm, guard.front_arm);
  EXPECT_FLOAT_EQ(pose_at("Attack", std::nanf("")).front_arm, guard.front_arm);
  EXPECT_FLOAT_EQ(pose_at("Die", 7).fall, -kPi / 2);  // clamped to the end: lying down
}

TEST(RumblePoses, TheSkeletonStandsOnTheGroundAndFacesItsWay) {
  const Pose guard = pose_at("Stance", 0);
  const Skeleton right = skeleton(guard, {500, 400}, +1, 2);
  const Skeleton left = skeleton(guard, {500, 400}, -1, 2);
  EXPECT_NEAR(std::max(right.front_foot.y, right.back_foot.y), 400, 1e-3);  // feet on the floor
  EXPECT_LT(right.head.y, right.neck.y);
  EXPECT_LT(right.neck.y, right.hip.y);
  EXPECT_GT(400 - right.head.y, 2 * (kThigh + kTorso) * 0.9f);  // about a figure tall, scaled
  // Mirrored: the guard's fists are in front of the body either way.
  EXPECT_GT(right.front_hand.x, right.hip.x);
  EXPECT_LT(left.front_hand.x, left.hip.x);
  EXPECT_NEAR(right.front_hand.x - 500, 500 - left.front_hand.x, 1e-3);
  EXPECT_NEAR(right.front_hand.y, left.front_hand.y, 1e-3);
}

TEST(RumblePoses, ADeadFighterLiesBehindItsFeet) {
  const Skeleton s = skeleton(pose_at("Die", 1), {600, 400}, +1, 2);
  EXPECT_NEAR(s.head.y + 2 * kHeadRadius, 400, 1e-3);  // the head's disc rests on the floor
  EXPECT_LT(s.head.x, 600 - 2 * kTorso);               // fallen backwards (it faced right)
}

TEST(RumblePoses, WalkingSwingsTheLegsBothWays) {
  const Pose guard = pose_at("Stance", 0);
  const Pose a = with_walk(guard, 1.5f);  // a quarter stride
  const Pose b = with_walk(guard, 4.5f);  // three quarters
  EXPECT_GT(a.front_leg, guard.front_leg);
  EXPECT_LT(b.front_leg, guard.front_leg);
  EXPECT_NEAR(a.front_leg - guard.front_leg, guard.back_leg - a.back_leg, 1e-6);
  EXPECT_NEAR(with_walk(guard, 6).front_leg, with_walk(guard, 0).front_leg, 1e-5);  // a stride
}

}  // namespace
}  // namespace rumble
