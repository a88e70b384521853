// Tens of thousands of instances run together without per-frame allocation (counted by
// keel/core/testing's counting operator new, linked through TEST_DEPS keel::core_testing).
#include "keel/core/testing/alloc_counter.h"
#include "keel/script/machine.h"
#include "keel/script/testing/script_testing.h"

#include <gtest/gtest.h>

#include <vector>

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
  keel::testing::AllocationScope scope;
  u64 commands_run = 0;
  for (int i = 0; i < 100; ++i) {
    machine.update(1.0 / 60.0);
    commands_run += machine.last_frame().commands;
  }
  EXPECT_EQ(scope.count(), 0u) << scope.counts();
  EXPECT_GT(commands_run, 100u * 15000u * 3u);
  EXPECT_EQ(machine.instance_count(), kInstances);
  EXPECT_GT(machine.variable(ids[0], "laps"), 10);
  EXPECT_EQ(machine.state(ids[3]), InstanceState::kWaiting);

  // The counter itself works: a vector growth in the measured region is seen.
  scope.reset();
  std::vector<int> probe;
  probe.push_back(1);
  EXPECT_GE(scope.count(), 1u);
}

}  // namespace
}  // namespace keel::script
