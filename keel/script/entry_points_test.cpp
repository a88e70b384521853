// Public entry points of the runtime given bad input or called in the wrong order: each returns
// an error (or false / a dead state) or asserts with a message naming the mistake; none crashes.
#include "keel/core/assert.h"
#include "keel/core/bytes.h"
#include "keel/script/basic_commands.h"
#include "keel/script/library.h"
#include "keel/script/machine.h"
#include "keel/script/testing/script_testing.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace keel::script {
namespace {

using ::testing::HasSubstr;

Library compile_or_fail(std::string_view source, const CommandSet& commands) {
  text::Diagnostics diag;
  auto lib = testing::compile_text(source, commands, diag, {.warn_unknown_targets = false});
  EXPECT_TRUE(lib) << diag.render();
  return lib ? std::move(*lib) : Library{};
}

TEST(EntryPoints, MachineWithoutBuiltinsStillRunsThem) {
  const Library lib =
      compile_or_fail("SCRIPT(\"s\") { SET(x, 2); ADD(x, 3); PAUSE(2); }", default_commands());
  Machine machine{CommandSet{}};  // no registrations at all
  ASSERT_TRUE(machine.add_library(lib));
  const auto id = machine.start("s");
  ASSERT_TRUE(id);
  for (int i = 0; i < 4; ++i) machine.update(0.1);
  EXPECT_EQ(machine.state(*id), InstanceState::kFinished);
  EXPECT_EQ(machine.variable(*id, "x"), 5);
}

TEST(EntryPoints, MachineStartBeforeLoadingAndUnknownNames) {
  Machine machine(default_commands());
  const auto none = machine.start("nothing");
  ASSERT_FALSE(none);
  EXPECT_EQ(none.error().code(), ErrorCode::kNotFound);
  EXPECT_THAT(none.error().message(), HasSubstr("no script"));
  machine.update(0.1);  // nothing loaded, nothing started: fine
  EXPECT_EQ(machine.instance_count(), 0u);
  EXPECT_EQ(machine.find_script(string_hash("nothing")), nullptr);
  EXPECT_FALSE(machine.symbol(string_hash("nothing")));
}

TEST(EntryPoints, LibraryLoadingRejectsBadInput) {
  using keel::ByteBuffer;
  EXPECT_FALSE(Library::from_bytes({}));  // empty
  const ByteBuffer junk = keel::to_buffer(std::string_view("KSCR but not really a library"));
  EXPECT_FALSE(Library::from_bytes(junk, "junk"));
  const CommandSet commands = default_commands();
  const Library lib = compile_or_fail("SCRIPT(\"s\") { BREAK(); }", commands);
  Machine machine(commands);
  ASSERT_TRUE(machine.add_library(lib));
  const Status twice = machine.add_library(lib);
  ASSERT_FALSE(twice);
  EXPECT_EQ(twice.error().code(), ErrorCode::kAlreadyExists);
  Library empty;
  EXPECT_TRUE(machine.add_library(empty));  // an empty library is fine
  Library bad;
  EXPECT_FALSE(bad.add_script(Script{string_hash("a"), "b", {}, {}, {}}));  // name != hash
}

TEST(EntryPoints, HandlesOfAnotherMachineAreNeverAlive) {
  const CommandSet commands = default_commands();
  const Library lib = compile_or_fail("SCRIPT(\"s\") { PAUSE(100); }", commands);
  Machine a(commands);
  Machine b(commands);
  ASSERT_TRUE(a.add_library(lib));
  ASSERT_TRUE(b.add_library(lib));
  const auto in_a = a.start("s");
  const auto in_b = b.start("s");
  ASSERT_TRUE(in_a && in_b);
  ASSERT_EQ(in_a->index, in_b->index);  // the same slot in both machines
  EXPECT_NE(*in_a, *in_b);              // but different handles (each machine's salt)
  EXPECT_EQ(b.state(*in_a), InstanceState::kFree);
  EXPECT_FALSE(b.set_variable(*in_a, "x", 1));
  EXPECT_FALSE(b.release(*in_a));
  EXPECT_FALSE(b.halt(*in_a));
  EXPECT_FALSE(b.step(*in_a));
  EXPECT_FALSE(b.position(*in_a));
  EXPECT_EQ(b.state(*in_b), InstanceState::kRunning);
  // Null and stale handles.
  EXPECT_EQ(a.state(InstanceId{}), InstanceState::kFree);
  EXPECT_TRUE(a.release(*in_a));
  EXPECT_FALSE(a.release(*in_a));
  const auto again = a.start("s");  // reuses the slot
  ASSERT_TRUE(again);
  EXPECT_EQ(again->index, in_a->index);
  EXPECT_EQ(a.state(*in_a), InstanceState::kFree);
  EXPECT_EQ(a.state(*again), InstanceState::kRunning);
}

TEST(EntryPoints, WrongCallOrderFromHandlers) {
  CommandSet commands = default_commands();
  Machine* machine = nullptr;
  std::string step_error;
  ASSERT_TRUE(commands.add({.name = "SELFSTEP", .opcode = 0x0300, .handler = [&](Call& call) {
                              auto r = machine->step(call.instance());
                              step_error = r ? "" : r.error().message();
                              return Outcome::kNext;
                            }}));
  ASSERT_TRUE(commands.add({.name = "SELFRELEASE", .opcode = 0x0301, .handler = [&](Call& call) {
                              EXPECT_TRUE(machine->release(call.instance()));
                              // A new instance never takes the slot released in this frame.
                              const auto other = machine->start("r");
                              EXPECT_TRUE(other);
                              EXPECT_NE(other->index, call.instance().index);
                              return Outcome::kNext;
                            }}));
  const Library lib = compile_or_fail(
      "SCRIPT(\"s\") { SELFSTEP(); } SCRIPT(\"r\") { SELFRELEASE(); SET(after, 1); }", commands);
  Machine m(commands);
  machine = &m;
  ASSERT_TRUE(m.add_library(lib));
  const auto s = m.start("s");
  const auto r = m.start("r");
  ASSERT_TRUE(s && r);
  m.update(0.1);
  EXPECT_THAT(step_error, HasSubstr("inside a command handler"));
  EXPECT_EQ(m.state(*r), InstanceState::kFree);  // released itself; SET never ran
  EXPECT_EQ(m.state(*s), InstanceState::kFinished);
  // Debugger calls in the wrong order.
  EXPECT_FALSE(m.step(*s));    // finished
  EXPECT_FALSE(m.halt(*s));    // finished
  EXPECT_FALSE(m.resume(*s));  // not halted
  EXPECT_FALSE(m.remove_breakpoint(1, 2));
}

TEST(EntryPoints, ZeroBudgetsAndDepths) {
  const CommandSet commands = default_commands();
#if KEEL_ASSERTS_ENABLED
  EXPECT_DEATH(Machine(commands, {.command_budget = 0}), "command_budget is 0");
  EXPECT_DEATH(Machine(commands, {.max_call_depth = 300}), "limited to 255");
#else
  Machine zero(commands, {.command_budget = 0});  // release: runs one command per frame
  EXPECT_EQ(zero.options().command_budget, 1u);
#endif
  // A depth of 0 is legal: every CALLSCRIPT fails the instance with a message.
  const Library lib =
      compile_or_fail("SCRIPT(\"s\") { CALLSCRIPT(\"t\"); } SCRIPT(\"t\") { BREAK(); }", commands);
  Machine machine(commands, {.max_call_depth = 0});
  ASSERT_TRUE(machine.add_library(lib));
  const auto id = machine.start("s");
  ASSERT_TRUE(id);
  machine.update(0.1);
  EXPECT_EQ(machine.state(*id), InstanceState::kFailed);
  ASSERT_NE(machine.error(*id), nullptr);
  EXPECT_THAT(machine.error(*id)->message(), HasSubstr("deeper than 0"));
  machine.reserve(0);  // no-op
}

TEST(EntryPoints, CallsOutOfRangeAndEmptyHandlers) {
  CommandSet commands = default_commands();
  EXPECT_FALSE(commands.add({.name = "EMPTY", .opcode = 0x0300}));  // no handler
  EXPECT_FALSE(commands.add(
      {.name = "", .opcode = 0x0300, .handler = [](Call&) { return Outcome::kNext; }}));
  EXPECT_FALSE(commands.add(
      {.name = "LOW", .opcode = 0x0010, .handler = [](Call&) { return Outcome::kNext; }}));
  s32 seen = -1;
  s32 beyond = -1;
  constexpr bool kAsserts = KEEL_ASSERTS_ENABLED + 0 != 0;
  ASSERT_TRUE(commands.add(
      {.name = "PEEK", .opcode = 0x0301, .params = {{ParamType::kInt}}, .handler = [&](Call& call) {
         seen = call.int_at(0);
         // Past the parameters: asserts, or 0 without reading (release).
         if (!kAsserts) beyond = call.int_at(5);
         return Outcome::kNext;
       }}));
  const Library lib = compile_or_fail("SCRIPT(\"s\") { PEEK(7); }", commands);
  Machine machine(commands);
  ASSERT_TRUE(machine.add_library(lib));
  ASSERT_TRUE(machine.start("s"));
  machine.update(0.1);
  EXPECT_EQ(seen, 7);
  EXPECT_EQ(beyond, kAsserts ? -1 : 0);
#if KEEL_ASSERTS_ENABLED
  CommandSet asserting = default_commands();
  ASSERT_TRUE(asserting.add({.name = "BAD", .opcode = 0x0302, .handler = [](Call& call) {
                               (void)call.int_at(3);
                               return Outcome::kNext;
                             }}));
  const Library bad = compile_or_fail("SCRIPT(\"b\") { BAD(); }", asserting);
  EXPECT_DEATH(
      {
        Machine m(asserting);
        (void)m.add_library(bad);
        (void)m.start("b");
        m.update(0.1);
      },
      "`BAD` has 0 parameters, asked for #4");
#endif
}

}  // namespace
}  // namespace keel::script
