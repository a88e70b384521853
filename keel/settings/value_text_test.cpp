#include "keel/settings/value_text.h"

#include <gtest/gtest.h>

namespace keel::settings {
namespace {

std::vector<std::string> texts(const Result<std::vector<ValuePiece>>& pieces) {
  std::vector<std::string> out;
  if (pieces) {
    for (const auto& p : *pieces) out.push_back(p.text);
  }
  return out;
}

using Strings = std::vector<std::string>;

TEST(SettingsValueText, SingleValuesKeepInnerSpacesAndUnquote) {
  EXPECT_EQ(*parse_single_value("  Big Level  "), "Big Level");
  EXPECT_EQ(*parse_single_value("say \"hi\""), "say \"hi\"");
  EXPECT_EQ(*parse_single_value("a;b # not a comment"), "a;b # not a comment");
  EXPECT_EQ(*parse_single_value(R"(" padded ")"), " padded ");
  EXPECT_EQ(*parse_single_value(R"("tab\there\nq\"\\ \x41")"), "tab\there\nq\"\\ A");
  EXPECT_EQ(*parse_single_value(""), "");
}

TEST(SettingsValueText, SingleValueErrorsHaveColumns) {
  auto open = parse_single_value(R"(  "abc)");
  ASSERT_FALSE(open);
  EXPECT_EQ(open.error().where().column, 3u);
  auto after = parse_single_value(R"("abc" x)");
  ASSERT_FALSE(after);
  EXPECT_EQ(after.error().where().column, 7u);
  auto escape = parse_single_value(R"("a\qb")");
  ASSERT_FALSE(escape);
  EXPECT_EQ(escape.error().where().column, 3u);
  EXPECT_FALSE(parse_single_value(R"("\x4")"));
  EXPECT_FALSE(parse_single_value(R"("abc\)"));
}

TEST(SettingsValueText, ListsSplitOnUnquotedSemicolons) {
  EXPECT_EQ(texts(parse_list_value("a;b")), (Strings{"a", "b"}));
  EXPECT_EQ(texts(parse_list_value(" a ; b c ;d")), (Strings{"a", "b c", "d"}));
  EXPECT_EQ(texts(parse_list_value(R"("a;b";c)")), (Strings{"a;b", "c"}));
  EXPECT_EQ(texts(parse_list_value(R"("";x)")), (Strings{"", "x"}));
  EXPECT_TRUE(parse_list_value("   ")->empty());
  auto pieces = parse_list_value("ab; cd");
  ASSERT_TRUE(pieces);
  EXPECT_EQ((*pieces)[1].offset, 4u);
}

TEST(SettingsValueText, ListErrors) {
  auto empty = parse_list_value("a;;b");
  ASSERT_FALSE(empty);
  EXPECT_EQ(empty.error().where().column, 3u);
  EXPECT_FALSE(parse_list_value("a;"));
  EXPECT_FALSE(parse_list_value(R"("a" b;c)"));
  EXPECT_FALSE(parse_list_value(R"(a;"b)"));
}

TEST(SettingsValueText, FormattingRoundTrips) {
  const Strings singles = {"plain",
                           "Big Level",
                           " edge",
                           "edge ",
                           "\"starts",
                           "a;b",
                           "",
                           "line\nbreak",
                           std::string("nul\0byte", 8),
                           "back\\slash",
                           "#hash"};
  for (const std::string& v : singles) {
    auto back = parse_single_value(format_single_value(v));
    ASSERT_TRUE(back) << v;
    EXPECT_EQ(*back, v);
  }
  EXPECT_EQ(format_single_value("Big Level"), "Big Level");
  EXPECT_EQ(format_single_value(" x"), "\" x\"");

  const Strings list = {"a", "b c", "x;y", "", " pad ", "q\"uote", "\"lead", "\t"};
  const std::string text = format_list_value(list);
  EXPECT_EQ(texts(parse_list_value(text)), list);
  EXPECT_EQ(format_list_value(Strings{"a", "b"}), "a;b");
  EXPECT_EQ(format_list_value(Strings{}), "");
  EXPECT_EQ(format_list_value(Strings{""}), "\"\"");
  EXPECT_EQ(texts(parse_list_value(format_list_value(Strings{""}))), Strings{""});
}

}  // namespace
}  // namespace keel::settings
