// Entry points of the kernel given bad caller input: each is refused (false) or asserts with a
// message naming the mistake, and none crashes in a release build (issue 17, section 4).
#include "keel/core/clock.h"
#include "keel/core/testing/assert_recorder.h"
#include "keel/kernel/frame_clock.h"
#include "keel/kernel/kernel.h"
#include "keel/kernel/testing/recording_task.h"

#include <gtest/gtest.h>

#include <limits>
#include <memory>
#include <string>

namespace keel::kernel {
namespace {

using testing::Log;
using testing::RecordingTask;

using keel::testing::AssertRecorder;

TEST(EntryPoints, KernelTasksOfAnotherKernel) {
  FakeClock clock;
  Log log;
  Kernel mine(clock);
  Kernel other(clock);
  auto task = std::make_shared<RecordingTask>(log, "t");
  ASSERT_TRUE(other.add(task));
  EXPECT_FALSE(mine.suspend(*task));
  EXPECT_FALSE(mine.resume(*task));
  EXPECT_FALSE(mine.remove(*task));
  ASSERT_TRUE(other.suspend(*task));
  EXPECT_FALSE(mine.resume(*task));
  EXPECT_FALSE(mine.remove(*task));
  EXPECT_EQ(other.paused_count(), 1u);
  // A task never added anywhere.
  RecordingTask loose(log, "loose");
  EXPECT_FALSE(mine.suspend(loose));
  EXPECT_FALSE(mine.resume(loose));
  EXPECT_FALSE(mine.remove(loose));
  EXPECT_EQ(task->suspends, 1);
  EXPECT_EQ(loose.starts, 0);
}

TEST(EntryPoints, KernelCallsInTheWrongOrder) {
  AssertRecorder asserts;
  FakeClock clock;
  Log log;
  Kernel kernel(clock);
  auto task = std::make_shared<RecordingTask>(log, "t");
  ASSERT_TRUE(kernel.add(task));
  EXPECT_FALSE(kernel.resume(*task));  // running, not paused
  ASSERT_TRUE(kernel.remove(*task));
  EXPECT_FALSE(kernel.remove(*task));   // already marked
  EXPECT_FALSE(kernel.suspend(*task));  // marked for killing
  // The loop's entry points called from inside a frame are refused.
  auto nested = std::make_shared<RecordingTask>(log, "nested");
  nested->on_update = [](const Frame& f, RecordingTask&) {
    f.kernel.run();
    EXPECT_EQ(f.kernel.run_frames(3), 0u);
    f.kernel.shutdown();
  };
  ASSERT_TRUE(kernel.add(nested));
  kernel.step();
  EXPECT_EQ(nested->updates, 1);
  asserts.expect_assert_count(3, "from inside a frame");
  kernel.shutdown();
  kernel.shutdown();  // twice: nothing left to stop
  EXPECT_EQ(task->stops, 1);
  EXPECT_EQ(kernel.run_frames(0), 0u);  // zero frames
  kernel.run();                         // no tasks: returns at once
}

TEST(EntryPoints, KernelNullTasksAndHooks) {
  AssertRecorder asserts;
  FakeClock clock;
  Kernel kernel(clock);
  EXPECT_FALSE(kernel.add(nullptr));
  const Kernel::HookId empty = kernel.add_frame_begin_hook({});
  asserts.expect_assert_count(2, "empty frame hook");
  kernel.step();  // the empty hook is never called
  EXPECT_FALSE(kernel.remove_frame_hook(9999));
  EXPECT_FALSE(kernel.remove_frame_hook(empty));  // never live
  EXPECT_FALSE(kernel.remove_frame_hook(0));
}

TEST(EntryPoints, FrameClockZeroOrNegativeTiming) {
  AssertRecorder asserts;
  FakeClock clock;
  FrameClock frames(clock, {.max_dt = 0.0, .fixed_dt = -1.0, .max_fixed_steps = 0});
  asserts.expect_assert_count(3);
  EXPECT_GT(frames.config().max_dt, 0.0);
  EXPECT_EQ(frames.config().fixed_dt, 0.0);
  EXPECT_GE(frames.config().max_fixed_steps, 1u);
  frames.set_config({.max_dt = std::numeric_limits<f64>::quiet_NaN()});
  EXPECT_GT(frames.config().max_dt, 0.0);
  Kernel kernel(clock, {.max_dt = -5.0});
  EXPECT_GT(kernel.frame_clock().config().max_dt, 0.0);
  Frame frame{kernel};
  frames.advance(frame);
  clock.advance_seconds(10.0);
  frames.advance(frame);
  EXPECT_LE(frame.dt, frames.config().max_dt);
}

}  // namespace
}  // namespace keel::kernel
