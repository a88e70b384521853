#include "keel/settings/dator.h"
#include "keel/settings/list_dator.h"

#include <gtest/gtest.h>

#include <list>
#include <string>
#include <vector>

namespace keel::settings {
namespace {

// The seed's worked example: an int dator and a list dator over a std::list<int>.
TEST(Dator, SeedExample) {
  int some_value = 0;
  Dator<int> dator(some_value);
  ASSERT_TRUE(dator.assign("5"));
  EXPECT_EQ(some_value, 5);

  std::list<int> some_values;
  ListDator<int, std::list<int>> list_dator(some_values);
  ASSERT_TRUE(list_dator.assign("5"));
  ASSERT_TRUE(list_dator.add("6"));
  ASSERT_TRUE(list_dator.remove("5"));
  EXPECT_EQ(some_values, std::list<int>{6});
}

TEST(Dator, BadTextLeavesTheVariableUnchanged) {
  int width = 800;
  Dator<int> dator(width);
  auto bad = dator.assign("abc");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().code(), ErrorCode::kParse);
  EXPECT_EQ(width, 800);
  EXPECT_FALSE(dator.assign("12x"));
  EXPECT_FALSE(dator.assign("99999999999"));
  EXPECT_EQ(width, 800);
}

TEST(Dator, StringsKeepSpaces) {
  std::string name;
  Dator<std::string> dator(name);
  ASSERT_TRUE(dator.assign("Big Level"));
  EXPECT_EQ(name, "Big Level");
  EXPECT_EQ(dator.to_text(), "Big Level");
  ASSERT_TRUE(dator.add(" 2"));
  EXPECT_EQ(name, "Big Level 2");
  EXPECT_EQ(dator.remove("x").error().code(), ErrorCode::kUnsupported);
}

TEST(Dator, AddSubtractEqualsAndKinds) {
  int n = 10;
  Dator<int> dator(n);
  ASSERT_TRUE(dator.add("5"));
  ASSERT_TRUE(dator.remove("3"));
  EXPECT_EQ(n, 12);
  EXPECT_TRUE(dator.contains("12"));
  EXPECT_TRUE(dator.contains("0xc"));
  EXPECT_FALSE(dator.contains("13"));
  EXPECT_FALSE(dator.contains("junk"));
  EXPECT_FALSE(dator.has_multiple_values());
  EXPECT_FALSE(dator.is_flag());  // only bool settings are flags (issue 15)
  EXPECT_EQ(dator.type_name(), "int32");

  n = std::numeric_limits<int>::max();
  auto overflow = dator.add("1");
  ASSERT_FALSE(overflow);
  EXPECT_EQ(overflow.error().code(), ErrorCode::kOutOfRange);
  EXPECT_EQ(n, std::numeric_limits<int>::max());

  bool flag = false;
  Dator<bool> flag_dator(flag);
  EXPECT_TRUE(flag_dator.is_flag());
  EXPECT_EQ(flag_dator.add("1").error().code(), ErrorCode::kUnsupported);
  double gamma = 1.0;
  Dator<double> gamma_dator(gamma);
  EXPECT_FALSE(gamma_dator.is_flag());
  ASSERT_TRUE(gamma_dator.add("0.5"));
  EXPECT_DOUBLE_EQ(gamma, 1.5);
}

TEST(Dator, ChecksRejectValuesAndKeepTheOldOne) {
  int volume = 50;
  Dator<int> dator(volume);
  dator.add_range(0, 100);
  dator.add_check(
      [](const int& v) { return v % 5 == 0 ? std::string() : "must be a multiple of 5"; });
  ASSERT_TRUE(dator.assign("75"));
  auto high = dator.assign("101");
  ASSERT_FALSE(high);
  EXPECT_EQ(high.error().code(), ErrorCode::kOutOfRange);
  EXPECT_EQ(high.error().message(), "101 is out of range [0, 100]");
  auto odd = dator.assign("42");
  ASSERT_FALSE(odd);
  EXPECT_EQ(odd.error().message(), "must be a multiple of 5");
  EXPECT_FALSE(dator.add("30"));  // 105: the sum is checked too
  EXPECT_EQ(volume, 75);
  EXPECT_TRUE(dator.check_value("10"));
  EXPECT_FALSE(dator.check_value("-5"));
  EXPECT_EQ(volume, 75);
}

TEST(ListDator, Semantics) {
  std::vector<std::string> maps;
  ListDator<std::string> dator(maps);
  ASSERT_TRUE(dator.assign("a;b"));
  EXPECT_EQ(maps, (std::vector<std::string>{"a", "b"}));
  ASSERT_TRUE(dator.add("c"));
  ASSERT_TRUE(dator.add("a"));
  EXPECT_EQ(maps, (std::vector<std::string>{"a", "b", "c", "a"}));
  ASSERT_TRUE(dator.remove("a"));  // every equal value
  EXPECT_EQ(maps, (std::vector<std::string>{"b", "c"}));
  EXPECT_TRUE(dator.contains("c"));
  EXPECT_TRUE(dator.contains("b;c"));
  EXPECT_FALSE(dator.contains("a"));
  EXPECT_EQ(dator.to_text(), "b;c");
  EXPECT_TRUE(dator.has_multiple_values());
  EXPECT_FALSE(dator.is_flag());
  EXPECT_EQ(dator.type_name(), "list<string>");
  ASSERT_TRUE(dator.assign(R"("x;y";"")"));
  EXPECT_EQ(maps, (std::vector<std::string>{"x;y", ""}));
  EXPECT_EQ(dator.to_text(), R"("x;y";"")");
  ASSERT_TRUE(dator.assign(""));
  EXPECT_TRUE(maps.empty());
}

TEST(ListDator, ChangesAreAllOrNothing) {
  std::vector<int> ports{80};
  ListDator<int> dator(ports);
  dator.add_range(1, 65535);
  dator.add_list_check(
      [](const std::vector<int>& v) { return v.size() <= 3 ? std::string() : "at most 3 ports"; });
  EXPECT_FALSE(dator.assign("8080;x"));
  EXPECT_FALSE(dator.add("443;70000"));
  EXPECT_FALSE(dator.assign("a;;b"));
  EXPECT_EQ(ports, std::vector<int>{80});
  ASSERT_TRUE(dator.add("443;8080"));
  auto full = dator.add("22");
  ASSERT_FALSE(full);
  EXPECT_EQ(full.error().message(), "at most 3 ports");
  EXPECT_EQ(ports, (std::vector<int>{80, 443, 8080}));
  EXPECT_FALSE(dator.remove("nope"));
  ASSERT_TRUE(dator.remove("80;8080"));
  EXPECT_EQ(ports, std::vector<int>{443});
}

TEST(ListDator, TextRoundTrips) {
  std::vector<double> a{0.1, -2.5, 1e300};
  std::vector<double> b;
  ListDator<double> da(a), db(b);
  ASSERT_TRUE(db.assign(da.to_text()));
  EXPECT_EQ(a, b);
}

}  // namespace
}  // namespace keel::settings
