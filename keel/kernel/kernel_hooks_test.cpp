// Frame-begin and frame-end hooks.
#include "keel/kernel/kernel.h"

#include "keel/core/clock.h"
#include "keel/kernel/testing/recording_task.h"

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <memory>

namespace keel::kernel {
namespace {

using ::testing::ElementsAre;
using testing::Log;
using testing::RecordingTask;

TEST(KernelHooks, OrderAroundUpdatesAndStops) {
  FakeClock clock;
  Log log;
  Kernel kernel(clock);
  kernel.add_frame_begin_hook([&] { log.push_back("begin 1"); });
  kernel.add_frame_end_hook([&] { log.push_back("end 1"); });
  kernel.add_frame_begin_hook([&] { log.push_back("begin 2"); });
  kernel.add_frame_end_hook([&] {
    log.push_back("end 2");
    // By the time end hooks run, stopped tasks are gone (a collector sees the final state).
    log.push_back(fmt::format("running {}", kernel.running_count()));
  });
  auto a = std::make_shared<RecordingTask>(log, "A", 1000);
  auto b = std::make_shared<RecordingTask>(log, "B", 2000);
  a->on_update = [](const Frame& f, RecordingTask& self) { f.kernel.remove(self); };
  kernel.add(a);
  kernel.add(b);
  log.clear();
  kernel.step();
  EXPECT_THAT(log, ElementsAre("begin 1", "begin 2", "update A", "update B", "stop A", "end 1",
                               "end 2", "running 1"));
}

TEST(KernelHooks, RunEveryFrameEvenWithoutTasks) {
  FakeClock clock;
  Kernel kernel(clock);
  int begins = 0, ends = 0;
  kernel.add_frame_begin_hook([&] { ++begins; });
  kernel.add_frame_end_hook([&] { ++ends; });
  for (int i = 0; i < 3; ++i) kernel.step();
  EXPECT_EQ(begins, 3);
  EXPECT_EQ(ends, 3);
  // run() with no task runs no frame at all.
  kernel.run();
  EXPECT_EQ(begins, 3);
}

TEST(KernelHooks, RemovedHooksStopRunning) {
  FakeClock clock;
  Kernel kernel(clock);
  int a = 0, b = 0;
  const Kernel::HookId ha = kernel.add_frame_begin_hook([&] { ++a; });
  kernel.add_frame_end_hook([&] { ++b; });
  kernel.step();
  EXPECT_TRUE(kernel.remove_frame_hook(ha));
  EXPECT_FALSE(kernel.remove_frame_hook(ha));
  EXPECT_FALSE(kernel.remove_frame_hook(12345));
  kernel.step();
  EXPECT_EQ(a, 1);
  EXPECT_EQ(b, 2);
}

TEST(KernelHooks, HooksChangedDuringAFrame) {
  FakeClock clock;
  Log log;
  Kernel kernel(clock);
  Kernel::HookId self = 0;
  Kernel::HookId victim = 0;
  // A hook that removes itself on its first run and adds a new end hook.
  self = kernel.add_frame_begin_hook([&] {
    log.push_back("self");
    EXPECT_TRUE(kernel.remove_frame_hook(self));
    EXPECT_TRUE(kernel.remove_frame_hook(victim));
    kernel.add_frame_end_hook([&] { log.push_back("added"); });
  });
  victim = kernel.add_frame_begin_hook([&] { log.push_back("victim"); });
  kernel.add_frame_end_hook([&] { log.push_back("end"); });
  kernel.step();
  EXPECT_THAT(log, ElementsAre("self", "end"));  // victim removed before its turn
  log.clear();
  kernel.step();
  EXPECT_THAT(log, ElementsAre("end", "added"));
}

TEST(KernelHooks, TaskAddedByAHookUpdatesFromTheNextFrame) {
  FakeClock clock;
  Log log;
  Kernel kernel(clock);
  auto t = std::make_shared<RecordingTask>(log, "T", 1000);
  bool added = false;
  kernel.add_frame_end_hook([&] {
    if (!added) added = kernel.add(t);
  });
  kernel.step();
  EXPECT_THAT(log, ElementsAre("start T"));
  EXPECT_EQ(kernel.running_count(), 1u);
  log.clear();
  kernel.step();
  EXPECT_THAT(log, ElementsAre("update T"));
}

}  // namespace
}  // namespace keel::kernel
