// The spec's derived interpolator checks (section 6) and the seed's kinds: linear, quadratic,
// cubic, any-degree Bernstein, the sine oscillator, the timing rule and freezing.
#include "keel/tween/tween_system.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <optional>
#include <vector>

namespace keel::tween {
namespace {

TEST(Interpolator, Derived_LinearQuarterTime) {
  TweenSystem tweens;
  f32 x = -1.0f;
  tweens.tween(x, 2.0f, 0.0f, 10.0f);
  EXPECT_EQ(x, -1.0f);  // nothing is written before the first update
  tweens.update(0.5);
  EXPECT_FLOAT_EQ(x, 2.5f);
}

TEST(Interpolator, Derived_QuadraticHalfway) {
  TweenSystem tweens;
  f32 x = -1.0f;
  tweens.quadratic(x, 2.0f, 0.0f, 10.0f, 0.0f);
  tweens.update(1.0);  // b = 0.5
  EXPECT_FLOAT_EQ(x, 5.0f);
}

TEST(Interpolator, Derived_CubicHalfway) {
  TweenSystem tweens;
  f32 x = -1.0f;
  tweens.cubic(x, 2.0f, 0.0f, 0.0f, 10.0f, 10.0f);
  tweens.update(1.0);
  EXPECT_FLOAT_EQ(x, 5.0f);
}

TEST(Interpolator, Derived_EndsExactlyOnEndAndDies) {
  // Steps that do not add up to the duration exactly, and awkward end values.
  TweenSystem tweens;
  f32 lin = 0.0f;
  f32 quad = 0.0f;
  f32 cub = 0.0f;
  f32 eased = 0.0f;
  const TweenHandle hl = tweens.tween(lin, 1.0f, 0.1f, 0.7f);
  const TweenHandle hq = tweens.quadratic(quad, 1.0f, 0.3f, 9.1f, 0.7f);
  const TweenHandle hc = tweens.cubic(cub, 1.0f, 0.3f, 9.1f, -4.4f, 0.7f);
  const TweenHandle he = tweens.tween(eased, 1.0f, 0.1f, 0.7f, {.ease = Ease::kOutElastic});
  for (int i = 0; i < 3; ++i) tweens.update(0.3);  // 0.9 s: not yet
  EXPECT_TRUE(tweens.alive(hl));
  EXPECT_TRUE(tweens.alive(hq));
  EXPECT_NE(lin, 0.7f);
  tweens.update(0.3);  // 1.2 s: past the end
  EXPECT_EQ(lin, 0.7f);
  EXPECT_EQ(quad, 0.7f);
  EXPECT_EQ(cub, 0.7f);
  EXPECT_EQ(eased, 0.7f);
  EXPECT_FALSE(tweens.alive(hl));
  EXPECT_FALSE(tweens.alive(hq));
  EXPECT_FALSE(tweens.alive(hc));
  EXPECT_FALSE(tweens.alive(he));
  EXPECT_EQ(tweens.size(), 0u);
  // Dead handles are inert.
  EXPECT_FALSE(tweens.kill(hl));
  EXPECT_FALSE(tweens.pause(hl));
  EXPECT_FALSE(tweens.reset(hl));
  EXPECT_FALSE(tweens.elapsed(hl).has_value());
  lin = 42.0f;
  tweens.update(0.3);
  EXPECT_EQ(lin, 42.0f);  // nobody writes it any more
}

TEST(Interpolator, Derived_EndsInTheUpdateThatReachesTheDuration) {
  // elapsed == total exactly: the end value is written and the tween is gone in that update
  // (the seed needed one more frame, since it tested elapsed > total).
  TweenSystem tweens;
  f32 x = 0.0f;
  const TweenHandle h = tweens.tween(x, 2.0f, 0.0f, 10.0f);
  for (int i = 0; i < 4; ++i) tweens.update(0.5);
  EXPECT_EQ(x, 10.0f);
  EXPECT_FALSE(tweens.alive(h));
}

TEST(Interpolator, Derived_FrozenOneSecondShiftsByOneSecond) {
  TweenSystem tweens;
  f32 free_x = 0.0f;
  f32 frozen_x = 0.0f;
  tweens.cubic(free_x, 3.0f, 0.0f, 8.0f, -2.0f, 5.0f);
  const TweenHandle h = tweens.cubic(frozen_x, 3.0f, 0.0f, 8.0f, -2.0f, 5.0f);
  std::vector<f32> free_values;
  std::vector<f32> frozen_values;
  // 0.1 s frames; the frozen one is paused for ten frames (1 s) after 0.5 s. 4.5 s in all: both
  // end (0.1 f32 steps sum to slightly under 3 s after 30 frames).
  for (int frame = 0; frame < 45; ++frame) {
    if (frame == 5) tweens.pause(h);
    if (frame == 15) tweens.resume(h);
    const f32 before = frozen_x;
    tweens.update(0.1);
    if (frame >= 5 && frame < 15) {
      EXPECT_EQ(frozen_x, before) << "a frozen interpolator writes nothing";
    }
    free_values.push_back(free_x);
    frozen_values.push_back(frozen_x);
  }
  // frozen(t + 1 s) == free(t) for every frame after the freeze (same dt sequence, so exact).
  for (int frame = 15; frame < 45; ++frame) {
    EXPECT_EQ(frozen_values[frame], free_values[frame - 10]) << "frame " << frame;
  }
  EXPECT_EQ(frozen_x, 5.0f);
}

TEST(Interpolator, PausedQueriesAndElapsed) {
  TweenSystem tweens;
  f32 x = 0.0f;
  const TweenHandle h = tweens.tween(x, 2.0f, 0.0f, 10.0f);
  tweens.update(0.5);
  EXPECT_FALSE(tweens.is_paused(h));
  EXPECT_TRUE(tweens.pause(h));
  EXPECT_TRUE(tweens.is_paused(h));
  tweens.update(5.0);
  EXPECT_TRUE(tweens.alive(h));
  EXPECT_FLOAT_EQ(*tweens.elapsed(h), 0.5f);
  EXPECT_TRUE(tweens.resume(h));
  tweens.update(0.5);
  EXPECT_FLOAT_EQ(x, 5.0f);
}

TEST(Interpolator, ResetRestartsWithoutWriting) {
  TweenSystem tweens;
  f32 x = 0.0f;
  const TweenHandle h = tweens.tween(x, 2.0f, 0.0f, 10.0f);
  tweens.update(1.5);
  EXPECT_FLOAT_EQ(x, 7.5f);
  EXPECT_TRUE(tweens.reset(h));
  EXPECT_FLOAT_EQ(x, 7.5f);
  EXPECT_EQ(*tweens.elapsed(h), 0.0f);
  tweens.update(0.5);
  EXPECT_FLOAT_EQ(x, 2.5f);
}

TEST(Interpolator, KillLeavesTheCurrentValue) {
  TweenSystem tweens;
  f32 x = 0.0f;
  bool completed = false;
  const TweenHandle h =
      tweens.tween(x, 2.0f, 0.0f, 10.0f, {.on_complete = [&] { completed = true; }});
  tweens.update(1.0);
  EXPECT_TRUE(tweens.kill(h));
  EXPECT_FALSE(tweens.alive(h));
  tweens.update(5.0);
  EXPECT_FLOAT_EQ(x, 5.0f);
  EXPECT_FALSE(completed);  // kill is not completion
}

TEST(Interpolator, BernsteinAnyDegree) {
  // Degree 4 with controls (0, 0, 16, 0, 0) at b = 0.5: C(4,2) * 0.5^4 * 16 = 6.
  TweenSystem tweens;
  f32 x = -1.0f;
  tweens.bernstein(x, 1.0f, {0.0f, 0.0f, 16.0f, 0.0f, 0.0f});
  tweens.update(0.5);
  EXPECT_FLOAT_EQ(x, 6.0f);

  // Degree 6 against the general formula at b = 0.3.
  const std::vector<f32> c = {1.0f, -2.0f, 5.0f, 0.5f, 3.0f, -1.0f, 2.0f};
  f32 y = 0.0f;
  tweens.bernstein<f32>(y, 1.0f, c);
  tweens.update(0.3);
  f64 expect = 0.0;
  const f64 b = 0.3;
  for (int r = 0; r <= 6; ++r) {
    const f64 binom = std::tgamma(7.0) / (std::tgamma(r + 1.0) * std::tgamma(7.0 - r));
    expect += binom * std::pow(1 - b, 6 - r) * std::pow(b, r) * c[static_cast<usize>(r)];
  }
  EXPECT_NEAR(y, expect, 1e-5);

  // Two controls are the linear interpolator, one control is a constant.
  f32 z = 0.0f;
  tweens.bernstein(z, 2.0f, {0.0f, 10.0f});
  tweens.update(0.5);
  EXPECT_FLOAT_EQ(z, 2.5f);
  f32 k = 0.0f;
  tweens.bernstein(k, 1.0f, {7.0f});
  tweens.update(0.1);
  EXPECT_EQ(k, 7.0f);
}

TEST(Interpolator, BernsteinEndsExactlyOnLastControl) {
  TweenSystem tweens;
  f32 x = 0.0f;
  const TweenHandle h = tweens.bernstein(x, 1.0f, {0.3f, 9.1f, -4.4f, 2.2f, 7.7f, 0.7f});
  tweens.update(0.7);
  tweens.update(0.7);
  EXPECT_EQ(x, 0.7f);
  EXPECT_FALSE(tweens.alive(h));
}

TEST(Interpolator, ZeroDurationEndsOnFirstUpdate) {
  TweenSystem tweens;
  f32 x = 0.0f;
  f32 y = 0.0f;
  const TweenHandle h = tweens.tween(x, 0.0f, 1.0f, 3.0f);
  const TweenHandle hc = tweens.quadratic(y, 0.0f, 1.0f, 2.0f, 3.0f);
  tweens.update(0.0);  // even a frame with dt 0 (the kernel's first frame)
  EXPECT_EQ(x, 3.0f);
  EXPECT_EQ(y, 3.0f);
  EXPECT_FALSE(tweens.alive(h));
  EXPECT_FALSE(tweens.alive(hc));
}

TEST(Interpolator, DelayWritesNothingUntilItStarts) {
  TweenSystem tweens;
  f32 x = -1.0f;
  const TweenHandle h = tweens.tween(x, 1.0f, 0.0f, 10.0f, {.delay = 0.5f});
  tweens.update(0.25);
  EXPECT_EQ(x, -1.0f);
  EXPECT_FLOAT_EQ(*tweens.elapsed(h), -0.25f);
  tweens.update(0.5);  // 0.25 s into the play
  EXPECT_FLOAT_EQ(x, 2.5f);
}

TEST(Interpolator, SineOscillatorRunsForever) {
  TweenSystem tweens;
  f32 y = 0.0f;
  const Oscillation<f32> wave{.amplitude = 2.0f, .frequency = 0.5f, .phase = 0.25f, .center = 1.0f};
  const TweenHandle h = tweens.oscillate(y, wave);
  f64 t = 0.0;
  for (int i = 0; i < 1000; ++i) {
    tweens.update(0.37);
    t += 0.37;
    const f64 expect = 1.0 + 2.0 * std::sin(2.0 * std::numbers::pi * 0.5 * t + 0.25);
    ASSERT_NEAR(y, expect, 1e-4) << "t = " << t;
  }
  EXPECT_TRUE(tweens.alive(h));
  const std::optional<f32> time = tweens.elapsed(h);
  ASSERT_TRUE(time.has_value());
  EXPECT_GE(*time, 0.0f);
  EXPECT_LT(*time, 2.0f);  // wrapped to one period (1 / 0.5 Hz), not 370 s
  EXPECT_TRUE(tweens.kill(h));
  EXPECT_EQ(tweens.size(), 0u);
}

TEST(Interpolator, OscillatorPauseAndReset) {
  TweenSystem tweens;
  f32 y = 0.0f;
  const TweenHandle h = tweens.oscillate(y, {.amplitude = 1.0f, .frequency = 0.25f});
  tweens.update(1.0);  // quarter period: sin(pi/2) = 1
  EXPECT_NEAR(y, 1.0f, 1e-6);
  tweens.pause(h);
  tweens.update(1.0);
  EXPECT_NEAR(y, 1.0f, 1e-6);
  tweens.resume(h);
  tweens.reset(h);
  tweens.update(0.0);
  EXPECT_NEAR(y, 0.0f, 1e-6);
}

}  // namespace
}  // namespace keel::tween
