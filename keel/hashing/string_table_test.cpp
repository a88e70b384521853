#include "keel/hashing/string_table.h"

#include "keel/core/file.h"
#include "keel/hashing/text_lines.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <string>

namespace keel::hashing {
namespace {

using namespace keel::literals;

std::filesystem::path table_scratch(const std::string& test) {
  auto dir = std::filesystem::path(KEEL_TEST_TMPDIR) / "string_table" / test;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

// C3-14: keys + language file, lookup by key hash, the key itself when missing, language switch,
// lookups after the key text is gone.
TEST(StringTable, C3_14_Localization) {
  const auto dir = table_scratch("c3_14");
  ASSERT_TRUE(write_file_atomic(dir / "keys.txt", std::string_view("TITLE\nSTART\n")));
  ASSERT_TRUE(write_file_atomic(dir / "english.txt", std::string_view("My Game\nPress Start\n")));
  ASSERT_TRUE(
      write_file_atomic(dir / "french.txt", std::string_view("Mon Jeu\nAppuyez sur Start\n")));

  Result<StringTable> table = StringTable::load(dir / "keys.txt", dir / "english.txt");
  ASSERT_TRUE(table) << table.error().to_string();
  EXPECT_EQ(table->size(), 2u);
  EXPECT_EQ(table->find("START"), "Press Start");
  EXPECT_EQ(table->find("TITLE"), "My Game");
  EXPECT_EQ(table->find("MISSING"), "MISSING");  // the key itself, never null
  EXPECT_EQ(table->find("start"), "start");      // keys are case-sensitive
  ASSERT_NE(table->find_text("TITLE"_id), nullptr);
  EXPECT_EQ(*table->find_text("TITLE"_id), "My Game");
  EXPECT_EQ(table->find_text("MISSING"_id), nullptr);

  ASSERT_TRUE(table->load_language(dir / "french.txt"));
  EXPECT_EQ(table->find("START"), "Appuyez sur Start");
  EXPECT_EQ(table->find("TITLE"), "Mon Jeu");
  EXPECT_EQ(table->language(), (dir / "french.txt").string());

  // The key text is freed after parsing; lookups hash the caller's key.
  auto keys = std::make_unique<std::string>("TITLE\nSTART\n");
  auto texts = std::make_unique<std::string>("My Game\nPress Start\n");
  Result<StringTable> from_memory = StringTable::parse(*keys, "keys", *texts, "english");
  ASSERT_TRUE(from_memory);
  keys.reset();
  texts.reset();
  EXPECT_EQ(from_memory->find("START"), "Press Start");
  StringTable moved = std::move(*from_memory);
  EXPECT_EQ(moved.find("TITLE"), "My Game");
}

TEST(StringTable, EscapesBomCrlfAndEmptyTexts) {
  Result<StringTable> t = StringTable::parse("\xEF\xBB\xBFGREETING\r\nEMPTY\r\nPATH", "keys",
                                             "Hello,\\nworld\\t!\n\nC:\\\\games", "en");
  ASSERT_TRUE(t) << t.error().to_string();
  EXPECT_EQ(t->find("GREETING"), "Hello,\nworld\t!");
  EXPECT_EQ(t->find("EMPTY"), "");
  EXPECT_EQ(t->find("PATH"), "C:\\games");
  Result<StringTable> empty = StringTable::parse("", "keys", "", "en");
  ASSERT_TRUE(empty);
  EXPECT_EQ(empty->size(), 0u);
  EXPECT_EQ(empty->find("X"), "X");
}

std::string error_of(std::string_view keys, std::string_view texts) {
  Result<StringTable> t = StringTable::parse(keys, "keys.txt", texts, "en.txt");
  return t ? std::string("ok") : t.error().to_string();
}

TEST(StringTable, ErrorsCarryFileLineColumn) {
  EXPECT_EQ(error_of("A\nB\nC\n", "a\nb\n"),
            "en.txt:3:1: error: missing text: the keys file has 3 keys, this file ends after 2 "
            "lines");
  EXPECT_EQ(error_of("A\n", "a\nb\n"),
            "en.txt:2:1: error: extra line: the keys file has only 1 keys");
  EXPECT_EQ(error_of("A\n\nC\n", "a\nb\nc\n"), "keys.txt:2:1: error: empty key");
  EXPECT_EQ(error_of("A\nBAD KEY\n", "a\nb\n"),
            "keys.txt:2:4: error: keys cannot contain spaces or control characters (byte 0x20)");
  EXPECT_EQ(error_of("A\nB\nA\n", "a\nb\nc\n"),
            "keys.txt:3:1: error: duplicate key 'A' (first on line 1)");
  // "aaaab" and "qaaaa" collide under the case-sensitive rotate-left-7 hash too.
  EXPECT_EQ(string_hash("aaaab"), string_hash("qaaaa"));
  EXPECT_EQ(error_of("aaaab\nqaaaa\n", "x\ny\n"),
            "keys.txt:2:1: error: key 'qaaaa' collides with 'aaaab' (line 1): both hash to "
            "0x1C3870E8; rename one");
  EXPECT_EQ(error_of("A\nB\n", "ok\nbad \\q escape\n"),
            "en.txt:2:5: error: unknown escape '\\q' (known: \\n \\t \\\\)");
  EXPECT_EQ(error_of("A\n", "trailing\\"),
            "en.txt:1:9: error: backslash at the end of the line (write \\\\ for a backslash)");
  EXPECT_EQ(error_of("A\n", std::string_view("a\x01", 2)),
            "en.txt:1:2: error: control character 0x01 in text (use \\n or \\t)");
  EXPECT_EQ(error_of("A\n", "caf\xC3\n"), "en.txt:1:4: error: invalid UTF-8");
  EXPECT_EQ(error_of("K\xE9Y\n", "x\n"), "keys.txt:1:2: error: invalid UTF-8");
  EXPECT_EQ(error_of("A\rB\n", "x\n"), "keys.txt:1:2: error: carriage return inside a line");

  Result<StringTable> missing = StringTable::load("/nonexistent/keys.txt", "/nonexistent/en.txt");
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().code(), ErrorCode::kIo);
}

TEST(StringTable, FailedLanguageSwitchKeepsCurrentTexts) {
  Result<StringTable> t = StringTable::parse("A\nB\n", "keys", "one\ntwo\n", "en");
  ASSERT_TRUE(t);
  Status bad = t->set_language("un\n", "fr");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().where().line, 2u);
  EXPECT_EQ(t->find("B"), "two");
  EXPECT_EQ(t->language(), "en");
  ASSERT_TRUE(t->set_language("un\ndeux\n", "fr"));
  EXPECT_EQ(t->find("B"), "deux");
}

TEST(TextLines, Utf8Validation) {
  EXPECT_EQ(find_invalid_utf8("plain"), std::string_view::npos);
  EXPECT_EQ(find_invalid_utf8("\xC3\xA9t\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80"),
            std::string_view::npos);
  EXPECT_EQ(find_invalid_utf8("ab\xC0\xAF"), 2u);         // overlong '/'
  EXPECT_EQ(find_invalid_utf8("\xED\xA0\x80"), 0u);       // surrogate
  EXPECT_EQ(find_invalid_utf8("x\xF4\x90\x80\x80"), 1u);  // above U+10FFFF
  EXPECT_EQ(find_invalid_utf8("x\xE2\x82"), 1u);          // truncated
  EXPECT_EQ(find_invalid_utf8("\x80"), 0u);               // stray continuation
  auto lines = split_lines("a\r\nb\n\nc", "f");
  ASSERT_TRUE(lines);
  ASSERT_EQ(lines->size(), 4u);
  EXPECT_EQ((*lines)[1].text, "b");
  EXPECT_EQ((*lines)[2].text, "");
  EXPECT_EQ((*lines)[3].number, 4u);
}

}  // namespace
}  // namespace keel::hashing
