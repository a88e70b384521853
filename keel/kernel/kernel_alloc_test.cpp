// Steady-state frames allocate nothing (counted with keel::core_testing's operator new).
#include "keel/kernel/kernel.h"

#include "keel/core/clock.h"
#include "keel/core/testing/alloc_counter.h"

#include <gtest/gtest.h>

#include <memory>
#include <vector>

namespace keel::kernel {
namespace {

class Counter : public Task {
 public:
  explicit Counter(s32 priority) : Task("counter", priority) {}
  void update(const Frame& frame) override { sum += frame.dt + 1.0; }
  void fixed_update(const Frame& frame) override { sum += frame.fixed_dt; }
  f64 sum = 0.0;
};

// Suspends and resumes its partner every frame, and removes and re-adds a helper task: the
// kernel's deferred lists are exercised every frame.
class Churner : public Task {
 public:
  Churner(std::shared_ptr<Task> partner, std::shared_ptr<Task> helper)
      : Task("churner", 1), partner_(std::move(partner)), helper_(std::move(helper)) {}
  void update(const Frame& frame) override {
    frame.kernel.suspend(*partner_);
    frame.kernel.resume(*partner_);
    if (helper_->state() == TaskState::kRunning) {
      frame.kernel.remove(*helper_);
    } else {
      frame.kernel.add(helper_);
    }
  }

 private:
  std::shared_ptr<Task> partner_;
  std::shared_ptr<Task> helper_;
};

TEST(KernelAllocations, SteadyStateFramesDoNotAllocate) {
  FakeClock clock;
  Kernel kernel(clock, {.fixed_dt = 1.0 / 120.0});
  std::vector<std::shared_ptr<Counter>> tasks;
  for (int i = 0; i < 100; ++i) {
    tasks.push_back(std::make_shared<Counter>(i % 7 * 100));
    kernel.add(tasks.back());
  }
  auto helper = std::make_shared<Counter>(50);
  kernel.add(std::make_shared<Churner>(tasks[3], helper));
  int hook_calls = 0;
  kernel.add_frame_begin_hook([&] { ++hook_calls; });
  kernel.add_frame_end_hook([&] { ++hook_calls; });

  for (int i = 0; i < 10; ++i) {  // warm-up: vectors reach their working capacity
    clock.advance_seconds(0.016);
    kernel.step();
  }
  keel::testing::AllocationScope scope(keel::testing::AllocationScope::Threads::kThisThread);
  for (int i = 0; i < 200; ++i) {
    clock.advance_seconds(0.016);
    kernel.step();
  }
  EXPECT_EQ(scope.count(), 0u) << scope.counts();
  EXPECT_EQ(hook_calls, 420);
  EXPECT_GT(tasks[0]->sum, 0.0);
  EXPECT_GT(tasks[3]->sum, 0.0);
  EXPECT_GT(helper->sum, 0.0);

  // The counter itself works: a vector growth in the measured region is seen.
  scope.reset();
  std::vector<int> probe;
  probe.push_back(1);
  EXPECT_GE(scope.count(), 1u);
}

}  // namespace
}  // namespace keel::kernel
