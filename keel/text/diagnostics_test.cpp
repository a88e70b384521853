#include "keel/text/diagnostics.h"

#include "keel/text/document.h"
#include "keel/text/signature.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

namespace keel::text {
namespace {

TEST(TextDiagnostics, RenderShowsLineAndCaret) {
  Diagnostics diag;
  auto doc = parse("Texture(\"face\");\n  Texture(5);\n", "data/level1.txt", diag);
  ASSERT_NE(doc, nullptr);
  const Token& second = *doc->first()->next;
  EXPECT_FALSE(check_command(second, diag, {kString}));
  EXPECT_EQ(diag.render(*doc),
            "data/level1.txt:2:11: error: `Texture` expects a string as parameter 1, got a number\n"
            " 2 |   Texture(5);\n"
            "   |           ^\n");
}

TEST(TextDiagnostics, SyntaxErrorRendering) {
  Diagnostics diag;
  const std::string source = "A(1);\nB(1 2);\n";
  EXPECT_EQ(parse(source, "f.txt", diag), nullptr);
  EXPECT_EQ(diag.render(),  // the parser kept the failed file's text for the excerpt
            "f.txt:2:5: error: expected ',' or ')' after '1' in `B`, got a number\n"
            " 2 | B(1 2);\n"
            "   |     ^\n");
}

TEST(TextDiagnostics, CountsAndStatus) {
  Diagnostics diag;
  EXPECT_TRUE(diag.status().has_value());
  diag.warning(SourceLocation::text("a", 1, 1), "careful");
  EXPECT_TRUE(diag.status().has_value());
  EXPECT_FALSE(diag.has_errors());
  diag.error(SourceLocation::text("a", 3, 2), "broken");
  EXPECT_EQ(diag.error_count(), 1u);
  EXPECT_EQ(diag.warning_count(), 1u);
  ASSERT_FALSE(diag.status().has_value());
  EXPECT_EQ(diag.status().error().message(), "broken");
  EXPECT_EQ(diag.render(), "a:1:1: warning: careful\na:3:2: error: broken\n");
  diag.clear();
  EXPECT_TRUE(diag.empty());
}

// Issue 15: 100,000 bad lines printed 100,000 errors (20 MB of stderr).
TEST(TextDiagnostics, ErrorLimitBoundsWhatIsPrinted) {
  Diagnostics diag;
  std::string source;
  for (int i = 0; i < 1000; ++i) source += "X(1);\n";
  auto doc = parse(source, "bad.txt", diag);
  ASSERT_NE(doc, nullptr);
  for (const Token& statement : chain(doc->first())) diag.error(statement, "`X` is unknown");
  diag.warning(SourceLocation::text("bad.txt", 1, 1), "kept: below the warning limit");
  EXPECT_EQ(diag.error_count(), 1000u);
  EXPECT_EQ(diag.warning_count(), 1u);
  EXPECT_TRUE(diag.limit_reached());
  EXPECT_EQ(diag.items().size(), Diagnostics::kDefaultErrorLimit + 1);
  EXPECT_EQ(diag.dropped_count(), 1000u - Diagnostics::kDefaultErrorLimit);
  const std::string out = diag.render(*doc);
  EXPECT_EQ(std::count(out.begin(), out.end(), '\n'),
            3 * 50 + 3 + 1);  // errors, the warning, the note
  EXPECT_NE(out.find("bad.txt:50:1: error"), std::string::npos);
  EXPECT_EQ(out.find("bad.txt:51:1: error"), std::string::npos);
  EXPECT_NE(out.find("note: too many errors: 950 more diagnostics not shown (limit 50)"),
            std::string::npos);
  EXPECT_FALSE(diag.status().has_value());
}

TEST(TextDiagnostics, ErrorLimitIsConfigurable) {
  Diagnostics diag;
  diag.set_error_limit(2);
  for (int i = 1; i <= 5; ++i) diag.error(SourceLocation::text("a", i, 1), "broken");
  EXPECT_EQ(diag.items().size(), 2u);
  EXPECT_EQ(diag.error_count(), 5u);
  diag.clear();
  diag.set_error_limit(0);  // keeps every one
  for (int i = 1; i <= 500; ++i) diag.error(SourceLocation::text("a", i, 1), "broken");
  EXPECT_EQ(diag.items().size(), 500u);
  EXPECT_FALSE(diag.limit_reached());
  EXPECT_EQ(diag.render().find("too many"), std::string::npos);
}

// Issue 15: a 10 MB one-line file printed its whole line (and as long a caret line) per error.
TEST(TextDiagnostics, LongLinesAreCutAroundTheColumn) {
  std::string line(1'000'000, 'a');
  line[500'000] = 'X';
  Diagnostics diag;
  diag.keep_source("long.txt", line + "\n");
  diag.error(SourceLocation::text("long.txt", 1, 500'001), "here");
  diag.error(SourceLocation::text("long.txt", 1, 3), "near the start");
  const std::string out = diag.render();
  EXPECT_LT(out.size(), 1000u);
  const usize x = out.find('X');
  ASSERT_NE(x, std::string::npos);
  const usize caret_line = out.find('\n', x) + 1;
  const usize caret = out.find('^', caret_line);
  ASSERT_NE(caret, std::string::npos);
  EXPECT_EQ(caret - caret_line, x - out.rfind('\n', x) - 1);  // the caret sits under the X
  EXPECT_NE(out.find(" 1 | ..."), std::string::npos);
  EXPECT_NE(out.find("long.txt:1:3: error: near the start\n 1 | aaa"), std::string::npos);
  // A short line prints whole; a cut never splits a UTF-8 sequence.
  std::string utf8;
  for (int i = 0; i < 200; ++i) utf8 += "\xC3\xA9";
  Diagnostics d2;
  d2.keep_source("u.txt", utf8);
  d2.error(SourceLocation::text("u.txt", 1, 202), "mid");
  const std::string u = d2.render();
  const usize bar = u.find(" | ...") + 6;
  EXPECT_EQ(static_cast<unsigned char>(u[bar]), 0xC3u);
}

TEST(TextDiagnostics, LongMessagesAreCut) {
  Diagnostics diag;
  diag.error(SourceLocation::text("a", 1, 1), "`" + std::string(100'000, 'N') + "` is unknown");
  EXPECT_LT(diag.render().size(), kMaxMessage + 100);
}

TEST(TextSignature, CountsTypesAndConditionals) {
  Diagnostics diag;
  auto doc =
      parse("A(\"x\", 1);\nB();\nC(1, 2, 3);\nD(x) E();\nF(1);\nG(a, b, c, 4);\nH(\"s\") { }\n",
            "s.txt", diag);
  ASSERT_NE(doc, nullptr);
  const Token* t = doc->first();
  EXPECT_TRUE(check_command(*t, diag, {kString, kNumber | kName}));
  t = t->next;  // B()
  EXPECT_FALSE(check_command(*t, diag, {kString}));
  EXPECT_EQ(diag.items().back().error.message(), "`B` expects 1 parameter, got 0");
  EXPECT_TRUE(check_command(*t, diag, {kString}, {.min_params = 0}));
  t = t->next;  // C(1,2,3)
  EXPECT_FALSE(check_command(*t, diag, {kNumber, kNumber}, {.min_params = 1}));
  EXPECT_EQ(diag.items().back().error.message(), "`C` expects 1 to 2 parameters, got 3");
  t = t->next;  // D(x) E();
  EXPECT_FALSE(check_command(*t, diag, {kName}));
  EXPECT_EQ(diag.items().back().error.message(),
            "`D` does not take a conditional command or block");
  EXPECT_EQ(diag.items().back().error.where().column, 6u);
  EXPECT_TRUE(check_command(*t, diag, {kName}, {.conditional = Conditional::kAllowed}));
  t = t->next;  // F(1);
  EXPECT_FALSE(check_command(*t, diag, {kNumber}, {.conditional = Conditional::kRequired}));
  t = t->next;  // G(a, b, c, 4)
  EXPECT_FALSE(check_command(*t, diag, {kName}, {.variadic = true}));
  EXPECT_EQ(diag.items().back().error.message(), "`G` expects a name as parameter 4, got a number");
  EXPECT_TRUE(check_command(*t, diag, {kName | kNumber}, {.variadic = true}));
  t = t->next;  // H("s") { } - an empty block still counts as a block
  EXPECT_TRUE(check_command(*t, diag, {kString}, {.conditional = Conditional::kRequired}));
  EXPECT_FALSE(check_command(*t, diag, {kString}));
}

TEST(TextSignature, Describe) {
  EXPECT_EQ(describe(kString), "a string");
  EXPECT_EQ(describe(kName | kNumber), "a name or a number");
  EXPECT_EQ(describe(kAnyParam), "a name, a string or a number");
}

}  // namespace
}  // namespace keel::text
