// The script library container: lookup, merge, bytes round trip and full validation on load.
#include "keel/script/library.h"

#include "keel/core/hash.h"
#include "keel/script/bytecode.h"
#include "keel/script/testing/script_testing.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <random>

namespace keel::script {
namespace {

using testing::compile_text;
using ::testing::HasSubstr;

Library sample(bool debug = true) {
  testing::ProbeLog log;
  const CommandSet commands = testing::probe_commands(log);
  text::Diagnostics diag;
  auto lib = compile_text(R"(// sample
SCRIPT("guard") {
  IF(health, lessthan, 50) { CHANGESCRIPT("RUNAWAY"); }
  PRINT("on patrol");
  PAUSE(5);
}
SCRIPT("RUNAWAY") {
  ADD(fear, 1);
  PAUSESECONDS(0.5);
  CALLSCRIPT("guard");
})",
                          commands, diag, {.debug_info = debug});
  EXPECT_TRUE(lib) << diag.render();
  return lib ? std::move(*lib) : Library{};
}

void expect_same(const Library& a, const Library& b) {
  ASSERT_EQ(a.size(), b.size());
  for (usize i = 0; i < a.size(); ++i) {
    const Script& x = a.scripts()[i];
    const Script& y = b.scripts()[i];
    EXPECT_EQ(x.name_hash, y.name_hash);
    EXPECT_EQ(x.name, y.name);
    EXPECT_EQ(x.code, y.code);
    EXPECT_EQ(x.file, y.file);
    ASSERT_EQ(x.lines.size(), y.lines.size());
    for (usize j = 0; j < x.lines.size(); ++j) {
      EXPECT_EQ(x.lines[j].offset, y.lines[j].offset);
      EXPECT_EQ(x.lines[j].line, y.lines[j].line);
      EXPECT_EQ(x.lines[j].column, y.lines[j].column);
    }
  }
}

TEST(ScriptLibrary, FindAndSymbols) {
  const Library lib = sample();
  ASSERT_EQ(lib.size(), 2u);
  EXPECT_EQ(lib.scripts()[0].name, "guard");  // source order
  EXPECT_EQ(lib.find("RUNAWAY"), &lib.scripts()[1]);
  EXPECT_EQ(lib.find(string_hash("runaway")), nullptr);  // names are case-sensitive
  EXPECT_EQ(lib.index_of(string_hash("guard")), 0);
  EXPECT_EQ(lib.symbol(string_hash("health")), "health");
  EXPECT_EQ(lib.symbol(string_hash("on patrol")), "on patrol");
  EXPECT_FALSE(lib.symbol(12345));
  EXPECT_EQ(lib.source_line("test.script", 4), "  PRINT(\"on patrol\");");
  EXPECT_EQ(lib.source_line("test.script", 99), "");
}

TEST(ScriptLibrary, BytesRoundTrip) {
  for (bool debug : {true, false}) {
    SCOPED_TRACE(debug);
    const Library lib = sample(debug);
    const std::vector<std::byte> bytes = lib.to_bytes();
    EXPECT_EQ(bytes.size() % 4, 0u);
    EXPECT_EQ(read_u32(bytes.data()), kLibraryMagic);
    EXPECT_EQ(static_cast<char>(bytes[0]), 'K');
    EXPECT_EQ(static_cast<char>(bytes[3]), 'R');
    auto back = Library::from_bytes(bytes, "sample.ksc");
    ASSERT_TRUE(back) << back.error().to_string();
    expect_same(lib, *back);
    EXPECT_EQ(back->has_debug_info(), debug);
    EXPECT_EQ(back->symbol(string_hash("fear")), "fear");
    if (debug) {
      EXPECT_EQ(back->source_line("test.script", 9), "  PAUSESECONDS(0.5);");
    }
    EXPECT_EQ(back->to_bytes(), bytes);  // stable
  }
  Library empty;
  auto back = Library::from_bytes(empty.to_bytes());
  ASSERT_TRUE(back);
  EXPECT_TRUE(back->empty());
}

TEST(ScriptLibrary, FromBytesRejectsEveryTruncation) {
  const std::vector<std::byte> bytes = sample().to_bytes();
  for (usize n = 0; n < bytes.size(); ++n) {
    auto r = Library::from_bytes(std::span(bytes).first(n), "cut.ksc");
    ASSERT_FALSE(r) << n;
    EXPECT_THAT(r.error().to_string(), HasSubstr("cut.ksc")) << n;
  }
}

TEST(ScriptLibrary, FromBytesRejectsCorruption) {
  const std::vector<std::byte> good = sample().to_bytes();
  auto patched = [&](usize offset, u32 value) {
    std::vector<std::byte> b = good;
    write_u32(b.data() + offset, value);
    return Library::from_bytes(b, "bad.ksc");
  };
  auto bad_magic = patched(0, 0x12345678);
  ASSERT_FALSE(bad_magic);
  EXPECT_THAT(bad_magic.error().to_string(),
              HasSubstr("bad.ksc: byte 0: error: not a script library"));
  auto version = patched(4, 2 | (1u << 16));
  ASSERT_FALSE(version);
  EXPECT_EQ(version.error().code(), ErrorCode::kUnsupported);
  EXPECT_FALSE(patched(8, 1000));                     // script count
  EXPECT_FALSE(patched(12, 1000));                    // symbol count
  EXPECT_FALSE(patched(16, 3));                       // symbols offset unaligned
  EXPECT_FALSE(patched(24, 8));                       // file size
  EXPECT_FALSE(patched(32, string_hash("RUNAWAY")));  // duplicate script name hash
  EXPECT_FALSE(patched(36, 2));                       // code offset unaligned
  EXPECT_FALSE(patched(40, 6));                       // code size not a multiple of 4
  // A command length inside the code.
  const u32 code_offset = read_u32(good.data() + 36);
  std::vector<std::byte> b = good;
  write_u16(b.data() + code_offset + 2, 0x00FC);
  auto length = Library::from_bytes(b, "bad.ksc");
  ASSERT_FALSE(length);
  EXPECT_EQ(length.error().code(), ErrorCode::kCorrupt);
  EXPECT_EQ(length.error().where().offset, code_offset);
  EXPECT_THAT(length.error().message(), HasSubstr("runs past the end"));
  // A symbol whose text does not match its hash.
  const u32 symbols = read_u32(good.data() + 16);
  b = good;
  b[symbols + 8] = static_cast<std::byte>(static_cast<u8>(b[symbols + 8]) ^ 1);
  auto symbol = Library::from_bytes(b, "bad.ksc");
  ASSERT_FALSE(symbol);
  EXPECT_THAT(symbol.error().message(), HasSubstr("does not match its hash"));

  // Random single-byte damage: never a crash; either an error or a library that validates.
  std::mt19937 rng(7);
  for (int i = 0; i < 3000; ++i) {
    std::vector<std::byte> d = good;
    const usize at = rng() % d.size();
    d[at] = static_cast<std::byte>(rng());
    if (auto r = Library::from_bytes(d)) {
      for (const Script& s : r->scripts()) EXPECT_TRUE(validate_stream(s.code));
    }
  }
}

TEST(ScriptLibrary, ValidateStream) {
  using testing::to_code;
  EXPECT_TRUE(validate_stream({}));
  EXPECT_TRUE(validate_stream(to_code({1, 0, 4, 0, 2, 0, 8, 0, 5, 0, 0, 0})));
  // An IF whose block holds a command that crosses the IF's end.
  const auto crossing =
      to_code({6, 0, 20, 0, 0, 0, 0, 16, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 8, 0, 5, 0, 0, 0});
  auto r = validate_stream(crossing);
  ASSERT_FALSE(r);
  EXPECT_THAT(r.error().message(), HasSubstr("IF block"));
  EXPECT_EQ(r.error().where().offset, 16u);
  EXPECT_FALSE(validate_stream(to_code({1, 0, 8, 0, 0, 0, 0, 0})));       // BREAK of 8 bytes
  EXPECT_TRUE(validate_stream(to_code({0xFF, 0xFF, 8, 0, 1, 2, 3, 4})));  // unknown: opaque

  // With the command set, game commands are checked too, their conditional blocks included.
  CommandSet commands = default_commands();
  ASSERT_TRUE(commands.add({.name = "NEAR",
                            .opcode = 0x0300,
                            .params = {{ParamType::kInt, {}}},
                            .conditional = Conditional::kAllowed,
                            .handler = [](Call&) { return Outcome::kNext; }}));
  const auto near_block = to_code({0x00, 0x03, 12, 0, 5, 0, 0, 0, 1, 0, 4, 0});
  EXPECT_TRUE(validate_stream(near_block, &commands));
  const auto near_short = to_code({0x00, 0x03, 4, 0});
  EXPECT_TRUE(validate_stream(near_short));  // opaque without the command set
  EXPECT_FALSE(validate_stream(near_short, &commands));
  const auto near_crossing = to_code({0x00, 0x03, 12, 0, 5, 0, 0, 0, 1, 0, 8, 0, 0, 0, 0, 0});
  auto crossing_game = validate_stream(near_crossing, &commands);
  ASSERT_FALSE(crossing_game);
  EXPECT_EQ(crossing_game.error().where().offset, 8u);
}

TEST(ScriptLibrary, MergeAndStrip) {
  Library a = sample();
  Library b;
  ASSERT_TRUE(
      b.add_script(Script{string_hash("extra"), "extra", testing::to_code({1, 0, 4, 0}), {}, {}}));
  ASSERT_TRUE(a.merge(b));
  EXPECT_EQ(a.size(), 3u);
  EXPECT_EQ(a.find("extra")->code.size(), 4u);
  EXPECT_FALSE(a.merge(b));  // "extra" twice
  EXPECT_FALSE(a.add_script(Script{string_hash("guard"), "guard", {}, {}, {}}));
  EXPECT_FALSE(a.add_script(Script{123, "named", {}, {}, {}}));  // hash is not the name's
  EXPECT_TRUE(a.has_debug_info());
  a.strip_debug_info();
  EXPECT_FALSE(a.has_debug_info());
  EXPECT_TRUE(a.find("guard")->lines.empty());
  auto back = Library::from_bytes(a.to_bytes());
  ASSERT_TRUE(back);
  EXPECT_FALSE(back->has_debug_info());
  EXPECT_EQ(back->symbol(string_hash("on patrol")), "on patrol");  // data strings stay
}

}  // namespace
}  // namespace keel::script
