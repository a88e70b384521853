// Steady-state frames allocate nothing, counted by core's allocation counter (keel::core_testing
// replaces operator new in this test executable).
#include "keel/core/testing/alloc_counter.h"
#include "keel/tween/steps.h"
#include "keel/tween/trigger_system.h"
#include "keel/tween/tween_system.h"

#include "keel/tween/testing/values.h"

#include <gtest/gtest.h>

#include <deque>

namespace keel::tween {
namespace {

TEST(TweenAllocations, SteadyStateFramesDoNotAllocate) {
  TweenSystem tweens;
  TriggerSystem triggers;
  std::deque<f32> floats(2000);
  std::deque<testing::Vec2> vectors(200);
  f32 wave = 0.0f;
  const Ease eases[] = {Ease::kLinear, Ease::kOutQuad, Ease::kInOutBack, Ease::kOutBounce};
  for (usize i = 0; i < floats.size(); ++i) {
    tweens.tween(floats[i], 0.5f + static_cast<f32>(i % 7) * 0.1f, 0.0f, 1.0f,
                 {.ease = eases[i % 4], .loops = kForever, .ping_pong = (i % 3) == 0});
  }
  for (usize i = 0; i < vectors.size(); ++i) {
    tweens.cubic(vectors[i], 1.0f, testing::Vec2{}, testing::Vec2{1, 2}, testing::Vec2{3, 1},
                 testing::Vec2{4, 4}, {.loops = kForever});
  }
  tweens.oscillate(wave, Oscillation<f32>{.amplitude = 1.0f, .frequency = 3.0f});
  // Churn: a short tween that ends every few frames and is started again (no callback, no id).
  f32 churn = 0.0f;
  TweenHandle churner = tweens.tween(churn, 0.05f, 0.0f, 1.0f);
  int level_fires = 0;
  triggers.greater(wave, 0.0f, [&] { ++level_fires; }, {.once = false});
  triggers.less(wave, 0.0f, [&] { ++level_fires; }, {.once = false, .mode = TriggerMode::kEdge});
  TweenHandle paused = tweens.tween(floats[0], 100.0f, 0.0f, 1.0f);

  auto frame = [&](int i) {
    if (!tweens.alive(churner)) churner = tweens.tween(churn, 0.05f, 0.0f, 1.0f);
    if (i % 2 == 0) {
      tweens.pause(paused);
    } else {
      tweens.resume(paused);
    }
    tweens.update(1.0 / 60.0);
    triggers.update();
  };
  for (int i = 0; i < 100; ++i) frame(i);  // warm up: every buffer reaches its size
  const keel::testing::AllocationScope scope;
  for (int i = 0; i < 1000; ++i) frame(i);
  EXPECT_EQ(scope.count(), 0u) << scope.counts();
  EXPECT_GT(level_fires, 0);
}

}  // namespace
}  // namespace keel::tween
