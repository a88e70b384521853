// TweenTask and TriggerTask inside a Kernel driven by a FakeClock.
#include "keel/tween/tasks.h"

#include "keel/core/clock.h"
#include "keel/kernel/kernel.h"
#include "keel/kernel/task.h"

#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <utility>
#include <vector>

namespace keel::tween {
namespace {

using kernel::Frame;
using kernel::Kernel;

// Runs a function every frame (game logic that changes a watched value).
class Logic final : public kernel::Task {
 public:
  Logic(s32 priority, std::function<void(const Frame&)> fn)
      : Task("logic", priority), fn_(std::move(fn)) {}
  void update(const Frame& frame) override { fn_(frame); }

 private:
  std::function<void(const Frame&)> fn_;
};

TEST(TweenTask, UpdatesWithTheFramesDeltaTime) {
  FakeClock clock;
  Kernel kernel(clock, {.max_dt = 1.0});
  auto task = kernel.create<TweenTask>();
  ASSERT_NE(task, nullptr);
  f32 x = -1.0f;
  const TweenHandle h = task->tweens().tween(x, 2.0f, 0.0f, 10.0f);
  kernel.step();  // the first frame has dt 0
  EXPECT_EQ(x, 0.0f);
  clock.advance_seconds(0.5);
  kernel.step();
  EXPECT_FLOAT_EQ(x, 2.5f);  // Derived_LinearQuarterTime through the kernel
  for (int i = 0; i < 3; ++i) {
    clock.advance_seconds(0.5);
    kernel.step();
  }
  EXPECT_EQ(x, 10.0f);
  EXPECT_FALSE(task->tweens().alive(h));
}

TEST(TweenTask, UsesTheClampedDeltaTime) {
  FakeClock clock;
  Kernel kernel(clock, {.max_dt = 0.25});
  auto task = kernel.create<TweenTask>();
  f32 x = 0.0f;
  task->tweens().tween(x, 2.0f, 0.0f, 10.0f);
  kernel.step();
  clock.advance_seconds(5.0);  // a hitch: clamped to 0.25 s
  kernel.step();
  EXPECT_FLOAT_EQ(x, 1.25f);
}

TEST(TweenTask, SuspendingTheTaskFreezesItsTweens) {
  FakeClock clock;
  Kernel kernel(clock, {.max_dt = 1.0});
  auto task = kernel.create<TweenTask>();
  f32 x = 0.0f;
  task->tweens().tween(x, 2.0f, 0.0f, 10.0f);
  kernel.step();
  clock.advance_seconds(0.5);
  kernel.step();
  ASSERT_TRUE(kernel.suspend(*task));
  // A second task keeps the kernel running while the tweens are suspended.
  auto idle = kernel.create<Logic>(1, [](const Frame&) {});
  for (int i = 0; i < 4; ++i) {
    clock.advance_seconds(0.5);
    kernel.step();
  }
  EXPECT_FLOAT_EQ(x, 2.5f);
  ASSERT_TRUE(kernel.resume(*task));  // between frames: updated from the next frame on
  clock.advance_seconds(0.5);
  kernel.step();
  EXPECT_FLOAT_EQ(x, 5.0f);
}

TEST(TriggerTask, FiresWhenLogicChangesTheWatchedValue) {
  FakeClock clock;
  Kernel kernel(clock);
  int health = 60;
  std::vector<int> values = {60, 55, 40, 30};
  usize frame_index = 0;
  // Logic updates first (lower priority number), then the triggers see the new value.
  kernel.create<Logic>(100, [&](const Frame&) { health = values[frame_index++]; });
  auto task = kernel.create<TriggerTask>(200);
  std::vector<u64> fired_frames;
  task->triggers().less(health, 50, [&] { fired_frames.push_back(kernel.frame().number); });
  for (int i = 0; i < 4; ++i) {
    clock.advance_seconds(1.0 / 60.0);
    kernel.step();
  }
  EXPECT_EQ(fired_frames, (std::vector<u64>{2}));  // the frame health became 40
}

TEST(TriggerTask, TweensAndTriggersTogether) {
  // A fade that a trigger watches: the trigger fires the frame the fade passes 0.5.
  FakeClock clock;
  Kernel kernel(clock);
  auto tweens = kernel.create<TweenTask>(100);
  auto triggers = kernel.create<TriggerTask>(200);
  f32 alpha = 1.0f;
  tweens->tweens().tween(alpha, 1.0f, 1.0f, 0.0f);
  u64 fired_at = 0;
  triggers->triggers().less(alpha, 0.5f, [&] { fired_at = kernel.frame().number; });
  kernel.step();
  for (int i = 0; i < 10; ++i) {
    clock.advance_seconds(0.1);
    kernel.step();
  }
  EXPECT_EQ(fired_at, 6u);  // alpha = 0.4 after 0.6 s (frame 6)
}

}  // namespace
}  // namespace keel::tween
