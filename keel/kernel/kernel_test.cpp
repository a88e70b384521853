// The task life cycle: Enginuity kernel checks 1-5 and the decisions around them.
#include "keel/kernel/kernel.h"

#include "keel/core/assert.h"
#include "keel/core/clock.h"
#include "keel/kernel/testing/recording_task.h"

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace keel::kernel {
namespace {

using ::testing::ElementsAre;
using testing::Log;
using testing::only;
using testing::RecordingTask;

std::shared_ptr<RecordingTask> make(Log& log, std::string name, s32 priority, bool accept = true) {
  return std::make_shared<RecordingTask>(log, std::move(name), priority, accept);
}

int g_asserts = 0;
void counting_handler(const AssertInfo&) { ++g_asserts; }

TEST(Kernel, Check1_PriorityOrderAndStableTies) {
  FakeClock clock;
  Log log;
  Kernel kernel(clock);
  // Priorities 3000, 5000, 1000 added in that order, with three 2000s interleaved.
  ASSERT_TRUE(kernel.add(make(log, "p3000", 3000)));
  ASSERT_TRUE(kernel.add(make(log, "tieA", 2000)));
  ASSERT_TRUE(kernel.add(make(log, "p5000", 5000)));
  ASSERT_TRUE(kernel.add(make(log, "tieB", 2000)));
  ASSERT_TRUE(kernel.add(make(log, "p1000", 1000)));
  ASSERT_TRUE(kernel.add(make(log, "tieC", 2000)));
  // Default priority is 5000: after p5000, which was added earlier.
  auto defaulted = std::make_shared<RecordingTask>(log, "default");
  EXPECT_EQ(defaulted->priority(), Task::kDefaultPriority);
  EXPECT_EQ(Task::kDefaultPriority, 5000);
  ASSERT_TRUE(kernel.add(defaulted));

  for (int frame = 0; frame < 3; ++frame) {
    log.clear();
    kernel.step();
    EXPECT_THAT(log, ElementsAre("update p1000", "update tieA", "update tieB", "update tieC",
                                 "update p3000", "update p5000", "update default"))
        << "frame " << frame;
  }
}

TEST(Kernel, Check2_RefusedStartIsNeverUpdated) {
  FakeClock clock;
  Log log;
  Kernel kernel(clock);
  auto refused = make(log, "refused", 1000, /*accept=*/false);
  auto other = make(log, "other", 2000);
  EXPECT_FALSE(kernel.add(refused));
  EXPECT_TRUE(kernel.add(other));
  EXPECT_EQ(refused->starts, 1);
  EXPECT_EQ(refused->state(), TaskState::kDetached);
  EXPECT_EQ(refused->kernel(), nullptr);
  EXPECT_EQ(kernel.running_count(), 1u);
  EXPECT_EQ(kernel.run_frames(3), 3u);
  EXPECT_EQ(refused->updates, 0);
  EXPECT_EQ(refused->stops, 0);  // never started, so never stopped
  EXPECT_EQ(other->updates, 3);
  // Suspend/resume/remove of a refused task do nothing.
  EXPECT_FALSE(kernel.suspend(*refused));
  EXPECT_FALSE(kernel.resume(*refused));
  EXPECT_FALSE(kernel.remove(*refused));
  // A kernel whose only task was refused has nothing to run.
  Kernel empty(clock);
  EXPECT_FALSE(empty.add(make(log, "refused2", 1000, false)));
  EXPECT_FALSE(empty.has_work());
  empty.run();
  EXPECT_EQ(empty.frame_clock().frames(), 0u);
  // Once it accepts, the same task can be added.
  refused->set_accept(true);
  EXPECT_TRUE(kernel.add(refused));
  kernel.step();
  EXPECT_EQ(refused->updates, 1);
}

TEST(Kernel, Check3_SuspendResume) {
  FakeClock clock;
  Log log;
  Kernel kernel(clock);
  auto a = make(log, "A", 1000);
  auto b = make(log, "B", 2000);
  auto c = make(log, "C", 2000);
  auto d = make(log, "D", 3000);
  for (auto& t : {a, b, c, d}) ASSERT_TRUE(kernel.add(t));

  EXPECT_TRUE(kernel.suspend(*b));
  EXPECT_EQ(b->suspends, 1);
  EXPECT_EQ(b->state(), TaskState::kPaused);
  EXPECT_EQ(kernel.running_count(), 3u);
  EXPECT_EQ(kernel.paused_count(), 1u);
  // Suspending a task that is not running does nothing.
  EXPECT_FALSE(kernel.suspend(*b));
  EXPECT_EQ(b->suspends, 1);
  // Resuming a task that is not paused does nothing.
  EXPECT_FALSE(kernel.resume(*a));
  EXPECT_EQ(a->resumes, 0);

  for (int i = 0; i < 2; ++i) {
    log.clear();
    kernel.step();
    EXPECT_THAT(log, ElementsAre("update A", "update C", "update D"));
  }
  EXPECT_EQ(b->updates, 0);

  EXPECT_TRUE(kernel.resume(*b));
  EXPECT_EQ(b->resumes, 1);
  EXPECT_FALSE(kernel.resume(*b));
  EXPECT_EQ(b->resumes, 1);
  EXPECT_EQ(b->state(), TaskState::kRunning);
  log.clear();
  kernel.step();
  // Back in its priority slot; among equal priorities a resumed task goes last, as an added one.
  EXPECT_THAT(log, ElementsAre("update A", "update C", "update B", "update D"));

  // A task of another kernel, or one never added, is untouched.
  Kernel other(clock);
  auto stranger = make(log, "stranger", 1000);
  ASSERT_TRUE(other.add(stranger));
  EXPECT_FALSE(kernel.suspend(*stranger));
  EXPECT_FALSE(kernel.remove(*stranger));
  auto loose = make(log, "loose", 1000);
  EXPECT_FALSE(kernel.suspend(*loose));
  EXPECT_EQ(stranger->suspends + loose->suspends, 0);
  EXPECT_FALSE(stranger->kill_pending());
}

TEST(Kernel, Check4_SelfRemovalAndKillAll) {
  FakeClock clock;
  Log log;
  {
    Kernel kernel(clock);
    auto a = make(log, "A", 1000);
    auto b = make(log, "B", 2000);
    a->on_update = [](const Frame& f, RecordingTask& self) {
      if (f.number == 1) {
        EXPECT_TRUE(f.kernel.remove(self));
      }
    };
    kernel.add(a);
    kernel.add(b);
    kernel.step();
    log.clear();
    kernel.step();
    // stop() comes after all of that frame's updates.
    EXPECT_THAT(log, ElementsAre("update A", "update B", "stop A"));
    EXPECT_EQ(a->state(), TaskState::kDetached);
    log.clear();
    kernel.step();
    EXPECT_THAT(log, ElementsAre("update B"));
    EXPECT_EQ(a->updates, 2);
    EXPECT_EQ(a->stops, 1);
  }
  {
    // kill_all() from inside a frame: run() returns at the end of that frame.
    Kernel kernel(clock);
    auto a = make(log, "A", 1000);
    auto b = make(log, "B", 2000);
    auto c = make(log, "C", 3000);
    a->on_update = [](const Frame& f, RecordingTask&) {
      if (f.number == 3) f.kernel.kill_all();
    };
    for (auto& t : {a, b, c}) kernel.add(t);
    kernel.suspend(*c);
    kernel.run();
    EXPECT_EQ(kernel.frame().number, 3u);  // frames 0..3
    EXPECT_EQ(a->updates, 4);
    EXPECT_EQ(b->updates, 3);  // marked before its turn in frame 3
    EXPECT_EQ(c->updates, 0);
    EXPECT_EQ(a->stops + b->stops + c->stops, 3);  // the paused task is stopped too
    EXPECT_FALSE(kernel.has_work());
    EXPECT_EQ(kernel.paused_count(), 0u);
    EXPECT_EQ(kernel.running_count(), 0u);
  }
  {
    // kill_all() between frames: exactly one more frame, with no updates.
    Kernel kernel(clock);
    auto a = make(log, "A", 1000);
    kernel.add(a);
    kernel.kill_all();
    EXPECT_EQ(kernel.run_frames(100), 1u);
    EXPECT_EQ(a->updates, 0);
    EXPECT_EQ(a->stops, 1);
  }
}

TEST(Kernel, Check5_AddDuringUpdate) {
  FakeClock clock;
  Log log;
  Kernel kernel(clock);
  auto a = make(log, "A", 2000);
  auto z = make(log, "Z", 2500);
  auto early = make(log, "early", 1000);  // would sort before A
  auto late = make(log, "late", 3000);    // would sort after A
  a->on_update = [&](const Frame& f, RecordingTask&) {
    if (f.number == 0) {
      EXPECT_TRUE(f.kernel.add(early));
      EXPECT_TRUE(f.kernel.add(late));
    }
  };
  kernel.add(a);
  kernel.add(z);
  log.clear();
  kernel.step();
  // start() runs at once; the new tasks are not updated in the frame that added them, and the
  // rest of the frame goes on undisturbed.
  EXPECT_THAT(log, ElementsAre("update A", "start early", "start late", "update Z"));
  EXPECT_EQ(kernel.running_count(), 4u);
  log.clear();
  kernel.step();
  EXPECT_THAT(log, ElementsAre("update early", "update A", "update Z", "update late"));
}

TEST(Kernel, Check5_ManyAddsInOneFrameGrowTheListSafely) {
  FakeClock clock;
  Log log;
  Kernel kernel(clock);
  std::vector<std::shared_ptr<RecordingTask>> added;
  auto spawner = make(log, "spawner", 5000);
  spawner->on_update = [&](const Frame& f, RecordingTask&) {
    if (f.number != 0) return;
    for (int i = 0; i < 300; ++i) {  // far beyond the reserved capacity
      added.push_back(make(log, fmt::format("t{}", i), 10000 - i));
      ASSERT_TRUE(f.kernel.add(added.back()));
    }
  };
  kernel.add(spawner);
  kernel.step();
  EXPECT_EQ(spawner->updates, 1);
  log.clear();
  kernel.step();
  const Log updates = only(log, "update ");
  ASSERT_EQ(updates.size(), 301u);
  EXPECT_EQ(updates.front(), "update spawner");
  EXPECT_EQ(updates[1], "update t299");  // priority 9701
  EXPECT_EQ(updates.back(), "update t0");
  for (const auto& t : added) EXPECT_EQ(t->updates, 1);
}

TEST(Kernel, StopCanAddTheNextTask) {
  FakeClock clock;
  Log log;
  Kernel kernel(clock);
  auto menu = make(log, "menu", 1000);
  auto game = make(log, "game", 1000);
  menu->on_update = [](const Frame& f, RecordingTask& self) {
    if (f.number == 1) f.kernel.remove(self);
  };
  menu->on_stop = [&](const Frame& f, RecordingTask&) { EXPECT_TRUE(f.kernel.add(game)); };
  game->on_update = [](const Frame& f, RecordingTask& self) {
    if (f.number == 4) f.kernel.remove(self);
  };
  kernel.add(menu);
  kernel.run();
  EXPECT_EQ(menu->updates, 2);
  EXPECT_EQ(game->updates, 3);  // frames 2, 3, 4: from the frame after it was added
  EXPECT_EQ(kernel.frame().number, 4u);
}

TEST(Kernel, RemovingAPausedTaskStopsItAtFrameEnd) {
  FakeClock clock;
  Log log;
  Kernel kernel(clock);
  auto a = make(log, "A", 1000);
  auto p = make(log, "P", 2000);
  kernel.add(a);
  kernel.add(p);
  kernel.suspend(*p);
  EXPECT_TRUE(kernel.remove(*p));
  EXPECT_FALSE(kernel.remove(*p));  // already marked
  EXPECT_TRUE(p->kill_pending());
  EXPECT_FALSE(kernel.resume(*p));  // a dying task cannot come back
  EXPECT_EQ(p->stops, 0);
  log.clear();
  kernel.step();
  EXPECT_THAT(log, ElementsAre("update A", "stop P"));
  EXPECT_EQ(p->state(), TaskState::kDetached);
  EXPECT_EQ(kernel.paused_count(), 0u);
}

TEST(Kernel, RunReturnsWhenOnlyPausedTasksAreLeft) {
  FakeClock clock;
  Log log;
  auto paused = make(log, "paused", 1000);
  {
    Kernel kernel(clock);
    auto a = make(log, "A", 1000);
    a->on_update = [](const Frame& f, RecordingTask& self) { f.kernel.remove(self); };
    kernel.add(a);
    kernel.add(paused);
    kernel.suspend(*paused);
    kernel.run();
    EXPECT_EQ(kernel.frame_clock().frames(), 1u);
    EXPECT_EQ(paused->state(), TaskState::kPaused);
    EXPECT_EQ(paused->stops, 0);
    // Resume and run again: it runs until removed.
    paused->on_update = [](const Frame& f, RecordingTask& self) { f.kernel.remove(self); };
    kernel.resume(*paused);
    kernel.run();
    EXPECT_EQ(paused->updates, 1);
    EXPECT_EQ(paused->stops, 1);
  }
  EXPECT_EQ(paused->stops, 1);
}

TEST(Kernel, DestructionStopsEveryRemainingTaskOnce) {
  FakeClock clock;
  Log log;
  auto a = make(log, "A", 2000);
  auto b = make(log, "B", 1000);
  auto p = make(log, "P", 500);
  {
    Kernel kernel(clock);
    kernel.add(a);
    kernel.add(b);
    kernel.add(p);
    kernel.suspend(*p);
    kernel.step();
    log.clear();
  }
  // Running tasks in priority order, then paused ones.
  EXPECT_THAT(log, ElementsAre("stop B", "stop A", "stop P"));
  for (auto& t : {a, b, p}) {
    EXPECT_EQ(t->stops, 1);
    EXPECT_EQ(t->state(), TaskState::kDetached);
    EXPECT_EQ(t->kernel(), nullptr);
  }
}

TEST(Kernel, ShutdownRefusesAddsFromStopAndLeavesAReusableKernel) {
  FakeClock clock;
  Log log;
  Kernel kernel(clock);
  auto a = make(log, "A", 1000);
  auto late = make(log, "late", 1000);
  a->on_stop = [&](const Frame& f, RecordingTask&) { EXPECT_FALSE(f.kernel.add(late)); };
  kernel.add(a);
  kernel.shutdown();
  EXPECT_EQ(a->stops, 1);
  EXPECT_EQ(late->starts, 0);
  EXPECT_FALSE(kernel.has_work());
  a->on_stop = nullptr;
  EXPECT_TRUE(kernel.add(a));  // stopped tasks can be added again (start() runs again)
  EXPECT_EQ(a->starts, 2);
  kernel.step();
  EXPECT_EQ(a->updates, 1);
}

TEST(Kernel, TaskOwnershipIsSharedWithTheKernel) {
  FakeClock clock;
  Log log;
  Kernel kernel(clock);
  std::weak_ptr<RecordingTask> watch;
  {
    auto t = make(log, "fire-and-forget", 1000);
    t->on_update = [](const Frame& f, RecordingTask& self) {
      if (f.number == 2) f.kernel.remove(self);
    };
    watch = t;
    kernel.add(std::move(t));
  }
  EXPECT_FALSE(watch.expired());  // the kernel keeps it alive
  kernel.run();
  EXPECT_TRUE(watch.expired());  // released once stopped
  EXPECT_EQ(only(log, "stop ").size(), 1u);
}

TEST(Kernel, CreateReturnsTheTaskOrNull) {
  FakeClock clock;
  Log log;
  Kernel kernel(clock);
  auto t = kernel.create<RecordingTask>(log, "made", 1000);
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->state(), TaskState::kRunning);
  EXPECT_EQ(t->kernel(), &kernel);
  EXPECT_EQ(kernel.create<RecordingTask>(log, "refused", 1000, false), nullptr);
  EXPECT_EQ(kernel.running_count(), 1u);
}

TEST(Kernel, ProgrammerErrorsAssertAndAreRefused) {
  FakeClock clock;
  Log log;
  Kernel kernel(clock);
  Kernel other(clock);
  ScopedAssertHandler handler(counting_handler);
  g_asserts = 0;
  auto t = make(log, "t", 1000);
  ASSERT_TRUE(kernel.add(t));
  EXPECT_FALSE(kernel.add(t));
  EXPECT_FALSE(other.add(t));
  EXPECT_FALSE(kernel.add(nullptr));
  EXPECT_EQ(t->starts, 1);  // start() is not called again
  // step() from inside a frame is refused rather than recursing.
  t->on_update = [](const Frame& f, RecordingTask&) { f.kernel.step(); };
  kernel.step();
  EXPECT_EQ(t->updates, 1);
  if (KEEL_ASSERTS_ENABLED) {
    EXPECT_EQ(g_asserts, 4);
  }
}

TEST(Kernel, DescribeListsTasksWithState) {
  FakeClock clock;
  Log log;
  Kernel kernel(clock);
  auto a = make(log, "input", 100);
  auto b = make(log, "ai", 3000);
  kernel.add(a);
  kernel.add(b);
  kernel.suspend(*b);
  kernel.remove(*a);
  EXPECT_EQ(kernel.describe(),
            "input (priority 100): running, kill pending\n"
            "ai (priority 3000): paused\n");
}

TEST(Kernel, SetPriorityTakesEffectOnResume) {
  FakeClock clock;
  Log log;
  Kernel kernel(clock);
  auto a = make(log, "A", 1000);
  auto b = make(log, "B", 2000);
  kernel.add(a);
  kernel.add(b);
  a->set_priority(3000);
  log.clear();
  kernel.step();
  EXPECT_THAT(log, ElementsAre("update A", "update B"));  // order fixed while in the kernel
  kernel.suspend(*a);
  kernel.resume(*a);
  log.clear();
  kernel.step();
  EXPECT_THAT(only(log, "update "), ElementsAre("update B", "update A"));
}

}  // namespace
}  // namespace keel::kernel
