// Tens of thousands of instances run together without per-frame allocation. This file replaces
// the global operator new/delete of the keel_script_tests executable with counting versions
// (plain malloc/free underneath); counting is on only inside the measured frames.
#include "keel/script/machine.h"

#include "keel/script/testing/script_testing.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>
#include <vector>

namespace {

std::atomic<bool> g_counting{false};
std::atomic<long> g_allocations{0};

void* counted_alloc(std::size_t size) {
  if (g_counting.load(std::memory_order_relaxed)) g_allocations.fetch_add(1);
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}

}  // namespace

void* operator new(std::size_t size) { return counted_alloc(size); }
void* operator new[](std::size_t size) { return counted_alloc(size); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }

namespace keel::script {
namespace {

TEST(ScriptMachineAllocations, TwentyThousandInstancesAllocateNothingPerFrame) {
  testing::ProbeLog log;
  CommandSet commands = default_commands();
  ASSERT_TRUE(add_basic_commands(commands, nullptr));
  text::Diagnostics diag;
  auto lib = testing::compile_text(R"(
    SCRIPT("patrol") {
      ADD(step, 1);
      IF(step, GREATEREQUAL, 4) { SET(step, 0); ADD(laps, 1); CALLSCRIPT("turn"); }
      PAUSE(1);
      IF(laps, LESSTHAN, 1000000) CHANGESCRIPT("patrol");
    }
    SCRIPT("turn") { ADD(heading, 90); PAUSESECONDS(0.02); }
    SCRIPT("idle") { PAUSE(3); PRINT("zzz"); CHANGESCRIPT("idle"); })",
                                   commands, diag);
  ASSERT_TRUE(lib) << diag.render();
  Machine machine(commands, {.command_budget = 100});
  ASSERT_TRUE(machine.add_library(*lib));
  constexpr u32 kInstances = 20000;
  machine.reserve(kInstances);
  std::vector<InstanceId> ids;
  for (u32 i = 0; i < kInstances; ++i) {
    auto id = machine.start(i % 4 == 3 ? "idle" : "patrol");
    ASSERT_TRUE(id);
    ids.push_back(*id);
  }
  for (int i = 0; i < 10; ++i) machine.update(1.0 / 60.0);  // warm-up: variables are created
  g_allocations = 0;
  g_counting = true;
  u64 commands_run = 0;
  for (int i = 0; i < 100; ++i) {
    machine.update(1.0 / 60.0);
    commands_run += machine.last_frame().commands;
  }
  g_counting = false;
  EXPECT_EQ(g_allocations.load(), 0);
  EXPECT_GT(commands_run, 100u * 15000u * 3u);
  EXPECT_EQ(machine.instance_count(), kInstances);
  EXPECT_GT(machine.variable(ids[0], "laps"), 10);
  EXPECT_EQ(machine.state(ids[3]), InstanceState::kWaiting);

  // The counter itself works: a vector growth in the measured region is seen.
  g_counting = true;
  std::vector<int> probe;
  probe.push_back(1);
  g_counting = false;
  EXPECT_GE(g_allocations.load(), 1);
}

}  // namespace
}  // namespace keel::script
