// Kernel frame cost: one Kernel::step() over 100 tasks with trivial updates, against the floor
// of a plain loop of virtual update() calls over the same 100 objects. The difference is the
// kernel's per-frame overhead (clock read, liveness checks, end-of-frame bookkeeping).
#include "bench_support.h"
#include "keel/core/clock.h"
#include "keel/kernel/kernel.h"

#include <algorithm>
#include <cstdio>
#include <memory>
#include <vector>

namespace {

using keel::f64;
using keel::u64;
using keel::kernel::Frame;
using keel::kernel::Kernel;
using keel::kernel::Task;

constexpr int kTasks = 100;

class Trivial final : public Task {
 public:
  explicit Trivial(int i) : Task("trivial", i % 10 * 100) {}
  void update(const Frame& frame) override { sum_ += frame.dt + 1.0; }
  f64 sum() const { return sum_; }

 private:
  f64 sum_ = 0.0;
};

std::vector<std::shared_ptr<Trivial>> make_tasks(Kernel& kernel) {
  std::vector<std::shared_ptr<Trivial>> tasks;
  for (int i = 0; i < kTasks; ++i) {
    tasks.push_back(std::make_shared<Trivial>(i));
    kernel.add(tasks.back());
  }
  return tasks;
}

void BM_KernelStep100(benchmark::State& state) {
  Kernel kernel;  // SteadyClock, as in a game
  auto tasks = make_tasks(kernel);
  for (auto _ : state) kernel.step();
  benchmark::DoNotOptimize(tasks[0]->sum());
  state.SetItemsProcessed(state.iterations() * kTasks);
}
BENCHMARK(BM_KernelStep100);

void BM_KernelStep100_FakeClock(benchmark::State& state) {
  keel::FakeClock clock;
  Kernel kernel(clock);
  auto tasks = make_tasks(kernel);
  for (auto _ : state) kernel.step();
  benchmark::DoNotOptimize(tasks[0]->sum());
  state.SetItemsProcessed(state.iterations() * kTasks);
}
BENCHMARK(BM_KernelStep100_FakeClock);

void BM_KernelStep100_FixedStep(benchmark::State& state) {
  // One fixed step per frame on average (the fake clock advances exactly one step per frame).
  keel::FakeClock clock;
  Kernel kernel(clock, {.fixed_dt = 1.0 / 60.0});
  auto tasks = make_tasks(kernel);
  for (auto _ : state) {
    clock.advance_ns(16'666'667);
    kernel.step();
  }
  benchmark::DoNotOptimize(tasks[0]->sum());
  state.SetItemsProcessed(state.iterations() * kTasks);
}
BENCHMARK(BM_KernelStep100_FixedStep);

void BM_PlainVirtualLoop100(benchmark::State& state) {
  keel::FakeClock clock;
  Kernel kernel(clock);
  auto tasks = make_tasks(kernel);
  // The same objects in the kernel's update order (priority, then insertion).
  std::vector<Task*> plain;
  for (auto& t : tasks) plain.push_back(t.get());
  std::stable_sort(plain.begin(), plain.end(),
                   [](const Task* a, const Task* b) { return a->priority() < b->priority(); });
  const Frame& frame = kernel.frame();
  for (auto _ : state) {
    for (Task* t : plain) t->update(frame);
    benchmark::ClobberMemory();
  }
  benchmark::DoNotOptimize(tasks[0]->sum());
  state.SetItemsProcessed(state.iterations() * kTasks);
}
BENCHMARK(BM_PlainVirtualLoop100);

KEEL_BENCH_RATIO("kernel frame, 100 tasks (steady clock) vs plain virtual loop", "BM_KernelStep100",
                 "BM_PlainVirtualLoop100");
KEEL_BENCH_RATIO("kernel frame, 100 tasks (fake clock) vs plain virtual loop",
                 "BM_KernelStep100_FakeClock", "BM_PlainVirtualLoop100");

}  // namespace

int main(int argc, char** argv) {
  const int rc = keel::bench::run_main(argc, argv);
  const double plain = keel::bench::measured_ns("BM_PlainVirtualLoop100");
  for (const char* name : {"BM_KernelStep100", "BM_KernelStep100_FakeClock"}) {
    const double kernel = keel::bench::measured_ns(name);
    if (kernel >= 0 && plain >= 0) {
      std::printf("overhead=%.1f ns per frame (%s %.1f ns - BM_PlainVirtualLoop100 %.1f ns)\n",
                  kernel - plain, name, kernel, plain);
    }
  }
  return rc;
}
