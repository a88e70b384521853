// The VM: spec checks 29-37 (interpreter), variables, game commands and instance handles.
#include "keel/script/machine.h"

#include "keel/core/hash.h"
#include "keel/script/bytecode.h"
#include "keel/script/testing/script_testing.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

namespace keel::script {
namespace {

using testing::compile_text;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::ProbeLog;
using testing::to_code;

// A compiled library, a machine and a probe log in one fixture-like bundle.
struct Rig {
  explicit Rig(std::string_view source, MachineOptions options = {})
      : commands(testing::probe_commands(log)) {
    text::Diagnostics diag;
    auto compiled = compile_text(source, commands, diag, {.warn_unknown_targets = false});
    EXPECT_TRUE(compiled) << diag.render();
    if (compiled) library = std::move(*compiled);
    machine = std::make_unique<Machine>(commands, options);
    EXPECT_TRUE(machine->add_library(library));
  }
  InstanceId start(std::string_view name) {
    auto id = machine->start(name);
    EXPECT_TRUE(id) << (id ? "" : id.error().to_string());
    return id.value_or(InstanceId{});
  }
  void frames(int n, f64 dt = 1.0 / 60.0) {
    for (int i = 0; i < n; ++i) machine->update(dt);
  }

  ProbeLog log;
  CommandSet commands;
  Library library;
  std::unique_ptr<Machine> machine;
};

TEST(ScriptMachine, Check29_BreakEndsTheFrame) {
  Rig rig("SCRIPT(\"s\"){ P1(); BREAK(); P2(); }");
  const InstanceId id = rig.start("s");
  rig.frames(3);
  EXPECT_THAT(rig.log.frames_of("P1"), ElementsAre(1u));
  EXPECT_THAT(rig.log.frames_of("P2"), ElementsAre(2u));
  EXPECT_EQ(rig.machine->state(id), InstanceState::kFinished);
}

TEST(ScriptMachine, Check30_PauseFrames) {
  Rig rig("SCRIPT(\"s\"){ P1(); PAUSE(3); P2(); PAUSE(1); P3(); PAUSEFRAMES(n); P4(); }");
  const InstanceId id = rig.start("s");
  ASSERT_TRUE(rig.machine->set_variable(id, "n", 2));
  rig.frames(1);
  EXPECT_EQ(rig.machine->state(id), InstanceState::kWaiting);
  rig.frames(9);
  EXPECT_THAT(rig.log.frames_of("P1"), ElementsAre(1u));
  EXPECT_THAT(rig.log.frames_of("P2"), ElementsAre(4u));  // exactly 3 frames later
  EXPECT_THAT(rig.log.frames_of("P3"), ElementsAre(5u));  // PAUSE(1) behaves like BREAK()
  EXPECT_THAT(rig.log.frames_of("P4"), ElementsAre(7u));  // PAUSEFRAMES(variable)

  // PAUSE(1) and BREAK() are interchangeable.
  Rig a("SCRIPT(\"s\"){ P1(); PAUSE(1); P2(); }");
  Rig b("SCRIPT(\"s\"){ P1(); BREAK(); P2(); }");
  a.start("s");
  b.start("s");
  a.frames(3);
  b.frames(3);
  EXPECT_EQ(a.log.runs, b.log.runs);

  // PAUSE(0) and a negative pause do not wait.
  Rig zero("SCRIPT(\"s\"){ P1(); PAUSE(0); PAUSE(m); P2(); }");
  const InstanceId z = zero.start("s");
  zero.machine->set_variable(z, "m", -4);
  zero.frames(1);
  EXPECT_THAT(zero.log.frames_of("P2"), ElementsAre(1u));
}

TEST(ScriptMachine, Check31_PauseSeconds) {
  Rig rig("SCRIPT(\"s\"){ P1(); PAUSESECONDS(0.5); P2(); PAUSESECONDS(t); P3(); }");
  const InstanceId id = rig.start("s");
  rig.machine->set_variable(id, "t", 1);  // a variable holds whole seconds
  rig.frames(200, 1.0 / 60.0);
  EXPECT_THAT(rig.log.frames_of("P1"), ElementsAre(1u));
  EXPECT_THAT(rig.log.frames_of("P2"), ElementsAre(31u));  // 30 frames of 1/60 s later
  EXPECT_THAT(rig.log.frames_of("P3"), ElementsAre(91u));  // 60 more
}

TEST(ScriptMachine, Check32_IfChangeScript) {
  const char* source = R"(
    SCRIPT("guard") { IF(health, lessthan, 50) CHANGESCRIPT("RUNAWAY"); P2(); }
    SCRIPT("RUNAWAY") { P1(); })";
  {
    Rig rig(source);
    const InstanceId id = rig.start("guard");
    rig.machine->set_variable(id, string_hash("health"), 40);
    rig.frames(1);
    EXPECT_EQ(rig.log.order(), std::vector<std::string>{"P1"});
    EXPECT_EQ(rig.machine->state(id), InstanceState::kFinished);
    // The instance ran the script whose name hash is HASH("RUNAWAY").
    const auto pos = rig.machine->position(id);
    ASSERT_TRUE(pos);
    EXPECT_EQ(pos->script->name_hash, string_hash("RUNAWAY"));
  }
  {
    Rig rig(source);
    const InstanceId id = rig.start("guard");
    rig.machine->set_variable(id, "health", 60);
    rig.frames(1);
    EXPECT_EQ(rig.log.order(), std::vector<std::string>{"P2"});
  }
}

TEST(ScriptMachine, IfComparatorsAndOperandTypes) {
  Rig rig(R"(SCRIPT("s") {
      IF(a, EQUALS, 3) P1();  IF(a, NOTEQUAL, 3) P2();  IF(a, LESSTHAN, b) P3();
      IF(a, LESSEQUAL, 3) P4(); IF(5, GREATERTHAN, a) P1(); IF(b, GREATEREQUAL, a) P2();
      IF(1, LT, 2) { IF(2, GT, 1) { P3(); } P4(); }
    })");
  const InstanceId id = rig.start("s");
  rig.machine->set_variable(id, "a", 3);
  rig.machine->set_variable(id, "b", 3);
  rig.frames(1);
  EXPECT_EQ(rig.log.order(), (std::vector<std::string>{"P1", "P4", "P1", "P2", "P3", "P4"}));
}

TEST(ScriptMachine, Check33_CallScriptReturns) {
  Rig rig(R"(
    SCRIPT("A") { P1(); CALLSCRIPT("B"); P3(); }
    SCRIPT("B") { P2(); BREAK(); P2(); CALLSCRIPT("C"); }
    SCRIPT("C") { P4(); })");
  const InstanceId id = rig.start("A");
  rig.frames(1);
  EXPECT_EQ(rig.log.order(), (std::vector<std::string>{"P1", "P2"}));
  EXPECT_EQ(rig.machine->position(id)->depth, 1u);
  rig.frames(1);
  EXPECT_EQ(rig.log.order(), (std::vector<std::string>{"P1", "P2", "P2", "P4", "P3"}));
  EXPECT_EQ(rig.machine->state(id), InstanceState::kFinished);
}

TEST(ScriptMachine, ChangeScriptInsideACallLeavesTheCaller) {
  Rig rig(R"(
    SCRIPT("A") { CALLSCRIPT("B"); P1(); }
    SCRIPT("B") { CHANGESCRIPT("C"); }
    SCRIPT("C") { P2(); })");
  const InstanceId id = rig.start("A");
  rig.frames(2);
  EXPECT_EQ(rig.log.order(), std::vector<std::string>{"P2"});
  EXPECT_EQ(rig.machine->state(id), InstanceState::kFinished);
}

// A library holding one hand-made script "raw" (and the probe script "ok").
struct RawRig : Rig {
  explicit RawRig(std::vector<std::byte> code) : Rig("SCRIPT(\"ok\") { P1(); BREAK(); P1(); }") {
    raw.add_script(Script{string_hash("raw"), "raw", std::move(code), {}, {}});
    EXPECT_TRUE(machine->add_library(raw));
  }
  Library raw;
};

TEST(ScriptMachine, Check34_UnknownOpcodeIsSkipped) {
  // FF FF 08 00 <4 bytes>, then P2 (opcode 0x201), an unknown game opcode 0x0777, a reserved
  // built-in opcode 0x00FE, and P2 again.
  RawRig rig(to_code({0xFF, 0xFF, 0x08, 0x00, 0xDE, 0xAD, 0xBE, 0xEF, 0x01, 0x02, 0x04, 0x00,
                      0x77, 0x07, 0x04, 0x00, 0xFE, 0x00, 0x04, 0x00, 0x01, 0x02, 0x04, 0x00}));
  const InstanceId id = rig.start("raw");
  rig.frames(1);
  EXPECT_THAT(rig.log.frames_of("P2"), ElementsAre(1u, 1u));
  EXPECT_EQ(rig.machine->state(id), InstanceState::kFinished);
  EXPECT_EQ(rig.machine->last_frame().commands, 5u);
}

TEST(ScriptMachine, Check35_CorruptLengthsStopTheScript) {
  const std::vector<std::vector<std::byte>> bad = {
      to_code({0x01, 0x00, 0x06, 0x00, 0, 0, 0, 0}),  // not a multiple of 4
      to_code({0x01, 0x00, 0x00, 0x00}),              // 0: would never advance
      to_code({0x01, 0x02, 0x04, 0x00, 0x01, 0x00, 0x0C, 0x00, 0, 0, 0, 0}),  // past the end
      to_code({0x02, 0x00, 0x04, 0x00}),  // PAUSE without its parameter
      to_code({0x06, 0x00, 0x10, 0x00, 0x09, 0, 0, 16, 0, 0, 0, 0, 0, 0, 0, 0}),  // comparator 9
      to_code({0x06, 0x00, 0x10, 0x00, 0x00, 0, 0, 20, 0, 0, 0, 0, 0, 0, 0, 0}),  // offset > len
      to_code({0x06, 0x00, 0x10, 0x00, 0x00, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0}),   // offset < 16
      to_code({0x00, 0x01, 0x04, 0x00}),  // PRINT without its parameter
      to_code({0x01, 0x00}),              // half a header
  };
  for (usize i = 0; i < bad.size(); ++i) {
    SCOPED_TRACE(i);
    RawRig rig(bad[i]);
    const InstanceId id = rig.start("raw");
    const InstanceId other = rig.start("ok");
    rig.frames(2);
    EXPECT_EQ(rig.machine->state(id), InstanceState::kFailed);
    ASSERT_NE(rig.machine->error(id), nullptr);
    EXPECT_EQ(rig.machine->error(id)->code(), ErrorCode::kCorrupt);
    EXPECT_THAT(rig.machine->error(id)->to_string(), HasSubstr("script \"raw\""));
    // The other script carries on.
    EXPECT_THAT(rig.log.frames_of("P1"), ElementsAre(1u, 2u));
    EXPECT_EQ(rig.machine->state(other), InstanceState::kFinished);
    // Corrupt built-ins are rejected by validate_stream (used by Library::from_bytes) as well;
    // game opcodes are opaque to it, so only the Machine can catch the short PRINT.
    if (i != 7) {
      EXPECT_FALSE(validate_stream(bad[i]));
    }
  }
}

TEST(ScriptMachine, ValidatedAndUncheckedScriptsCallEachOther) {
  // "raw" fails validation (its IF block holds a command of length 6) but runs fine as long as
  // the IF is false: it is run command by command with checks, and the compiled caller without.
  std::vector<std::byte> raw = to_code({0x06, 0x00, 0x14, 0x00, 0x00, 0x01, 0x00, 0x10});
  for (u8 b : {u8{'x'}, u8{0}, u8{0}, u8{0}, u8{1}, u8{0}, u8{0}, u8{0}, u8{1}, u8{0}, u8{6}, u8{0},
               u8{0x01}, u8{0x02}, u8{0x04}, u8{0x00}}) {
    raw.push_back(static_cast<std::byte>(b));
  }
  ASSERT_FALSE(validate_stream(raw));
  for (const s32 x : {0, 1}) {
    SCOPED_TRACE(x);
    Rig rig(R"(SCRIPT("caller") { P1(); CALLSCRIPT("raw"); P3(); CHANGESCRIPT("raw"); })");
    Library lib;
    ASSERT_TRUE(lib.add_script(Script{string_hash("raw"), "raw", raw, {}, {}}));
    ASSERT_TRUE(rig.machine->add_library(lib));
    const InstanceId id = rig.start("caller");
    rig.machine->set_variable(id, "x", x);
    rig.frames(1);
    if (x == 0) {
      EXPECT_EQ(rig.log.order(), (std::vector<std::string>{"P1", "P2", "P3", "P2"}));
      EXPECT_EQ(rig.machine->state(id), InstanceState::kFinished);
    } else {
      EXPECT_EQ(rig.log.order(), (std::vector<std::string>{"P1"}));
      EXPECT_EQ(rig.machine->state(id), InstanceState::kFailed);
      EXPECT_EQ(rig.machine->error(id)->code(), ErrorCode::kCorrupt);
    }
  }
}

TEST(ScriptMachine, Check36_InfiniteLoopsUseOneBudgetPerFrame) {
  Rig rig(R"(
    SCRIPT("L") { CHANGESCRIPT("L"); }
    SCRIPT("C") { CALLSCRIPT("C"); }
    SCRIPT("M") { ADD(n, 1); IF(n, LT, 1000000) CALLSCRIPT("N"); }
    SCRIPT("N") { CHANGESCRIPT("M"); }
    SCRIPT("fine") { P1(); BREAK(); P1(); })",
          {.command_budget = 500, .max_call_depth = 16});
  const InstanceId loop = rig.start("L");
  const InstanceId calls = rig.start("C");
  const InstanceId mutual = rig.start("M");
  const InstanceId fine = rig.start("fine");
  rig.frames(1);
  EXPECT_THAT(rig.log.frames_of("P1"), ElementsAre(1u));
  EXPECT_EQ(rig.machine->state(loop), InstanceState::kRunning);  // continues next frame
  EXPECT_EQ(rig.machine->state(mutual), InstanceState::kRunning);
  EXPECT_EQ(rig.machine->state(calls), InstanceState::kFailed);  // the call stack is bounded
  EXPECT_EQ(rig.machine->error(calls)->code(), ErrorCode::kOverflow);
  EXPECT_EQ(rig.machine->last_frame().budget_hits, 2u);
  EXPECT_EQ(rig.machine->last_frame().commands, 500u + 17u + 500u + 2u);
  rig.frames(1);
  EXPECT_THAT(rig.log.frames_of("P1"), ElementsAre(1u, 2u));
  EXPECT_EQ(rig.machine->state(fine), InstanceState::kFinished);
  EXPECT_EQ(rig.machine->last_frame().commands, 1000u + 1u);
  EXPECT_EQ(rig.machine->variable(mutual, "n"), 250);  // ADD, IF, CALLSCRIPT, CHANGESCRIPT
}

TEST(ScriptMachine, Check37_RandomBytesNeverCrash) {
  std::mt19937 rng(37);
  std::uniform_int_distribution<int> byte(0, 255);
  std::uniform_int_distribution<int> small(0, 12);
  u64 failed = 0;
  for (int round = 0; round < 1500; ++round) {
    std::vector<std::byte> code(static_cast<usize>(byte(rng) % 96));
    for (std::byte& b : code) {
      // Bias toward known opcodes and plausible lengths so deep paths run too.
      b = static_cast<std::byte>(byte(rng) < 128 ? small(rng) * 4 : byte(rng));
    }
    RawRig rig(code);
    const InstanceId id = rig.start("raw");
    rig.machine->set_variable(id, "x", round);
    rig.frames(3);
    const InstanceState state = rig.machine->state(id);
    EXPECT_NE(state, InstanceState::kFree);
    EXPECT_LE(rig.machine->total_commands(), 3u * 1000u + 3u);
    if (state == InstanceState::kFailed) ++failed;
    // from_bytes never accepts what validate_stream rejects.
    if (!validate_stream(code)) {
      Library lib;
      ASSERT_TRUE(lib.add_script(Script{1, {}, code, {}, {}}));
      EXPECT_FALSE(Library::from_bytes(lib.to_bytes()));
    }
  }
  EXPECT_GT(failed, 100u);  // the generator does produce corrupt streams
}

TEST(ScriptMachine, VariablesPerInstanceAndGameWide) {
  Rig rig(
      R"(SCRIPT("s") { ADD(count, 1); ADD(score, 10); SET(copy, count); IF(level, EQ, 3) P1(); })");
  rig.machine->set_global("score", 100);
  rig.machine->set_global("level", 3);
  const InstanceId a = rig.start("s");
  const InstanceId b = rig.start("s");
  rig.machine->set_variable(b, "count", 41);
  rig.frames(1);
  EXPECT_EQ(rig.machine->variable(a, "count"), 1);   // unset reads 0
  EXPECT_EQ(rig.machine->variable(b, "count"), 42);  // each instance has its own
  EXPECT_EQ(rig.machine->variable(b, "copy"), 42);
  EXPECT_EQ(rig.machine->global("score"), 120);  // both wrote the game-wide variable
  EXPECT_EQ(rig.machine->variable(a, "score"), 120);
  EXPECT_FALSE(rig.machine->find_variable(a, string_hash("nothing")));
  EXPECT_THAT(rig.log.frames_of("P1"), ElementsAre(1u, 1u));
  // An instance variable shadows a global of the same name.
  rig.machine->set_variable(a, "level", 1);
  EXPECT_EQ(rig.machine->variable(a, "level"), 1);
  EXPECT_EQ(rig.machine->variable(b, "level"), 3);
  // Many variables spill past the inline ones.
  for (int i = 0; i < 20; ++i) rig.machine->set_variable(a, fmt::format("v{}", i), i);
  EXPECT_EQ(rig.machine->variable(a, "v17"), 17);
  EXPECT_EQ(rig.machine->variables(a).size(), 20u + 3u);  // + count, copy, level
}

TEST(ScriptMachine, GameCommandOutcomes) {
  CommandSet commands = default_commands();
  int waits = 0;
  std::vector<std::string> seen;
  ASSERT_TRUE(commands.add({.name = "WAITTWICE", .opcode = 0x0500, .handler = [&](Call&) {
                              return ++waits % 3 == 0 ? Outcome::kNext : Outcome::kRetry;
                            }}));
  ASSERT_TRUE(commands.add({.name = "NEAR",
                            .opcode = 0x0501,
                            .params = {{ParamType::kValue, {}}},
                            .conditional = Conditional::kAllowed,
                            .handler = [](Call& call) {
                              return call.value_at(0) < 5 ? Outcome::kNext : Outcome::kFalse;
                            }}));
  ASSERT_TRUE(commands.add({.name = "NOTE",
                            .opcode = 0x0502,
                            .params = {{ParamType::kString, {}}, {ParamType::kFloat, 2.5}},
                            .handler = [&](Call& call) {
                              seen.push_back(fmt::format("{}@{}:{}", call.text_at(0).value_or("?"),
                                                         call.frame(), call.float_at(1)));
                              return Outcome::kYield;
                            }}));
  ASSERT_TRUE(commands.add(
      {.name = "QUIT", .opcode = 0x0503, .handler = [](Call&) { return Outcome::kStop; }}));
  ASSERT_TRUE(commands.add({.name = "BOOM", .opcode = 0x0504, .handler = [](Call& call) {
                              return call.fail("no target");
                            }}));
  text::Diagnostics diag;
  auto lib = compile_text(R"(
    SCRIPT("s") { WAITTWICE(); NOTE("a"); NEAR(d) { NOTE("near", 1); } NEAR(9) NOTE("far"); QUIT(); NOTE("never"); }
    SCRIPT("b") { BOOM(); NOTE("never"); })",
                          commands, diag);
  ASSERT_TRUE(lib) << diag.render();
  Machine machine(commands);
  ASSERT_TRUE(machine.add_library(*lib));
  const InstanceId s = *machine.start("s");
  const InstanceId b = *machine.start("b");
  machine.set_variable(s, "d", 2);
  for (int i = 0; i < 8; ++i) machine.update(0.1);
  EXPECT_THAT(seen, ElementsAre("a@3:2.5", "near@4:1"));
  EXPECT_EQ(machine.state(s), InstanceState::kFinished);
  EXPECT_EQ(machine.state(b), InstanceState::kFailed);
  EXPECT_EQ(machine.error(b)->code(), ErrorCode::kRefused);
  EXPECT_EQ(machine.error(b)->to_string(), "test.script:3:19: error: `BOOM`: no target");
}

TEST(ScriptMachine, HandlesStartReleaseAndErrors) {
  Rig rig("SCRIPT(\"s\") { P1(); BREAK(); P2(); } SCRIPT(\"bad\") { CHANGESCRIPT(\"gone\"); }");
  auto missing = rig.machine->start("nope");
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().code(), ErrorCode::kNotFound);
  const InstanceId a = rig.start("s");
  EXPECT_EQ(rig.machine->instance_count(), 1u);
  EXPECT_TRUE(rig.machine->release(a));
  EXPECT_FALSE(rig.machine->release(a));
  EXPECT_EQ(rig.machine->state(a), InstanceState::kFree);
  const InstanceId b = rig.start("s");
  EXPECT_EQ(b.index, a.index);  // the slot is reused ...
  EXPECT_NE(b, a);              // ... but the old handle stays dead
  EXPECT_FALSE(rig.machine->set_variable(a, "x", 1));
  const InstanceId bad = rig.start("bad");
  rig.frames(1);
  EXPECT_EQ(rig.machine->state(bad), InstanceState::kFailed);
  EXPECT_EQ(rig.machine->error(bad)->to_string(),
            "test.script:1:54: error: CHANGESCRIPT: no script named \"gone\" is loaded");
  rig.machine->clear();
  EXPECT_EQ(rig.machine->instance_count(), 0u);
  // Loading a second library with a script of the same name is refused.
  Library again;
  ASSERT_TRUE(again.add_script(Script{string_hash("s"), "s", {}, {}, {}}));
  EXPECT_FALSE(rig.machine->add_library(again));
}

TEST(ScriptMachine, InstancesStartedDuringAFrameRunInTheNext) {
  CommandSet commands = default_commands();
  std::vector<u64> frames;
  ASSERT_TRUE(commands.add({.name = "SPAWN", .opcode = 0x0600, .handler = [](Call& call) {
                              for (int i = 0; i < 3000; ++i) (void)call.machine().start("child");
                              return Outcome::kNext;
                            }}));
  ASSERT_TRUE(commands.add({.name = "MARK", .opcode = 0x0601, .handler = [&](Call& call) {
                              frames.push_back(call.frame());
                              return Outcome::kNext;
                            }}));
  text::Diagnostics diag;
  auto lib =
      compile_text("SCRIPT(\"parent\") { SPAWN(); } SCRIPT(\"child\") { MARK(); }", commands, diag);
  ASSERT_TRUE(lib) << diag.render();
  Machine machine(commands);
  ASSERT_TRUE(machine.add_library(*lib));
  ASSERT_TRUE(machine.start("parent"));
  machine.update(0.0);
  EXPECT_TRUE(frames.empty());
  machine.update(0.0);
  EXPECT_EQ(frames.size(), 3000u);
  EXPECT_EQ(frames.front(), 2u);
  EXPECT_EQ(machine.instance_count(), 3001u);
}

TEST(ScriptMachine, EmptyScriptFinishesAtOnce) {
  Rig rig("SCRIPT(\"Example1\") { }");
  const InstanceId id = rig.start("Example1");
  EXPECT_EQ(rig.machine->state(id), InstanceState::kRunning);
  rig.frames(1);
  EXPECT_EQ(rig.machine->state(id), InstanceState::kFinished);
}

TEST(ScriptMachine, BasicCommandsPrintSetAdd) {
  CommandSet commands = default_commands();
  std::vector<std::string> printed;
  ASSERT_TRUE(add_basic_commands(commands, [&](const Call& call, std::string_view text) {
    printed.push_back(fmt::format("{}: {}", call.frame(), text));
  }));
  text::Diagnostics diag;
  auto lib = compile_text(
      "SCRIPT(\"s\") { SET(a, 5); ADD(a, a); ADD(a, -3); SET(b, a); PRINT(\"hello\"); BREAK(); "
      "PRINT('done'); ADD(big, 2147483647); ADD(big, 1); }",
      commands, diag);
  ASSERT_TRUE(lib) << diag.render();
  Machine machine(commands);
  ASSERT_TRUE(machine.add_library(*lib));
  const InstanceId id = *machine.start("s");
  machine.update(0.0);
  machine.update(0.0);
  EXPECT_THAT(printed, ElementsAre("1: hello", "2: done"));
  EXPECT_EQ(machine.variable(id, "a"), 7);
  EXPECT_EQ(machine.variable(id, "b"), 7);
  EXPECT_EQ(machine.variable(id, "big"), 2147483647);  // saturates
}

}  // namespace
}  // namespace keel::script
