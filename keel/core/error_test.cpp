#include "keel/core/error.h"
#include "keel/core/assert.h"

#include <gtest/gtest.h>

namespace keel {
namespace {

Result<int> parse_digit(char c) {
  if (c < '0' || c > '9') {
    return fail_at(SourceLocation::text("cfg.txt", 3, 7), ErrorCode::kParse, "'{}' is not a digit",
                   c);
  }
  return c - '0';
}

TEST(Error, ResultCarriesValueOrLocatedError) {
  auto good = parse_digit('7');
  ASSERT_TRUE(good);
  EXPECT_EQ(*good, 7);
  auto bad = parse_digit('x');
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().code(), ErrorCode::kParse);
  EXPECT_EQ(bad.error().where().line, 3u);
  EXPECT_EQ(bad.error().to_string(), "cfg.txt:3:7: error: 'x' is not a digit");
}

TEST(Error, FormatsEveryLocationKind) {
  EXPECT_EQ(Error(ErrorCode::kIo, "disk full").to_string(), "error: disk full");
  EXPECT_EQ(Error(ErrorCode::kCorrupt, "bad magic", SourceLocation::bytes("a.pak", 12)).to_string(),
            "a.pak: byte 12: error: bad magic");
  EXPECT_EQ(Error(ErrorCode::kParse, "x", SourceLocation::text("f", 2)).to_string(),
            "f:2: error: x");
  EXPECT_EQ(fmt::format("{}", Error(ErrorCode::kNotFound, "y")), "error: y");
  EXPECT_EQ(to_string(ErrorCode::kUnderflow), "underflow");
  EXPECT_EQ(to_string(ErrorCode::kOutOfMemory), "out of memory");
}

AssertInfo g_last;
int g_failures = 0;
void record(const AssertInfo& info) {
  g_last = AssertInfo{info.condition, info.file, info.line, info.message};
  ++g_failures;
}

TEST(Assert, ReportsConditionFileLineAndMessage) {
  ScopedAssertHandler guard(&record);
  g_failures = 0;
  int evaluated = 0;
  auto count = [&] {
    ++evaluated;
    return false;
  };
  KEEL_ASSERT(count(), "value was {}", 42);
  if (KEEL_ASSERTS_ENABLED) {
    EXPECT_EQ(evaluated, 1);
    ASSERT_EQ(g_failures, 1);
    EXPECT_EQ(g_last.condition, "count()");
    EXPECT_NE(g_last.file.find("error_test.cpp"), std::string_view::npos);
    EXPECT_GT(g_last.line, 0);
    EXPECT_EQ(g_last.message, "value was 42");
  } else {
    EXPECT_EQ(evaluated, 0);  // compiled out: the expression is not evaluated
    EXPECT_EQ(g_failures, 0);
  }
  KEEL_ASSERT(true);
  EXPECT_EQ(g_failures, KEEL_ASSERTS_ENABLED ? 1 : 0);
}

TEST(Assert, DefaultHandlerAborts) {
  EXPECT_EQ(set_assert_handler(nullptr), default_assert_handler());
  if (KEEL_ASSERTS_ENABLED) {
    EXPECT_DEATH(KEEL_ASSERT(1 + 1 == 3, "math"), "assertion failed: 1 \\+ 1 == 3: math");
  }
}

}  // namespace
}  // namespace keel
