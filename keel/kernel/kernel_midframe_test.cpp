// Tasks changing other tasks (and themselves) while a frame is running.
#include "keel/kernel/kernel.h"

#include "keel/core/clock.h"
#include "keel/kernel/testing/recording_task.h"

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>

namespace keel::kernel {
namespace {

using ::testing::ElementsAre;
using testing::Log;
using testing::only;
using testing::RecordingTask;

class MidFrame : public ::testing::Test {
 protected:
  std::shared_ptr<RecordingTask> add(std::string name, s32 priority) {
    auto t = std::make_shared<RecordingTask>(log, std::move(name), priority);
    EXPECT_TRUE(kernel.add(t));
    return t;
  }
  Log step() {
    log.clear();
    kernel.step();
    return log;
  }

  FakeClock clock;
  Log log;
  Kernel kernel{clock};
};

TEST_F(MidFrame, RemovingALaterTaskSkipsItThisFrame) {
  auto a = add("A", 1000);
  auto b = add("B", 2000);
  auto c = add("C", 3000);
  a->on_update = [&](const Frame& f, RecordingTask&) {
    if (f.number == 0) {
      EXPECT_TRUE(f.kernel.remove(*c));
    }
  };
  EXPECT_THAT(step(), ElementsAre("update A", "update B", "stop C"));
  EXPECT_THAT(step(), ElementsAre("update A", "update B"));
  EXPECT_EQ(c->updates, 0);
}

TEST_F(MidFrame, RemovingAnEarlierTaskStopsItAtFrameEnd) {
  auto a = add("A", 1000);
  auto b = add("B", 2000);
  b->on_update = [&](const Frame& f, RecordingTask&) {
    if (f.number == 0) {
      EXPECT_TRUE(f.kernel.remove(*a));
    }
  };
  EXPECT_THAT(step(), ElementsAre("update A", "update B", "stop A"));
  EXPECT_THAT(step(), ElementsAre("update B"));
}

TEST_F(MidFrame, SuspendingALaterTaskSkipsItThisFrame) {
  auto a = add("A", 1000);
  auto b = add("B", 2000);
  auto c = add("C", 3000);
  a->on_update = [&](const Frame& f, RecordingTask&) {
    if (f.number == 0) {
      EXPECT_TRUE(f.kernel.suspend(*b));
    }
    if (f.number == 2) {
      EXPECT_TRUE(f.kernel.resume(*b));
    }
  };
  EXPECT_THAT(step(), ElementsAre("update A", "suspend B", "update C"));
  EXPECT_THAT(step(), ElementsAre("update A", "update C"));
  // Resumed mid-frame: back from the next frame, in its slot.
  EXPECT_THAT(step(), ElementsAre("update A", "resume B", "update C"));
  EXPECT_THAT(step(), ElementsAre("update A", "update B", "update C"));
}

TEST_F(MidFrame, SuspendAndResumeInOneFrameNeverUpdatesTwice) {
  auto a = add("A", 1000);
  auto c = add("C", 3000);
  auto d = add("D", 4000);
  // D bounces C after C already updated this frame.
  d->on_update = [&](const Frame& f, RecordingTask&) {
    if (f.number == 0) {
      EXPECT_TRUE(f.kernel.suspend(*c));
      EXPECT_TRUE(f.kernel.resume(*c));
    }
  };
  // A bounces C before its turn in frame 1.
  a->on_update = [&](const Frame& f, RecordingTask&) {
    if (f.number == 1) {
      EXPECT_TRUE(f.kernel.suspend(*c));
      EXPECT_TRUE(f.kernel.resume(*c));
    }
  };
  EXPECT_THAT(only(step(), "update "), ElementsAre("update A", "update C", "update D"));
  EXPECT_THAT(only(step(), "update "), ElementsAre("update A", "update D"));
  EXPECT_THAT(only(step(), "update "), ElementsAre("update A", "update C", "update D"));
  EXPECT_EQ(c->suspends, 2);
  EXPECT_EQ(c->resumes, 2);
  EXPECT_EQ(kernel.running_count(), 3u);
}

TEST_F(MidFrame, SelfSuspensionDuringUpdate) {
  auto a = add("A", 1000);
  auto b = add("B", 2000);
  auto c = add("C", 3000);
  b->on_update = [](const Frame& f, RecordingTask& self) { EXPECT_TRUE(f.kernel.suspend(self)); };
  EXPECT_THAT(step(), ElementsAre("update A", "update B", "suspend B", "update C"));
  EXPECT_THAT(step(), ElementsAre("update A", "update C"));
  b->on_update = nullptr;
  EXPECT_TRUE(kernel.resume(*b));
  EXPECT_THAT(step(), ElementsAre("update A", "update B", "update C"));
}

TEST_F(MidFrame, SelfRemovalThenSuspensionIsRefused) {
  auto a = add("A", 1000);
  a->on_update = [](const Frame& f, RecordingTask& self) {
    EXPECT_TRUE(f.kernel.remove(self));
    EXPECT_FALSE(f.kernel.suspend(self));  // marked for killing: stays on its way out
    EXPECT_FALSE(f.kernel.remove(self));
  };
  EXPECT_THAT(step(), ElementsAre("update A", "stop A"));
  EXPECT_EQ(a->suspends, 0);
}

TEST_F(MidFrame, AddedThenRemovedInOneFrameIsStoppedButNeverUpdated) {
  auto a = add("A", 1000);
  auto n = std::make_shared<RecordingTask>(log, "N", 500);
  a->on_update = [&](const Frame& f, RecordingTask&) {
    if (f.number != 0) return;
    EXPECT_TRUE(f.kernel.add(n));
    EXPECT_TRUE(f.kernel.remove(*n));
  };
  EXPECT_THAT(step(), ElementsAre("update A", "start N", "stop N"));
  EXPECT_EQ(n->state(), TaskState::kDetached);
  EXPECT_THAT(step(), ElementsAre("update A"));
  EXPECT_EQ(kernel.running_count(), 1u);
}

TEST_F(MidFrame, AddedThenSuspendedInOneFrameWaitsPaused) {
  auto a = add("A", 1000);
  auto n = std::make_shared<RecordingTask>(log, "N", 500);
  a->on_update = [&](const Frame& f, RecordingTask&) {
    if (f.number != 0) return;
    EXPECT_TRUE(f.kernel.add(n));
    EXPECT_TRUE(f.kernel.suspend(*n));
  };
  EXPECT_THAT(step(), ElementsAre("update A", "start N", "suspend N"));
  EXPECT_THAT(step(), ElementsAre("update A"));
  EXPECT_EQ(n->state(), TaskState::kPaused);
  EXPECT_TRUE(kernel.resume(*n));
  EXPECT_THAT(step(), ElementsAre("update N", "update A"));
}

TEST_F(MidFrame, KillAllAlsoCatchesTasksAddedEarlierInTheFrame) {
  auto a = add("A", 1000);
  auto b = add("B", 2000);
  auto n = std::make_shared<RecordingTask>(log, "N", 1500);
  a->on_update = [&](const Frame& f, RecordingTask&) { f.kernel.add(n); };
  b->on_update = [](const Frame& f, RecordingTask&) { f.kernel.kill_all(); };
  kernel.run();
  EXPECT_EQ(kernel.frame_clock().frames(), 1u);
  EXPECT_EQ(n->updates, 0);
  EXPECT_EQ(a->stops + b->stops + n->stops, 3);
}

TEST_F(MidFrame, TasksRemovedByAStopCallAreNotUpdatedAgain) {
  auto a = add("A", 1000);
  auto b = add("B", 2000);
  auto c = add("C", 3000);
  c->on_update = [](const Frame& f, RecordingTask& self) {
    if (f.number == 0) f.kernel.remove(self);
  };
  // A and B come before C, so the stop pass has already looked at them when C's stop() marks
  // them: they are stopped at the end of the next frame, without being updated in it.
  c->on_stop = [&](const Frame& f, RecordingTask&) {
    EXPECT_TRUE(f.kernel.remove(*a));
    EXPECT_TRUE(f.kernel.remove(*b));
  };
  EXPECT_THAT(step(), ElementsAre("update A", "update B", "update C", "stop C"));
  EXPECT_THAT(step(), ElementsAre("stop A", "stop B"));
  EXPECT_EQ(a->updates + b->updates + c->updates, 3);
  EXPECT_FALSE(kernel.has_work());
}

TEST_F(MidFrame, ChurnOverManyFramesKeepsEveryTaskUpdatedOncePerFrame) {
  // A pseudo-random mix of suspend/resume/remove/add from inside updates; every frame, each
  // task that updates does so once, and the order is always sorted by priority.
  std::vector<std::shared_ptr<RecordingTask>> tasks;
  for (int i = 0; i < 40; ++i) tasks.push_back(add(fmt::format("t{}", i), (i * 37) % 11 * 100));
  u32 rng = 12345;
  auto next = [&] {
    rng = rng * 1664525u + 1013904223u;
    return rng >> 8;
  };
  for (auto& t : tasks) {
    t->on_update = [&](const Frame& f, RecordingTask&) {
      const usize index = next() % tasks.size();
      RecordingTask& target = *tasks[index];
      switch (next() % 6) {
        case 0: f.kernel.suspend(target); break;
        case 1: f.kernel.resume(target); break;
        case 2:
          if (next() % 4 == 0) f.kernel.remove(target);
          break;
        case 3:
          if (target.state() == TaskState::kDetached) f.kernel.add(tasks[index]);
          break;
        default: break;
      }
    };
  }
  for (int frame = 0; frame < 200; ++frame) {
    const Log updates = only(step(), "update ");
    std::vector<std::string> names = updates;
    std::sort(names.begin(), names.end());
    EXPECT_EQ(std::adjacent_find(names.begin(), names.end()), names.end()) << "frame " << frame;
    s32 last = -1;
    for (const std::string& line : updates) {
      const int index = std::stoi(line.substr(8));
      const s32 priority = tasks[static_cast<usize>(index)]->priority();
      EXPECT_LE(last, priority) << "frame " << frame;
      last = priority;
    }
  }
  usize running = 0, paused = 0;
  for (auto& t : tasks) {
    running += t->state() == TaskState::kRunning;
    paused += t->state() == TaskState::kPaused;
    EXPECT_EQ(t->starts - t->stops, t->state() == TaskState::kDetached ? 0 : 1);
  }
  EXPECT_EQ(kernel.running_count(), running);
  EXPECT_EQ(kernel.paused_count(), paused);
}

}  // namespace
}  // namespace keel::kernel
