#include "keel/text/diagnostics.h"

#include "keel/text/document.h"
#include "keel/text/signature.h"

#include <gtest/gtest.h>

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
