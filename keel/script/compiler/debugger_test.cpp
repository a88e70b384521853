// Debugging: trace, breakpoints by script and line, single step, and the disassembler.
#include "keel/script/compiler/disassembler.h"
#include "keel/script/machine.h"

#include "keel/core/hash.h"
#include "keel/script/testing/script_testing.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace keel::script {
namespace {

using testing::compile_text;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr const char* kSource = R"(SCRIPT("walk")
{
  SET(steps, 0);
  ADD(steps, 1);
  IF(steps, LESSTHAN, 3)
    P1();
  PAUSE(2);
  P2();
}
SCRIPT("other") { P3(); BREAK(); P3(); }
)";

struct DebugRig {
  DebugRig() : commands(testing::probe_commands(log)) {
    text::Diagnostics diag;
    auto compiled = compile_text(kSource, commands, diag);
    EXPECT_TRUE(compiled) << diag.render();
    library = std::move(*compiled);
    machine = std::make_unique<Machine>(commands);
    EXPECT_TRUE(machine->add_library(library));
  }
  testing::ProbeLog log;
  CommandSet commands;
  Library library;
  std::unique_ptr<Machine> machine;
};

TEST(ScriptDebugger, TraceReportsEveryCommandWithItsLine) {
  DebugRig rig;
  std::vector<std::string> trace;
  rig.machine->set_trace([&](const TraceEvent& e) {
    std::string text = fmt::format("{} {} L{}", e.frame, static_cast<int>(e.kind), e.line);
    if (e.kind == TraceKind::kCommand) {
      text += " " + format_command(e.command, rig.commands, &rig.library);
    }
    trace.push_back(text);
  });
  const InstanceId id = *rig.machine->start("walk");
  for (int i = 0; i < 4; ++i) rig.machine->update(0.1);
  EXPECT_THAT(trace,
              ElementsAre("1 0 L3 SET steps, 0", "1 0 L4 ADD steps, 1", "1 0 L5 IF steps < 3",
                          "1 0 L6 P1", "1 0 L7 PAUSE 2", "3 0 L8 P2", "3 3 L8"));
  EXPECT_EQ(rig.machine->state(id), InstanceState::kFinished);
  // Tracing off: nothing more is reported.
  rig.machine->set_trace({});
  ASSERT_TRUE(rig.machine->start("walk"));
  rig.machine->update(0.1);
  EXPECT_EQ(trace.size(), 7u);
}

TEST(ScriptDebugger, BreakpointHaltsBeforeTheLineAndOthersRunOn) {
  DebugRig rig;
  rig.machine->add_breakpoint(string_hash("walk"), 5);
  const InstanceId walk = *rig.machine->start("walk");
  const InstanceId other = *rig.machine->start("other");
  rig.machine->update(0.1);
  EXPECT_EQ(rig.machine->state(walk), InstanceState::kHalted);
  auto pos = rig.machine->position(walk);
  ASSERT_TRUE(pos);
  EXPECT_EQ(pos->line, 5u);
  EXPECT_EQ(pos->offset, 24u);  // after SET and ADD, 12 bytes each
  EXPECT_EQ(rig.machine->variable(walk, "steps"), 1);
  EXPECT_TRUE(rig.log.frames_of("P1").empty());
  // Halted instances are skipped; the other script carries on.
  rig.machine->update(0.1);
  EXPECT_THAT(rig.log.frames_of("P3"), ElementsAre(1u, 2u));
  EXPECT_EQ(rig.machine->state(other), InstanceState::kFinished);
  EXPECT_EQ(rig.machine->state(walk), InstanceState::kHalted);

  // Single step: the IF, then P1 (its conditional), then PAUSE.
  auto step = rig.machine->step(walk);
  ASSERT_TRUE(step) << step.error().to_string();
  EXPECT_EQ(step->line, 5u);
  EXPECT_EQ(rig.machine->state(walk), InstanceState::kHalted);
  step = rig.machine->step(walk);
  ASSERT_TRUE(step);
  EXPECT_EQ(step->line, 6u);
  EXPECT_EQ(rig.log.frames_of("P1").size(), 1u);
  step = rig.machine->step(walk);
  ASSERT_TRUE(step);
  EXPECT_EQ(step->line, 7u);
  EXPECT_EQ(rig.machine->state(walk), InstanceState::kHalted);  // held, though it now waits
  EXPECT_TRUE(rig.machine->resume(walk));
  EXPECT_FALSE(rig.machine->resume(walk));
  EXPECT_EQ(rig.machine->state(walk), InstanceState::kWaiting);
  rig.machine->update(0.1);  // frame 3: still waiting (PAUSE(2) ran in frame 2's step)
  rig.machine->update(0.1);
  EXPECT_EQ(rig.log.frames_of("P2").size(), 1u);
  EXPECT_EQ(rig.machine->state(walk), InstanceState::kFinished);
  // Stepping something that is not halted is refused.
  EXPECT_FALSE(rig.machine->step(walk));
  EXPECT_FALSE(rig.machine->step(InstanceId{}));
}

TEST(ScriptDebugger, HaltResumeAndRemoveBreakpoints) {
  DebugRig rig;
  rig.machine->add_breakpoint(string_hash("other"), 10);
  EXPECT_TRUE(rig.machine->remove_breakpoint(string_hash("other"), 10));
  EXPECT_FALSE(rig.machine->remove_breakpoint(string_hash("other"), 10));
  const InstanceId other = *rig.machine->start("other");
  EXPECT_TRUE(rig.machine->halt(other));
  rig.machine->update(0.1);
  EXPECT_TRUE(rig.log.runs.empty());
  EXPECT_TRUE(rig.machine->resume(other));
  rig.machine->update(0.1);
  EXPECT_THAT(rig.log.frames_of("P3"), ElementsAre(2u));
  // A breakpoint on a line holding several commands stops once per visit of the line.
  rig.machine->add_breakpoint(string_hash("other"), 10);
  const InstanceId again = *rig.machine->start("other");
  rig.machine->update(0.1);
  EXPECT_EQ(rig.machine->state(again), InstanceState::kHalted);
  rig.machine->resume(again);
  rig.machine->update(0.1);  // P3, BREAK: the same line, no second stop
  EXPECT_EQ(rig.machine->state(again), InstanceState::kRunning);
  rig.machine->clear_breakpoints();
  rig.machine->update(0.1);
  EXPECT_EQ(rig.machine->state(again), InstanceState::kFinished);
}

TEST(ScriptDebugger, DisassemblerShowsSourceBesideBytecode) {
  DebugRig rig;
  const std::string listing = disassemble(rig.library, rig.commands);
  EXPECT_THAT(listing, HasSubstr("script \"walk\"  hash 0x"));
  EXPECT_THAT(listing, HasSubstr("     5|  IF(steps, LESSTHAN, 3)\n"));
  EXPECT_THAT(listing, HasSubstr("0018  06 00 14 00 02 01 00 10"));
  EXPECT_THAT(listing, HasSubstr("IF steps < 3\n"));
  EXPECT_THAT(listing, HasSubstr("     6|    P1();\n0028  00 02 04 00"));
  EXPECT_THAT(listing, HasSubstr("  P1\n"));  // indented: inside the IF
  EXPECT_THAT(listing, HasSubstr("PAUSE 2\n"));
  EXPECT_THAT(listing, HasSubstr("script \"other\""));
  const std::string plain =
      disassemble(rig.library, rig.commands, {.bytes = false, .source_lines = false});
  EXPECT_THAT(plain, HasSubstr("0000  SET steps, 0\n"));
  EXPECT_THAT(plain, ::testing::Not(HasSubstr("|")));

  // Without debug info or symbols the listing still decodes everything.
  Library stripped = rig.library;
  stripped.strip_debug_info();
  EXPECT_THAT(disassemble(stripped, rig.commands), HasSubstr("IF steps < 3"));
  const std::vector<std::byte> bad = testing::to_code({1, 0, 4, 0, 0xFF, 0xFF, 6, 0});
  Library broken;
  ASSERT_TRUE(broken.add_script(Script{string_hash("b"), "b", bad, {}, {}}));
  EXPECT_THAT(disassemble(broken, rig.commands), HasSubstr("!! corrupt: length 6"));
}

TEST(ScriptDebugger, FormatCommand) {
  DebugRig rig;
  const CommandSet& c = rig.commands;
  EXPECT_EQ(format_command(testing::to_code({1, 0, 4, 0}), c, nullptr), "BREAK");
  EXPECT_EQ(format_command(testing::to_code({2, 0, 8, 0, 5, 0, 0, 0}), c, nullptr), "PAUSE 5");
  EXPECT_EQ(format_command(testing::to_code({3, 0, 8, 0, 0xAE, 0x3D, 0x3B, 0x5C}), c, nullptr),
            "PAUSE #5C3B3DAE");
  EXPECT_EQ(format_command(testing::to_code({4, 0, 8, 0, 0, 0, 0, 0x3F}), c, nullptr),
            "PAUSESECONDS 0.5");
  EXPECT_EQ(format_command(testing::to_code({0x34, 0x12, 4, 0}), c, nullptr),
            "op 0x1234 (unknown: skipped)");
  EXPECT_EQ(format_command(testing::to_code({2, 0}), c, nullptr), "(cut off)");
  EXPECT_EQ(format_command(testing::to_code({2, 0, 4, 0}), c, nullptr), "PAUSE (cut off)");
}

}  // namespace
}  // namespace keel::script
