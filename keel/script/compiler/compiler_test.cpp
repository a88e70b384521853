// Script compiler: spec checks 19-28 (byte-exact where the book fixes the bytes) and the compile
// errors of spec section 3.7.
#include "keel/script/compiler/compiler.h"
#include "keel/script/compiler/disassembler.h"

#include "keel/core/bytes.h"
#include "keel/core/hash.h"
#include "keel/script/bytecode.h"
#include "keel/script/testing/script_testing.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace keel::script {
namespace {

using testing::code_of;
using testing::compile_text;
using ::testing::ElementsAre;
using ::testing::ElementsAreArray;
using ::testing::HasSubstr;

std::vector<u8> le32(u32 v) {
  return {static_cast<u8>(v), static_cast<u8>(v >> 8), static_cast<u8>(v >> 16),
          static_cast<u8>(v >> 24)};
}

// Compiles `body` inside SCRIPT("S") { ... } and returns S's bytes; fails the test on errors.
std::vector<u8> compile_body(std::string_view body) {
  const CommandSet commands = default_commands();
  text::Diagnostics diag;
  auto lib = compile_text(fmt::format("SCRIPT(\"S\") {{ {} }}", body), commands, diag);
  EXPECT_TRUE(lib.has_value()) << diag.render();
  return lib ? code_of(*lib, "S") : std::vector<u8>{};
}

// Compiles `source` and expects it to fail with an error whose message contains `message` at
// `line`:`column` (0 = any).
void expect_error(std::string_view source, std::string_view message, u32 line = 0, u32 column = 0) {
  SCOPED_TRACE(std::string(source));
  CommandSet commands = default_commands();
  testing::ProbeLog log;
  commands = testing::probe_commands(log);
  text::Diagnostics diag;
  auto lib = compile_text(source, commands, diag);
  EXPECT_FALSE(lib.has_value());
  ASSERT_TRUE(diag.has_errors());
  bool found = false;
  for (const text::Diagnostic& d : diag.items()) {
    if (d.severity != text::Severity::kError) continue;
    if (d.error.message().find(message) == std::string::npos) continue;
    if (line != 0 && d.error.where().line != line) continue;
    if (column != 0 && d.error.where().column != column) continue;
    EXPECT_EQ(d.error.where().file, "test.script");
    found = true;
  }
  EXPECT_TRUE(found) << "expected \"" << message << "\" at " << line << ":" << column << ", got:\n"
                     << diag.render();
}

TEST(ScriptCompiler, Check19_Break) {
  EXPECT_THAT(compile_body("BREAK();"), ElementsAre(0x01, 0x00, 0x04, 0x00));
}

TEST(ScriptCompiler, Check20_PauseInt) {
  const std::vector<u8> pause = compile_body("PAUSE(5);");
  EXPECT_THAT(pause, ElementsAre(0x02, 0x00, 0x08, 0x00, 0x05, 0x00, 0x00, 0x00));
  EXPECT_EQ(compile_body("PAUSEFRAMES(5);"), pause);
  EXPECT_EQ(compile_body("pauseframes(5);"), pause);  // command names are case-insensitive
}

TEST(ScriptCompiler, Check21_PauseVar) {
  EXPECT_EQ(string_hash("health"), 0x5C3B3DAEu);
  text::Token health;
  health.text = "health";
  EXPECT_EQ(health.hash(), 0x5C3B3DAEu);
  EXPECT_THAT(compile_body("PAUSE(health);"),
              ElementsAre(0x03, 0x00, 0x08, 0x00, 0xAE, 0x3D, 0x3B, 0x5C));
}

TEST(ScriptCompiler, Check22_ChangeScriptAndCallScript) {
  const Hash runaway = string_hash("RUNAWAY");
  EXPECT_EQ(runaway, 0xE8372B85u);  // spec section 0: the non-folding HASH("RUNAWAY")
  std::vector<u8> change{0x07, 0x00, 0x08, 0x00};
  for (u8 b : le32(runaway)) change.push_back(b);
  std::vector<u8> call = change;
  call[0] = 0x08;
  const CommandSet commands = default_commands();
  text::Diagnostics diag;
  auto lib = compile_text(
      "SCRIPT(\"A\") { CHANGESCRIPT(\"RUNAWAY\"); } SCRIPT(\"B\") { CALLSCRIPT(\"RUNAWAY\"); }"
      "SCRIPT(\"RUNAWAY\") { }",
      commands, diag);
  ASSERT_TRUE(lib) << diag.render();
  EXPECT_EQ(code_of(*lib, "A"), change);
  EXPECT_EQ(code_of(*lib, "B"), call);
}

TEST(ScriptCompiler, Check23_IfTable46) {
  // The spec's byte dump: 06 00 18 00  02 01 00 10  AE 3D 3B 5C  32 00 00 00  02 00 08 00 ...
  EXPECT_THAT(
      compile_body("IF(health, lessthan, 50) PAUSE(5);"),
      ElementsAreArray({0x06, 0x00, 0x18, 0x00, 0x02, 0x01, 0x00, 0x10, 0xAE, 0x3D, 0x3B, 0x5C,
                        0x32, 0x00, 0x00, 0x00, 0x02, 0x00, 0x08, 0x00, 0x05, 0x00, 0x00, 0x00}));
  // The braced form gives the same bytes (the same tree).
  EXPECT_EQ(compile_body("IF(health, lessthan, 50) { PAUSE(5); }"),
            compile_body("IF(health, lessthan, 50) PAUSE(5);"));
}

TEST(ScriptCompiler, Check24_IfWithBlockAndOperandTypes) {
  const std::vector<u8> block = compile_body("IF(health, lessthan, 50) { PAUSE(5); BREAK(); }");
  ASSERT_EQ(block.size(), 28u);
  EXPECT_EQ(block[2] | (block[3] << 8), 28);
  EXPECT_EQ(block[7], 16);
  EXPECT_THAT(std::vector<u8>(block.begin() + 24, block.end()), ElementsAre(1, 0, 4, 0));

  const std::vector<u8> types = compile_body("IF(5, EQUALS, x) BREAK();");
  ASSERT_EQ(types.size(), 20u);
  EXPECT_EQ(types[4], static_cast<u8>(Comparator::kEqual));
  EXPECT_EQ(types[5], kParamInt);
  EXPECT_EQ(types[6], kParamVar);
  EXPECT_THAT(std::vector<u8>(types.begin() + 8, types.begin() + 12), ElementsAre(5, 0, 0, 0));
  EXPECT_EQ(std::vector<u8>(types.begin() + 12, types.begin() + 16), le32(string_hash("x")));

  // Every comparator, any case; an empty block is an IF of 16 bytes.
  const std::pair<const char*, Comparator> names[] = {
      {"equals", Comparator::kEqual},        {"NOTEQUAL", Comparator::kNotEqual},
      {"LessThan", Comparator::kLess},       {"lessequal", Comparator::kLessEqual},
      {"GREATERTHAN", Comparator::kGreater}, {"greaterequal", Comparator::kGreaterEqual},
      {"ne", Comparator::kNotEqual},         {"GE", Comparator::kGreaterEqual}};
  for (const auto& [name, value] : names) {
    const std::vector<u8> code = compile_body(fmt::format("IF(a, {}, 1) {{ }}", name));
    ASSERT_EQ(code.size(), 16u) << name;
    EXPECT_EQ(code[4], static_cast<u8>(value)) << name;
  }
  // Nested IFs: each length covers its block.
  const std::vector<u8> nested = compile_body("IF(a, LT, 1) { IF(b, GT, 2) BREAK(); BREAK(); }");
  ASSERT_EQ(nested.size(), 16u + 20u + 4u);
  EXPECT_EQ(nested[2], 40);
  EXPECT_EQ(nested[16 + 2], 20);
}

TEST(ScriptCompiler, Check25_FractionalFramesTruncate) {
  EXPECT_THAT(compile_body("PAUSE(2.7);"), ElementsAre(0x02, 0x00, 0x08, 0x00, 2, 0, 0, 0));
  EXPECT_THAT(compile_body("PAUSE(-2.7);"),
              ElementsAre(0x02, 0x00, 0x08, 0x00, 0xFE, 0xFF, 0xFF, 0xFF));
  // IF operands truncate too.
  const std::vector<u8> code = compile_body("IF(a, LT, 9.9) { }");
  EXPECT_EQ(code[12], 9);
  // PAUSESECONDS keeps the fraction (an f32).
  const std::vector<u8> seconds = compile_body("PAUSESECONDS(0.5);");
  EXPECT_THAT(seconds, ElementsAre(0x04, 0x00, 0x08, 0x00, 0x00, 0x00, 0x00, 0x3F));
  EXPECT_THAT(compile_body("PAUSESECONDS(delay);"), ::testing::BeginEndDistanceIs(8));
  EXPECT_EQ(compile_body("PAUSESECONDS(delay);")[0], 0x05);  // PAUSESECONDS with a variable
}

TEST(ScriptCompiler, Check26_CompileErrors) {
  expect_error("SCRIPT(\"S\") {\n BREAK(1);\n}", "`BREAK` expects 0 parameters, got 1", 2, 2);
  expect_error("SCRIPT(\"S\") {\n BREAK() PAUSE(1);\n}", "`BREAK` does not take a conditional", 2,
               10);
  expect_error("SCRIPT(\"S\") {\n PAUSE();\n}", "`PAUSE` expects 1 parameter, got 0", 2, 2);
  expect_error("SCRIPT(\"S\") {\n PAUSE(1,2);\n}", "`PAUSE` expects 1 parameter, got 2", 2, 2);
  expect_error("SCRIPT(\"S\") {\n PAUSE(\"x\");\n}",
               "`PAUSE` expects a name or a number as parameter 1, got a string", 2, 8);
  expect_error("SCRIPT(\"S\") {\n CHANGESCRIPT(RUNAWAY);\n}",
               "`CHANGESCRIPT` expects a string as parameter 1, got a name", 2, 15);
  expect_error("SCRIPT(\"S\") {\n PAUSE(5) BREAK();\n}", "`PAUSE` does not take a conditional", 2,
               11);
  expect_error("SCRIPT(\"S\") {\n IF(a, BOGUS, 1) BREAK();\n}", "unknown comparator `BOGUS`", 2, 8);
  // More of section 3.7: IF needs a conditional, unknown commands, wrong IF operand types.
  expect_error("SCRIPT(\"S\") {\n IF(a, LT, 1);\n}", "must be followed by a command or a { } block",
               2, 2);
  expect_error("SCRIPT(\"S\") {\n PAWSE(1);\n}", "unknown command `PAWSE`; did you mean `PAUSE`?",
               2, 2);
  expect_error("SCRIPT(\"S\") {\n IF(\"a\", LT, 1) BREAK();\n}",
               "`IF` expects a name or a number as parameter 1, got a string", 2, 5);
  expect_error("SCRIPT(\"S\") {\n PAUSESECONDS('x');\n}",
               "`PAUSESECONDS` expects a name or a number", 2, 15);
  // Errors inside an IF block are found too, and several errors are reported in one run.
  text::Diagnostics diag;
  const CommandSet commands = default_commands();
  EXPECT_FALSE(
      compile_text("SCRIPT(\"S\") {\n IF(a, LT, 1) { BREAK(2); }\n PAUSE();\n}", commands, diag));
  EXPECT_EQ(diag.error_count(), 2u) << diag.render();
}

TEST(ScriptCompiler, Check27_ScriptPlacement) {
  expect_error("SCRIPT(Example1){}", "`SCRIPT` expects a string as parameter 1, got a name", 1, 8);
  expect_error("SCRIPT(\"A\"){\n SCRIPT(\"B\"){}\n}", "SCRIPT cannot be inside another script", 2,
               2);
  expect_error("PAUSE(1);", "`PAUSE` is outside any SCRIPT", 1, 1);
  expect_error("SCRIPT(\"A\") BREAK();", "must be followed by a { } block", 1, 13);
  expect_error("SCRIPT(\"A\") {}\nSCRIPT(\"A\") {}", "script \"A\" is defined twice", 2, 8);
  expect_error("Texture(\"face\") { Size(1); }", "`Texture` is not a script statement", 1, 1);

  const CommandSet commands = default_commands();
  text::Diagnostics diag;
  auto lib = compile_text("SCRIPT(\"Example1\")\n{\n  // comments only\n}\n", commands, diag);
  ASSERT_TRUE(lib) << diag.render();
  ASSERT_EQ(lib->size(), 1u);
  EXPECT_EQ(lib->scripts()[0].name, "Example1");
  EXPECT_EQ(lib->scripts()[0].name_hash, string_hash("Example1"));
  EXPECT_TRUE(lib->scripts()[0].code.empty());

  // Scripts may live in a file that defines other resources when the caller skips those.
  text::Diagnostics diag2;
  auto mixed = compile_text("Texture(\"face\") { SIZE(512, 512); }\nSCRIPT(\"S\") { BREAK(); }",
                            commands, diag2, {.skip_other_statements = true});
  ASSERT_TRUE(mixed) << diag2.render();
  EXPECT_EQ(mixed->size(), 1u);
  EXPECT_THAT(code_of(*mixed, "S"), ElementsAre(1, 0, 4, 0));
}

TEST(ScriptCompiler, Check28_EveryLengthAlignedAndAtLeastFour) {
  testing::ProbeLog log;
  const CommandSet commands = testing::probe_commands(log);
  text::Diagnostics diag;
  auto lib = compile_text(R"(
    SCRIPT("everything") {
      BREAK(); PAUSE(3); PAUSE(n); PAUSEFRAMES(2); PAUSESECONDS(1.5); PAUSESECONDS(s);
      IF(a, EQUALS, 1) { IF(b, GE, c) { SET(x, 1); } ADD(y, z); PRINT("hi"); }
      IF(1, NE, 2) { }
      CALLSCRIPT("other"); CHANGESCRIPT("other"); P1();
    }
    SCRIPT("other") { })",
                          commands, diag);
  ASSERT_TRUE(lib) << diag.render();
  for (const Script& s : lib->scripts()) {
    EXPECT_TRUE(validate_stream(s.code)) << s.name;
    // Walk every command, nested ones included.
    std::vector<u32> ends{static_cast<u32>(s.code.size())};
    u32 pc = 0;
    int commands_seen = 0;
    while (true) {
      while (!ends.empty() && pc == ends.back()) ends.pop_back();
      if (ends.empty()) break;
      const u32 length = read_u16(s.code.data() + pc + 2);
      EXPECT_EQ(length % 4, 0u);
      EXPECT_GE(length, 4u);
      ++commands_seen;
      if (read_u16(s.code.data() + pc) == 0x0006) {  // IF
        ends.push_back(pc + length);
        pc += 16;
      } else {
        pc += length;
      }
    }
    if (s.name == "everything") {
      EXPECT_EQ(commands_seen, 15);
    }
  }
}

TEST(ScriptCompiler, SetAndAddHaveOneOpcodePerOperandType) {
  std::vector<u8> expected;
  const auto command = [&](u8 op, std::string_view var, u32 operand) {
    for (u8 b : {op, u8{0}, u8{12}, u8{0}}) expected.push_back(b);
    for (u8 b : le32(string_hash(var))) expected.push_back(b);
    for (u8 b : le32(operand)) expected.push_back(b);
  };
  command(0x09, "x", 5);
  command(0x0A, "x", string_hash("y"));
  command(0x0B, "x", static_cast<u32>(-1));
  command(0x0C, "x", string_hash("y"));
  command(0x0B, "x", 2);  // 2.9 truncated
  EXPECT_EQ(compile_body("SET(x, 5); SET(x, y); ADD(x, -1); ADD(x, y); ADD(x, 2.9);"), expected);
  expect_error("SCRIPT(\"S\") {\n SET(5, x);\n}",
               "`SET` expects a name as parameter 1, got a number", 2, 6);
  expect_error("SCRIPT(\"S\") {\n ADD(x);\n}", "`ADD` expects 2 parameters, got 1", 2, 2);
}

TEST(ScriptCompiler, GameCommandsAreCheckedAndEncoded) {
  CommandSet commands = default_commands();
  auto noop = [](Call&) { return Outcome::kNext; };
  ASSERT_TRUE(commands.add({.name = "ATTACK",
                            .opcode = 0x0300,
                            .params = {{ParamType::kString, {}},
                                       {ParamType::kValue, {}},
                                       {ParamType::kFloat, 1.5},
                                       {ParamType::kInt, 7}},
                            .handler = noop}));
  ASSERT_TRUE(commands.add({.name = "NEAR",
                            .opcode = 0x0301,
                            .params = {{ParamType::kInt, {}}},
                            .conditional = Conditional::kAllowed,
                            .handler = noop}));
  text::Diagnostics diag;
  auto lib = compile_text(
      "SCRIPT(\"S\") { ATTACK(\"player\", damage); ATTACK('x', 3, 0.25, 2.9); NEAR(5) BREAK(); "
      "NEAR(1); }",
      commands, diag);
  ASSERT_TRUE(lib) << diag.render();
  std::vector<u8> expected{0x00, 0x03, 24, 0, 0x02, 0, 0, 0};  // opcode, length, kinds: param 1
  for (u8 b : le32(string_hash("player"))) expected.push_back(b);
  for (u8 b : le32(string_hash("damage"))) expected.push_back(b);
  for (u8 b : le32(0x3FC00000)) expected.push_back(b);  // 1.5f default
  for (u8 b : le32(7)) expected.push_back(b);           // default
  const std::vector<u8> second{0x00, 0x03, 24, 0, 0, 0, 0, 0};
  expected.insert(expected.end(), second.begin(), second.end());
  for (u8 b : le32(string_hash("x"))) expected.push_back(b);
  for (u8 b : le32(3)) expected.push_back(b);
  for (u8 b : le32(0x3E800000)) expected.push_back(b);  // 0.25f
  for (u8 b : le32(2)) expected.push_back(b);           // 2.9 truncated
  for (u8 b : {0x01, 0x03, 12, 0, 5, 0, 0, 0, 1, 0, 4, 0}) expected.push_back(b);
  for (u8 b : {0x01, 0x03, 8, 0, 1, 0, 0, 0}) expected.push_back(b);
  EXPECT_EQ(code_of(*lib, "S"), expected);
  EXPECT_EQ(lib->symbol(string_hash("player")), "player");
  EXPECT_EQ(lib->symbol(string_hash("damage")), "damage");

  expect_error("SCRIPT(\"S\") {\n P1(1);\n}", "`P1` expects 0 parameters, got 1", 2, 2);
  text::Diagnostics diag2;
  EXPECT_FALSE(compile_text("SCRIPT(\"S\") {\n ATTACK(1, 2);\n}", commands, diag2));
  EXPECT_THAT(diag2.render(), HasSubstr("`ATTACK` expects a string as parameter 1, got a number"));
  text::Diagnostics diag3;
  EXPECT_FALSE(compile_text("SCRIPT(\"S\") {\n ATTACK();\n}", commands, diag3));
  EXPECT_THAT(diag3.render(), HasSubstr("`ATTACK` expects 2 to 4 parameters, got 0"));
}

TEST(ScriptCompiler, CommandSetRejectsBadDefinitions) {
  CommandSet commands = default_commands();
  auto noop = [](Call&) { return Outcome::kNext; };
  EXPECT_FALSE(commands.add({.name = "LOW", .opcode = 0x0050, .handler = noop}));
  EXPECT_FALSE(commands.add({.name = "pause", .opcode = 0x0400, .handler = noop}));
  EXPECT_FALSE(commands.add({.name = "NOHANDLER", .opcode = 0x0400}));
  ASSERT_TRUE(commands.add({.name = "ONE", .opcode = 0x0400, .handler = noop}));
  EXPECT_FALSE(commands.add({.name = "TWO", .opcode = 0x0400, .handler = noop}));
  EXPECT_FALSE(commands.add({.name = "GAP",
                             .opcode = 0x0401,
                             .params = {{ParamType::kInt, 1}, {ParamType::kInt, {}}},
                             .handler = noop}));
  EXPECT_EQ(commands.find("one")->opcode, 0x0400);
  EXPECT_EQ(commands.find(Opcode{0x0400})->name, "ONE");
  EXPECT_EQ(commands.find(Opcode{0x0003})->name, "PAUSE");  // PAUSE with a variable
  EXPECT_EQ(commands.suggest("CHANGESCRPT"), "CHANGESCRIPT");
  EXPECT_EQ(commands.suggest("XYZZY"), "");
}

TEST(ScriptCompiler, WarnsAboutUnknownTargetsAndUselessPauses) {
  const CommandSet commands = default_commands();
  text::Diagnostics diag;
  auto lib =
      compile_text("SCRIPT(\"S\") {\n CHANGESCRIPT(\"Elsewhere\");\n PAUSE(0);\n}", commands, diag);
  ASSERT_TRUE(lib) << diag.render();
  EXPECT_EQ(diag.warning_count(), 2u);
  EXPECT_THAT(diag.render(), HasSubstr("no script named \"Elsewhere\" in this file"));
  EXPECT_THAT(diag.render(), HasSubstr("PAUSE(0) does not wait"));
}

TEST(ScriptCompiler, LineTableAndSourceLines) {
  const CommandSet commands = default_commands();
  text::Diagnostics diag;
  auto lib = compile_text("SCRIPT(\"S\")\n{\n  BREAK();\n  IF(a, LT, 1)\n    PAUSE(2);\n}\n",
                          commands, diag);
  ASSERT_TRUE(lib) << diag.render();
  const Script& s = lib->scripts()[0];
  EXPECT_EQ(s.file, "test.script");
  ASSERT_EQ(s.lines.size(), 3u);
  EXPECT_EQ(s.lines[0].offset, 0u);
  EXPECT_EQ(s.lines[0].line, 3u);
  EXPECT_EQ(s.lines[0].column, 3u);
  EXPECT_EQ(s.lines[1].offset, 4u);
  EXPECT_EQ(s.lines[1].line, 4u);
  EXPECT_EQ(s.lines[2].offset, 20u);
  EXPECT_EQ(s.lines[2].line, 5u);
  EXPECT_EQ(s.line_at(22)->line, 5u);
  EXPECT_EQ(lib->source_line("test.script", 4), "  IF(a, LT, 1)");

  text::Diagnostics diag2;
  auto bare = compile_text("SCRIPT(\"S\") { BREAK(); }", commands, diag2, {.debug_info = false});
  ASSERT_TRUE(bare);
  EXPECT_FALSE(bare->has_debug_info());
}

TEST(ScriptCompiler, CompileOneTakesExactlyOneScriptStatement) {
  const CommandSet commands = default_commands();
  text::Diagnostics diag;
  auto doc = text::parse("Texture(\"x\") { }\nSCRIPT(\"B\") { PAUSE(2); }", "f.txt", diag);
  ASSERT_TRUE(doc);
  const text::Token* texture = doc->first();
  const text::Token* script = texture->next;
  auto lib = compile_one(*script, commands, diag);
  ASSERT_TRUE(lib) << diag.render();
  EXPECT_THAT(code_of(*lib, "B"), ElementsAre(2, 0, 8, 0, 2, 0, 0, 0));
  EXPECT_FALSE(compile_one(*texture, commands, diag));
  EXPECT_THAT(diag.render(), HasSubstr("expected a SCRIPT(\"name\") { } statement"));
}

}  // namespace
}  // namespace keel::script

namespace keel::script {
namespace {

TEST(EntryPoints, CompileWithoutBuiltinsReportsScriptUnknown) {
  const CommandSet empty;  // default-constructed: no SCRIPT, no built-ins
  text::Diagnostics diag;
  const auto lib = testing::compile_text("SCRIPT(\"s\") { BREAK(); }", empty, diag);
  EXPECT_FALSE(lib);
  EXPECT_THAT(diag.render(), ::testing::HasSubstr("`SCRIPT` is unknown"));
  // A game command named SCRIPT does not pass for the built-in.
  CommandSet impostor;
  ASSERT_TRUE(impostor.add(
      {.name = "SCRIPT", .opcode = 0x0100, .handler = [](Call&) { return Outcome::kNext; }}));
  text::Diagnostics diag2;
  EXPECT_FALSE(testing::compile_text("SCRIPT(\"s\") { }", impostor, diag2));
  EXPECT_THAT(diag2.render(), ::testing::HasSubstr("`SCRIPT` is unknown"));
}

TEST(EntryPoints, CompilerAndDisassemblerEmptyInputs) {
  text::Diagnostics diag;
  const auto none = compile(nullptr, default_commands(), diag);  // an empty file
  ASSERT_TRUE(none);
  EXPECT_TRUE(none->empty());
  // The disassembler with an empty command set and cut-off commands.
  const CommandSet empty;
  EXPECT_EQ(format_command({}, empty, nullptr), "(cut off)");
  const keel::ByteBuffer pause =
      testing::to_code({0x02, 0x00, 0x04, 0x00});  // PAUSE without operand
  EXPECT_EQ(format_command(pause, empty, nullptr), "PAUSE (cut off)");
  Library lib;
  ASSERT_TRUE(lib.add_script(Script{string_hash("s"), "s", pause, {}, {}}));
  EXPECT_THAT(disassemble(lib, empty), ::testing::HasSubstr("PAUSE (cut off)"));
}

}  // namespace
}  // namespace keel::script
