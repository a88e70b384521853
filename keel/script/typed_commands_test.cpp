// Typed game commands: CommandSet::add(name, opcode, handler) derives the signature from the
// handler's parameters and calls it through generated decoding code (call.h).
#include "keel/script/call.h"
#include "keel/script/commands.h"
#include "keel/script/machine.h"
#include "keel/script/testing/script_testing.h"

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace keel::script {
namespace {

using testing::compile_text;

struct TypedRig {
  std::optional<Library> library;
  std::unique_ptr<Machine> machine;
  InstanceId id;
};

// Compiles `source`, starts script "s" and runs `frames` frames.
TypedRig run(const CommandSet& commands, std::string_view source, int frames = 1) {
  TypedRig rig;
  text::Diagnostics diag;
  rig.library = compile_text(source, commands, diag);
  EXPECT_TRUE(rig.library) << diag.render();
  if (!rig.library) return rig;
  rig.machine = std::make_unique<Machine>(commands);
  EXPECT_TRUE(rig.machine->add_library(*rig.library));
  auto id = rig.machine->start("s");
  EXPECT_TRUE(id);
  rig.id = id ? *id : InstanceId{};
  for (int i = 0; i < frames; ++i) rig.machine->update(1.0 / 60.0);
  return rig;
}

TEST(TypedCommands, SignatureFromTheHandler) {
  CommandSet commands = default_commands();
  ASSERT_TRUE(commands.add("MOVE", 0x0300, [](s32&, s32, f32, String, Name) {}));
  const CommandDef* def = commands.find("move");
  ASSERT_NE(def, nullptr);
  ASSERT_EQ(def->params.size(), 5u);
  EXPECT_EQ(def->params[0].type, ParamType::kVariable);
  EXPECT_EQ(def->params[1].type, ParamType::kValue);
  EXPECT_EQ(def->params[2].type, ParamType::kFloat);
  EXPECT_EQ(def->params[3].type, ParamType::kString);
  EXPECT_EQ(def->params[4].type, ParamType::kName);
  EXPECT_EQ(def->conditional, Conditional::kForbidden);
  // A Call& first is not a script parameter.
  ASSERT_TRUE(commands.add("WHO", 0x0301, [](Call&, s32) { return Outcome::kNext; }));
  EXPECT_EQ(commands.find("WHO")->params.size(), 1u);
}

TEST(TypedCommands, ParametersDecoded) {
  CommandSet commands = default_commands();
  std::vector<std::string> seen;
  ASSERT_TRUE(commands.add("SEE", 0x0300, [&](s32 a, f32 b, String c, Name d) {
    seen.push_back(fmt::format("{} {} {:08X} {:08X}", a, b, c.hash, d.hash));
  }));
  ASSERT_TRUE(commands.add("PUT", 0x0301, [](s32& target, s32 value) { target = value; }));
  auto rig = run(commands, R"(SCRIPT("s") {
    SEE(-7, 0.5, "text", door);
    SET(v, 41);
    SEE(v, 2, "x", y);
    PUT(w, v);
    PUT(w2, 3);
  })");
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen[0], fmt::format("-7 0.5 {:08X} {:08X}", string_hash("text"), string_hash("door")));
  EXPECT_EQ(seen[1], fmt::format("41 2 {:08X} {:08X}", string_hash("x"), string_hash("y")));
  EXPECT_EQ(rig.machine->variable(rig.id, "w"), 41);
  EXPECT_EQ(rig.machine->variable(rig.id, "w2"), 3);
  EXPECT_EQ(rig.machine->state(rig.id), InstanceState::kFinished);
}

// The generated code finds variables among the inline ones; everything else (a variable not
// set yet, one past the inline ones, a game-wide one) takes the general path, same results.
TEST(TypedCommands, VariablesEverywhere) {
  CommandSet commands = default_commands();
  ASSERT_TRUE(commands.add("INC", 0x0300, [](s32& v, s32 by) { v += by; }));
  ASSERT_TRUE(commands.add("SWAP", 0x0301, [](s32& a, s32& b) { std::swap(a, b); }));
  auto rig = run(commands, R"(SCRIPT("s") {
    INC(a, 1); INC(a, 1);
    SET(v1, 1); SET(v2, 2); SET(v3, 3); SET(v4, 4); SET(v5, 5); SET(v6, 6); SET(v7, 7);
    INC(v7, v1); INC(v1, v7);
    SWAP(new1, v6); SWAP(new2, new3); SWAP(v7, v2);
    INC(level, difficulty); INC(difficulty, 10);
  })");
  const Machine& m = *rig.machine;
  EXPECT_EQ(m.variable(rig.id, "a"), 2);
  EXPECT_EQ(m.variable(rig.id, "v7"), 2);  // 7 + 1, then swapped with v2
  EXPECT_EQ(m.variable(rig.id, "v2"), 8);
  EXPECT_EQ(m.variable(rig.id, "v1"), 9);
  EXPECT_EQ(m.variable(rig.id, "new1"), 6);
  EXPECT_EQ(m.variable(rig.id, "v6"), 0);
  EXPECT_EQ(m.variable(rig.id, "new2"), 0);
  EXPECT_EQ(m.variable(rig.id, "new3"), 0);
  EXPECT_EQ(m.variable(rig.id, "level"), 0);
  EXPECT_EQ(m.variable(rig.id, "difficulty"), 10);  // no game-wide one yet: the instance's own

  // With a game-wide variable: read and written through (the instance has none of its own).
  CommandSet again = default_commands();
  ASSERT_TRUE(again.add("INC", 0x0300, [](s32& v, s32 by) { v += by; }));
  text::Diagnostics diag;
  auto lib =
      compile_text(R"(SCRIPT("s") { INC(level, difficulty); INC(difficulty, 10); })", again, diag);
  ASSERT_TRUE(lib) << diag.render();
  Machine machine(again);
  ASSERT_TRUE(machine.add_library(*lib));
  machine.set_global("difficulty", 3);
  auto id = machine.start("s");
  ASSERT_TRUE(id);
  machine.update(1.0 / 60.0);
  EXPECT_EQ(machine.variable(*id, "level"), 3);
  EXPECT_EQ(machine.global("difficulty"), 13);
  for (const auto& [name, value] : machine.variables(*id)) {
    EXPECT_NE(name, string_hash("difficulty"));  // the game-wide one was written, not a copy
  }
}

TEST(TypedCommands, ResultsAndCall) {
  CommandSet commands = default_commands();
  int waits = 0;
  std::vector<std::string> seen;
  ASSERT_TRUE(commands.add("NEAR", 0x0300, [](s32 distance) { return distance < 5; },
                           {.conditional = Conditional::kAllowed}));
  ASSERT_TRUE(commands.add("WAIT", 0x0301,
                           [&] { return ++waits % 2 == 0 ? Outcome::kNext : Outcome::kRetry; }));
  ASSERT_TRUE(commands.add("NOTE", 0x0302, [&](Call& call, String text, s32 n) {
    seen.push_back(fmt::format("{}{}@{}", call.text_at(0).value_or("?"), n, call.frame()));
    EXPECT_EQ(call.user(), &waits);
    EXPECT_EQ(text.hash, call.hash_at(0));
  }));
  ASSERT_TRUE(commands.add("BOOM", 0x0303, [](Call& call) { return call.fail("no target"); }));
  text::Diagnostics diag;
  auto lib = compile_text(R"(SCRIPT("s") {
    NEAR(2) NOTE("near", 1);
    NEAR(9) NOTE("far", 2);
    WAIT();
    NOTE("waited", 3);
    BOOM();
    NOTE("never", 4);
  })",
                          commands, diag);
  ASSERT_TRUE(lib) << diag.render();
  Machine machine(commands);
  ASSERT_TRUE(machine.add_library(*lib));
  auto id = machine.start("s", &waits);
  ASSERT_TRUE(id);
  machine.update(1.0 / 60.0);
  machine.update(1.0 / 60.0);
  EXPECT_THAT(seen, ::testing::ElementsAre("near1@1", "waited3@2"));
  EXPECT_EQ(machine.state(*id), InstanceState::kFailed);
  ASSERT_NE(machine.error(*id), nullptr);
  EXPECT_THAT(machine.error(*id)->message(), ::testing::HasSubstr("no target"));
}

TEST(TypedCommands, DefaultsAndHelp) {
  CommandSet commands = default_commands();
  std::vector<s32> seen;
  ASSERT_TRUE(commands.add("HIT", 0x0300, [&](s32 a, s32 b) { seen.push_back(a * 100 + b); },
                           {.defaults = {7}, .help = "HIT(damage, times = 7);"}));
  EXPECT_EQ(commands.find("HIT")->help, "HIT(damage, times = 7);");
  run(commands, R"(SCRIPT("s") { HIT(1); HIT(2, 3); })");
  EXPECT_THAT(seen, ::testing::ElementsAre(107, 203));
}

// The CommandDef's handler (for code that holds a CommandDef only) decodes through a Call, with
// the same results as the generated invoker the Machine uses.
TEST(TypedCommands, HandlerThroughCallMatches) {
  CommandSet commands = default_commands();
  std::vector<std::string> seen;
  ASSERT_TRUE(commands.add("SEE", 0x0300, [&](s32& v, s32 a, f32 b) {
    seen.push_back(fmt::format("{} {} {}", v, a, b));
    v = a;
  }));
  CommandSet generic = default_commands();
  CommandDef def = *commands.find("SEE");
  def.invoker = nullptr;  // the Machine calls `handler` with a Call
  def.locate = nullptr;
  ASSERT_TRUE(generic.add(def));
  const char* source = R"(SCRIPT("s") { SET(x, 4); SEE(v, x, 1.5); SEE(v, 9, 2); })";
  auto fast = run(commands, source);
  auto slow = run(generic, source);
  EXPECT_THAT(seen, ::testing::ElementsAre("0 4 1.5", "4 9 2", "0 4 1.5", "4 9 2"));
  EXPECT_EQ(fast.machine->variable(fast.id, "v"), 9);
  EXPECT_EQ(slow.machine->variable(slow.id, "v"), 9);
}

// A typed CommandDef whose handler is replaced keeps its invoker fields; the Machine then finds
// no callable of the typed kind and calls the new handler through a Call instead of crashing.
TEST(EntryPoints, TypedDefWithReplacedHandler) {
  CommandSet typed = default_commands();
  ASSERT_TRUE(typed.add("PUT", 0x0300, [](s32& v, s32 x) { v = x; }));
  CommandDef def = *typed.find("PUT");
  def.handler = [](Call& call) {
    call.set_at(0, call.value_at(1) * 2);
    return Outcome::kNext;
  };
  CommandSet commands = default_commands();
  ASSERT_TRUE(commands.add(def));
  auto rig = run(commands, R"(SCRIPT("s") { PUT(v, 21); })");
  EXPECT_EQ(rig.machine->variable(rig.id, "v"), 42);
}

TEST(EntryPoints, TypedAddRejects) {
  CommandSet commands = default_commands();
  ASSERT_TRUE(commands.add("ONE", 0x0300, [](s32) {}));
  EXPECT_FALSE(commands.add("one", 0x0301, [](s32) {}));                        // name taken
  EXPECT_FALSE(commands.add("TWO", 0x0300, [](s32) {}));                        // opcode taken
  EXPECT_FALSE(commands.add("LOW", 0x0010, [](s32) {}));                        // not a game opcode
  EXPECT_FALSE(commands.add("", 0x0302, [](s32) {}));                           // no name
  EXPECT_FALSE(commands.add("DEF", 0x0303, [](s32) {}, {.defaults = {1, 2}}));  // too many
  EXPECT_FALSE(commands.add("STR", 0x0304, [](String) {}, {.defaults = {1}}));  // not a number
  EXPECT_EQ(commands.find("DEF"), nullptr);
}

}  // namespace
}  // namespace keel::script
