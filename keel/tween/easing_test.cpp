#include "keel/tween/easing.h"

#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <string>
#include <utility>

namespace keel::tween {
namespace {

Ease ease_at_index(usize i) { return static_cast<Ease>(i); }

TEST(Easing, EveryCurveIsExactlyZeroAtZeroAndOneAtOne) {
  for (usize i = 0; i < kEaseCount; ++i) {
    const Ease e = ease_at_index(i);
    EXPECT_EQ(ease(e, 0.0f), 0.0f) << ease_name(e);
    EXPECT_EQ(ease(e, 1.0f), 1.0f) << ease_name(e);
  }
}

TEST(Easing, KnownValuesOfTheStandardSet) {
  // Values of the standard formulas (easings.net) worked out by hand.
  const std::pair<Ease, std::pair<f32, f32>> cases[] = {
      {Ease::kLinear, {0.3f, 0.3f}},
      {Ease::kInQuad, {0.5f, 0.25f}},
      {Ease::kOutQuad, {0.5f, 0.75f}},
      {Ease::kInOutQuad, {0.25f, 0.125f}},
      {Ease::kInOutCubic, {0.25f, 0.0625f}},
      {Ease::kInQuart, {0.5f, 0.0625f}},
      {Ease::kOutQuint, {0.5f, 0.96875f}},
      {Ease::kInSine, {0.5f, 0.29289322f}},
      {Ease::kOutSine, {0.5f, 0.70710678f}},
      {Ease::kInOutSine, {0.25f, 0.14644661f}},
      {Ease::kInExpo, {0.5f, 0.03125f}},
      {Ease::kOutExpo, {0.5f, 0.96875f}},
      {Ease::kInOutExpo, {0.25f, 0.015625f}},
      {Ease::kInCirc, {0.5f, 0.13397460f}},
      {Ease::kOutCirc, {0.5f, 0.86602540f}},
      {Ease::kInBack, {0.5f, -0.0876975f}},
      {Ease::kOutBack, {0.5f, 1.0876975f}},
      {Ease::kInOutBack, {0.25f, -0.0996818f}},
      {Ease::kOutElastic, {0.5f, 1.015625f}},
      {Ease::kInElastic, {0.5f, -0.015625f}},
      {Ease::kInOutElastic, {0.25f, 0.0119694f}},
      {Ease::kOutBounce, {0.5f, 0.765625f}},
      {Ease::kInBounce, {0.5f, 0.234375f}},
      {Ease::kInOutBounce, {0.25f, 0.1171875f}},
  };
  for (const auto& [e, tv] : cases) {
    EXPECT_NEAR(ease(e, tv.first), tv.second, 2e-6f) << ease_name(e) << " at " << tv.first;
  }
}

TEST(Easing, OutIsInPlayedBackwardsAndInOutIsSymmetric) {
  for (usize i = 0; i < kEaseCount; ++i) {
    const Ease e = ease_at_index(i);
    for (f32 t = 0.0f; t <= 1.0f; t += 0.03125f) {
      EXPECT_NEAR(ease(mirror(e), t), 1.0f - ease(e, 1.0f - t), 2e-5f)
          << ease_name(e) << " at " << t;
    }
  }
  EXPECT_EQ(mirror(Ease::kInBounce), Ease::kOutBounce);
  EXPECT_EQ(mirror(Ease::kOutQuad), Ease::kInQuad);
  EXPECT_EQ(mirror(Ease::kInOutBack), Ease::kInOutBack);
  EXPECT_EQ(mirror(Ease::kLinear), Ease::kLinear);
}

TEST(Easing, RuntimeAndCompileTimeAgree) {
  for (f32 t = 0.0f; t <= 1.0f; t += 0.1f) {
    EXPECT_EQ(ease(Ease::kOutBounce, t), ease_at<Ease::kOutBounce>(t));
    EXPECT_EQ(ease(Ease::kInOutElastic, t), ease_at<Ease::kInOutElastic>(t));
    EXPECT_EQ(ease(Ease::kInCubic, t), t * t * t);
  }
}

TEST(Easing, CurvesAreMonotonicWhereTheyShouldBe) {
  // Everything but back, elastic and bounce rises monotonically.
  for (usize i = 0; i < kEaseCount; ++i) {
    const Ease e = ease_at_index(i);
    const std::string name(ease_name(e));
    if (name.find("back") != std::string::npos || name.find("elastic") != std::string::npos ||
        name.find("bounce") != std::string::npos) {
      continue;
    }
    f32 previous = 0.0f;
    for (int k = 1; k <= 256; ++k) {
      const f32 v = ease(e, static_cast<f32>(k) / 256.0f);
      EXPECT_GE(v, previous) << name << " at " << k;
      previous = v;
    }
  }
}

TEST(Easing, NamesAreUnique) {
  std::set<std::string> names;
  for (usize i = 0; i < kEaseCount; ++i) names.emplace(ease_name(ease_at_index(i)));
  EXPECT_EQ(names.size(), kEaseCount);
  EXPECT_EQ(ease_name(Ease::kInOutBounce), "in_out_bounce");
  EXPECT_EQ(ease_name(Ease::kOutSine), "out_sine");
}

}  // namespace
}  // namespace keel::tween
