// Every public entry point of tween given bad input by its caller: an assertion naming the
// mistake (debug builds) and a safe fallback, never a crash (release builds).
#include "keel/core/testing/assert_recorder.h"
#include "keel/tween/steps.h"
#include "keel/tween/trigger_system.h"
#include "keel/tween/tween_system.h"

#include "keel/tween/testing/values.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace keel::tween {
namespace {

// Asserts are recorded in asserts_ (keel/core/testing/assert_recorder.h), not fatal.
using EntryPoints = keel::testing::AssertRecordingTest;

TEST_F(EntryPoints, TweenBadTimingIsReplaced) {
  TweenSystem tweens;
  f32 x = 0.0f;
  tweens.tween(x, -1.0f, 0.0f, 5.0f);
  asserts_.expect_asserted("bad tween duration");
  tweens.tween(x, std::numeric_limits<f32>::quiet_NaN(), 0.0f, 5.0f);
  tweens.tween(x, 1.0f, 0.0f, 5.0f, {.delay = -2.0f});
  asserts_.expect_asserted("bad tween delay");
  tweens.tween(x, 1.0f, 0.0f, 5.0f, {.loops = -7});
  asserts_.expect_asserted("bad loop count");
  tweens.tween(x, 1.0f, 0.0f, 5.0f, {.ease = static_cast<Ease>(200)});
  asserts_.expect_asserted("bad ease");
  tweens.reserve(10, static_cast<Ease>(200));
  tweens.update(2.0);
  EXPECT_EQ(tweens.size(), 0u);  // all ended: the zero-length ones at once, the rest after 1 s
  EXPECT_EQ(x, 5.0f);
}

TEST_F(EntryPoints, TweenBadFramesAndWrongOrder) {
  TweenSystem tweens;
  f32 x = 0.0f;
  tweens.tween(x, 1.0f, 0.0f, 1.0f);
  tweens.update(-1.0);
  asserts_.expect_asserted("bad dt");
  tweens.update(std::numeric_limits<f64>::infinity());
  EXPECT_EQ(x, 0.0f);  // bad frames take no time
  int nested = 0;
  tweens.after(0.0f, [&] {
    tweens.update(1.0);  // update() from inside update(): ignored
    ++nested;
  });
  tweens.update(0.1);
  asserts_.expect_asserted("from inside update");
  EXPECT_EQ(nested, 1);
}

TEST_F(EntryPoints, TweenEmptyInputs) {
  TweenSystem tweens;
  testing::Vec2 v{};
  const TweenHandle none = tweens.bernstein<testing::Vec2>(v, 1.0f, {});
  asserts_.expect_asserted("control value");
  EXPECT_TRUE(none.is_null());
  const TweenHandle empty_seq = tweens.sequence({});
  const TweenHandle empty_par = tweens.parallel({});
  tweens.update(0.0);
  EXPECT_FALSE(tweens.alive(empty_seq));  // an empty group ends at once
  EXPECT_FALSE(tweens.alive(empty_par));
  tweens.sequence({steps::call(nullptr), steps::wait(-1.0f)});
  asserts_.expect_asserted("negative wait");
  tweens.update(0.0);
  EXPECT_EQ(tweens.size(), 0u);
}

TEST_F(EntryPoints, TweenHandlesOfAnotherSystemAreDead) {
  TweenSystem a;
  TweenSystem b;
  f32 x = 0.0f;
  const TweenHandle h = a.tween(x, 1.0f, 0.0f, 1.0f);
  b.tween(x, 1.0f, 0.0f, 1.0f);  // b has a live tween in the same slot
  EXPECT_TRUE(a.alive(h));
  EXPECT_FALSE(b.alive(h));
  EXPECT_FALSE(b.kill(h));
  EXPECT_FALSE(b.pause(h));
  EXPECT_FALSE(b.reset(h));
  EXPECT_FALSE(b.elapsed(h).has_value());
  EXPECT_EQ(b.size(), 1u);
  EXPECT_FALSE(a.alive(TweenHandle{}));
  EXPECT_FALSE(a.kill(TweenHandle{}));
}

TEST_F(EntryPoints, TriggerMissingFunctionsAndForeignHandles) {
  TriggerSystem triggers;
  const TriggerHandle none = triggers.when(nullptr, [] {});
  asserts_.expect_asserted("a test and a handler");
  EXPECT_TRUE(none.is_null());
  EXPECT_TRUE(triggers.when([] { return true; }, nullptr).is_null());
  EXPECT_EQ(triggers.size(), 0u);
  triggers.update();

  TriggerSystem other;
  const TriggerHandle h = other.when([] { return false; }, [] {});
  triggers.when([] { return false; }, [] {});
  EXPECT_FALSE(triggers.alive(h));
  EXPECT_FALSE(triggers.kill(h));
  EXPECT_TRUE(other.alive(h));

  int nested = 0;
  triggers.when([] { return true; },
                [&] {
                  triggers.update();  // from inside update(): ignored
                  ++nested;
                });
  triggers.update();
  asserts_.expect_asserted("from inside update");
  EXPECT_EQ(nested, 1);
}

}  // namespace
}  // namespace keel::tween
