// Frame timing: dt and its clamp, total time, frame numbers, the fixed-step accumulator.
#include "keel/kernel/frame_clock.h"

#include "keel/core/clock.h"
#include "keel/kernel/kernel.h"
#include "keel/kernel/testing/recording_task.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <memory>
#include <vector>

namespace keel::kernel {
namespace {

using ::testing::ElementsAre;
using testing::Log;
using testing::RecordingTask;

constexpr f64 kHz60 = 1.0 / 60.0;

// Records the Frame seen by update() each frame.
struct FrameRecorder {
  FrameRecorder(Kernel& kernel, Log& log) : task(std::make_shared<RecordingTask>(log, "rec")) {
    task->on_update = [this](const Frame& f, RecordingTask&) {
      frames.push_back(
          {f.number, f.dt, f.real_dt, f.time, f.fixed_dt, f.fixed_steps, f.fixed_time, f.alpha});
    };
    EXPECT_TRUE(kernel.add(task));
  }
  struct Seen {
    u64 number;
    f64 dt, real_dt, time, fixed_dt;
    u32 fixed_steps;
    f64 fixed_time, alpha;
  };
  std::shared_ptr<RecordingTask> task;
  std::vector<Seen> frames;
};

TEST(FrameClock, FirstFrameHasZeroDtThenClockDeltas) {
  FakeClock clock(seconds_to_ns(100.0));
  Log log;
  Kernel kernel(clock);
  FrameRecorder rec(kernel, log);
  kernel.step();
  clock.advance_seconds(0.016);
  kernel.step();
  clock.advance_seconds(0.020);
  kernel.step();
  ASSERT_EQ(rec.frames.size(), 3u);
  EXPECT_EQ(rec.frames[0].number, 0u);
  EXPECT_EQ(rec.frames[0].dt, 0.0);
  EXPECT_EQ(rec.frames[0].time, 0.0);
  EXPECT_EQ(rec.frames[1].number, 1u);
  EXPECT_DOUBLE_EQ(rec.frames[1].dt, 0.016);
  EXPECT_DOUBLE_EQ(rec.frames[1].time, 0.016);
  EXPECT_EQ(rec.frames[2].number, 2u);
  EXPECT_DOUBLE_EQ(rec.frames[2].dt, 0.020);
  EXPECT_DOUBLE_EQ(rec.frames[2].time, 0.036);
  EXPECT_EQ(kernel.frame_clock().frames(), 3u);
  EXPECT_EQ(rec.frames[1].fixed_steps, 0u);  // fixed step off by default
  EXPECT_EQ(rec.frames[1].alpha, 0.0);
  EXPECT_EQ(rec.task->fixed_updates, 0);
}

TEST(FrameClock, DtIsClampedToTheMaximum) {
  FakeClock clock;
  Log log;
  Kernel kernel(clock, {.max_dt = 0.1});
  FrameRecorder rec(kernel, log);
  kernel.step();
  clock.advance_seconds(5.0);  // a debugger pause
  kernel.step();
  clock.advance_seconds(0.05);
  kernel.step();
  ASSERT_EQ(rec.frames.size(), 3u);
  EXPECT_DOUBLE_EQ(rec.frames[1].dt, 0.1);
  EXPECT_DOUBLE_EQ(rec.frames[1].real_dt, 5.0);
  EXPECT_DOUBLE_EQ(rec.frames[2].dt, 0.05);
  EXPECT_DOUBLE_EQ(rec.frames[2].time, 0.15);  // total time is the sum of clamped dts
  EXPECT_EQ(kernel.frame_clock().clamped_frames(), 1u);
}

TEST(FrameClock, RestartMakesTheNextFrameMeasureNothing) {
  FakeClock clock;
  Log log;
  Kernel kernel(clock);
  FrameRecorder rec(kernel, log);
  kernel.step();
  clock.advance_seconds(0.01);
  kernel.step();
  clock.advance_seconds(3.0);  // loading
  kernel.frame_clock().restart();
  kernel.step();
  ASSERT_EQ(rec.frames.size(), 3u);
  EXPECT_EQ(rec.frames[2].dt, 0.0);
  EXPECT_DOUBLE_EQ(rec.frames[2].time, 0.01);
  EXPECT_EQ(kernel.frame_clock().clamped_frames(), 0u);
}

TEST(FrameClock, FixedStep_SixtyHertzWithFiftyMillisecondFrames) {
  FakeClock clock;
  Log log;
  Kernel kernel(clock, {.fixed_dt = kHz60});
  FrameRecorder rec(kernel, log);
  kernel.step();  // dt 0: no steps
  EXPECT_EQ(rec.task->fixed_updates, 0);
  for (int i = 0; i < 20; ++i) {
    const int before = rec.task->fixed_updates;
    clock.advance_seconds(0.05);
    kernel.step();
    EXPECT_EQ(rec.task->fixed_updates - before, 3) << "frame " << i + 1;
    EXPECT_EQ(rec.frames.back().fixed_steps, 3u);
    EXPECT_NEAR(rec.frames.back().alpha, 0.0, 1e-6);
  }
  EXPECT_EQ(rec.task->fixed_updates, 60);
  EXPECT_NEAR(kernel.frame_clock().fixed_time(), 1.0, 1e-9);
  EXPECT_NEAR(rec.frames.back().fixed_time, 1.0, 1e-9);
  EXPECT_EQ(kernel.frame_clock().dropped_fixed_steps(), 0u);
}

TEST(FrameClock, FixedStep_FortyMillisecondFramesCarryTheRemainder) {
  FakeClock clock;
  Log log;
  Kernel kernel(clock, {.fixed_dt = kHz60});
  FrameRecorder rec(kernel, log);
  kernel.step();
  std::vector<u32> steps;
  std::vector<f64> alphas;
  for (int i = 0; i < 5; ++i) {
    clock.advance_seconds(0.04);  // 2.4 steps per frame
    kernel.step();
    steps.push_back(rec.frames.back().fixed_steps);
    alphas.push_back(rec.frames.back().alpha);
  }
  EXPECT_THAT(steps, ElementsAre(2u, 2u, 3u, 2u, 3u));
  const f64 expected[] = {0.4, 0.8, 0.2, 0.6, 0.0};
  for (int i = 0; i < 5; ++i) EXPECT_NEAR(alphas[i], expected[i], 1e-6) << "frame " << i + 1;
  EXPECT_EQ(rec.task->fixed_updates, 12);  // 0.2 s at 60 Hz
}

TEST(FrameClock, FixedStep_CapHonouredAndExcessDroppedAndCounted) {
  FakeClock clock;
  Log log;
  Kernel kernel(clock, {.fixed_dt = kHz60, .max_fixed_steps = 4});
  FrameRecorder rec(kernel, log);
  kernel.step();
  clock.advance_seconds(0.11);  // 6.6 steps due
  kernel.step();
  EXPECT_EQ(rec.frames.back().fixed_steps, 4u);
  EXPECT_EQ(rec.task->fixed_updates, 4);
  EXPECT_EQ(kernel.frame_clock().dropped_fixed_steps(), 2u);
  EXPECT_NEAR(kernel.frame_clock().dropped_time(), 2 * kHz60, 1e-12);
  EXPECT_NEAR(rec.frames.back().alpha, 0.6, 1e-6);  // the fraction is kept
  clock.advance_seconds(0.05);                      // 0.6 + 3 steps
  kernel.step();
  EXPECT_EQ(rec.frames.back().fixed_steps, 3u);
  EXPECT_NEAR(rec.frames.back().alpha, 0.6, 1e-6);
  EXPECT_EQ(kernel.frame_clock().dropped_fixed_steps(), 2u);
}

TEST(FrameClock, FixedStep_ClampAppliesBeforeTheCap) {
  FakeClock clock;
  Log log;
  Kernel kernel(clock, {.max_dt = 0.25, .fixed_dt = kHz60, .max_fixed_steps = 8});
  FrameRecorder rec(kernel, log);
  kernel.step();
  clock.advance_seconds(10.0);  // clamped to 0.25 s = 15 steps; 8 run, 7 dropped
  kernel.step();
  EXPECT_EQ(rec.frames.back().fixed_steps, 8u);
  EXPECT_EQ(kernel.frame_clock().dropped_fixed_steps(), 7u);
  EXPECT_EQ(kernel.frame_clock().clamped_frames(), 1u);
}

TEST(FrameClock, FixedUpdatesRunBeforeUpdateInPriorityOrder) {
  FakeClock clock;
  Log log;
  Kernel kernel(clock, {.fixed_dt = 0.01});
  auto a = std::make_shared<RecordingTask>(log, "A", 1000);
  auto b = std::make_shared<RecordingTask>(log, "B", 2000);
  std::vector<u32> indices;
  std::vector<f64> times;
  b->on_fixed_update = [&](const Frame& f, RecordingTask&) {
    indices.push_back(f.fixed_step);
    times.push_back(f.fixed_time);
    EXPECT_DOUBLE_EQ(f.fixed_dt, 0.01);
  };
  kernel.add(b);
  kernel.add(a);
  kernel.step();
  clock.advance_seconds(0.02);
  log.clear();
  kernel.step();
  EXPECT_THAT(log, ElementsAre("fixed A", "fixed B", "fixed A", "fixed B", "update A", "update B"));
  EXPECT_THAT(indices, ElementsAre(0u, 1u));
  ASSERT_EQ(times.size(), 2u);
  EXPECT_NEAR(times[0], 0.0, 1e-12);
  EXPECT_NEAR(times[1], 0.01, 1e-12);
  EXPECT_NEAR(kernel.frame().fixed_time, 0.02, 1e-12);
}

TEST(FrameClock, TaskSuspendedInAFixedStepGetsNoMoreStepsOrUpdate) {
  FakeClock clock;
  Log log;
  Kernel kernel(clock, {.fixed_dt = 0.01});
  auto a = std::make_shared<RecordingTask>(log, "A", 1000);
  auto b = std::make_shared<RecordingTask>(log, "B", 2000);
  a->on_fixed_update = [&](const Frame& f, RecordingTask&) {
    if (f.fixed_step == 1) f.kernel.suspend(*b);
  };
  kernel.add(a);
  kernel.add(b);
  kernel.step();
  clock.advance_seconds(0.03);
  log.clear();
  kernel.step();
  EXPECT_THAT(log,
              ElementsAre("fixed A", "fixed B", "fixed A", "suspend B", "fixed A", "update A"));
}

TEST(FrameClock, FixedStepCanBeChangedBetweenFrames) {
  FakeClock clock;
  Log log;
  Kernel kernel(clock);
  FrameRecorder rec(kernel, log);
  kernel.step();
  TimingConfig config = kernel.frame_clock().config();
  config.fixed_dt = 0.01;
  kernel.frame_clock().set_config(config);
  clock.advance_seconds(0.035);
  kernel.step();
  EXPECT_EQ(rec.frames.back().fixed_steps, 3u);
  EXPECT_NEAR(rec.frames.back().alpha, 0.5, 1e-6);
  config.fixed_dt = 0.0;
  kernel.frame_clock().set_config(config);
  clock.advance_seconds(0.035);
  kernel.step();
  EXPECT_EQ(rec.frames.back().fixed_steps, 0u);
  EXPECT_EQ(rec.frames.back().alpha, 0.0);
  EXPECT_EQ(kernel.frame_clock().accumulator(), 0.0);
}

TEST(FrameClock, StandaloneAdvanceWithoutTasks) {
  // The clock alone, as a headless tool might use it.
  FakeClock clock;
  Log log;
  Kernel kernel(clock);
  FrameClock fc(clock, {.max_dt = 1.0, .fixed_dt = 0.5, .max_fixed_steps = 2});
  Frame frame{kernel};
  fc.advance(frame);
  clock.advance_seconds(0.75);
  fc.advance(frame);
  EXPECT_EQ(frame.number, 1u);
  EXPECT_EQ(frame.fixed_steps, 1u);
  EXPECT_NEAR(frame.alpha, 0.5, 1e-9);
  EXPECT_NEAR(frame.fixed_time, 0.0, 1e-12);  // time at the start of this frame's steps
  EXPECT_NEAR(fc.fixed_time(), 0.5, 1e-12);
}

}  // namespace
}  // namespace keel::kernel
