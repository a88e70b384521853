// keel::testing::AssertRecorder (keel/core/testing/assert_recorder.h): it records instead of
// aborting, restores what it replaced, and its checks fail when the assert they expect is missing
// or names something else (with asserts compiled in) and pass in release builds.
#include "keel/core/testing/assert_recorder.h"

#include "keel/core/assert.h"

#include <gmock/gmock.h>
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <string>
#include <utility>

namespace keel::testing {
namespace {

using ::testing::ElementsAre;

// Reaches the installed handler in every build (KEEL_ASSERT is compiled out of release builds).
void fail_with(std::string message) {
  detail::assert_failed("cond", __FILE__, 1, std::move(message));
}

int g_outer_calls = 0;
void count_outer(const AssertInfo&) { ++g_outer_calls; }

TEST(AssertRecorder, RecordsMessagesInsteadOfAborting) {
  AssertRecorder asserts;
  EXPECT_EQ(asserts.count(), 0u);
  EXPECT_EQ(asserts.last(), "");
  fail_with("first mistake");
  fail_with("second mistake");
  EXPECT_EQ(asserts.count(), 2u);
  EXPECT_THAT(asserts.messages(), ElementsAre("first mistake", "second mistake"));
  EXPECT_EQ(asserts.last(), "second mistake");
  KEEL_ASSERT(1 + 1 == 3, "arithmetic is off by {}", 1);
  EXPECT_EQ(asserts.count(), KEEL_ASSERTS_ENABLED ? 3u : 2u);
  if (KEEL_ASSERTS_ENABLED) {
    EXPECT_EQ(asserts.last(), "arithmetic is off by 1");
  }
  asserts.clear();
  EXPECT_EQ(asserts.count(), 0u);
}

TEST(AssertRecorder, RestoresThePreviousHandlerAndRecorder) {
  const ScopedAssertHandler outer(&count_outer);
  g_outer_calls = 0;
  {
    AssertRecorder first;
    {
      AssertRecorder second;
      fail_with("to the second");
      EXPECT_EQ(second.count(), 1u);
    }
    fail_with("to the first");
    EXPECT_THAT(first.messages(), ElementsAre("to the first"));
  }
  EXPECT_EQ(g_outer_calls, 0);
  fail_with("to the outer handler");
  EXPECT_EQ(g_outer_calls, 1);
}

TEST(AssertRecorder, ChecksPassOnTheExpectedAssert) {
  AssertRecorder asserts;
  fail_with("bucket 3 of 1");
  asserts.expect_asserted("bucket 3");
  fail_with("null data");
  fail_with("null data again");
  asserts.expect_asserted("again");
  asserts.expect_assert_count(3, "null data");
  asserts.expect_assert_count(3);
}

TEST(AssertRecorder, ChecksFailWhenTheAssertIsMissingOrNamesSomethingElse) {
  AssertRecorder asserts;
  if (!KEEL_ASSERTS_ENABLED) {
    // Release builds: the checks cannot know what a compiled-out assert would have said.
    asserts.expect_asserted("anything");
    asserts.expect_assert_count(7, "anything");
    return;
  }
  EXPECT_NONFATAL_FAILURE(asserts.expect_asserted("bucket"), "none fired");
  fail_with("bucket 3 of 1");
  EXPECT_NONFATAL_FAILURE(asserts.expect_asserted("null data"), "to name \"null data\"");
  // That assert has been checked: the next check needs a new one.
  EXPECT_NONFATAL_FAILURE(asserts.expect_asserted("bucket"), "none fired since the last check");
  EXPECT_NONFATAL_FAILURE(asserts.expect_assert_count(2), "expected 2 assert(s), recorded 1");
  EXPECT_NONFATAL_FAILURE(asserts.expect_assert_count(1, "null"), "recorded: bucket 3 of 1");
  EXPECT_NONFATAL_FAILURE(asserts.expect_assert_count(0), "expected 0 assert(s)");
}

TEST(AssertRecorder, ChecksPassInReleaseBuildsWithoutAsserts) {
  AssertRecorder asserts;
  KEEL_ASSERT(false, "compiled out of release builds");
  if (KEEL_ASSERTS_ENABLED) {
    asserts.expect_asserted("compiled out");
    asserts.expect_assert_count(1, "release builds");
  } else {
    EXPECT_EQ(asserts.count(), 0u);
    asserts.expect_asserted("compiled out");
    asserts.expect_assert_count(1, "release builds");
  }
}

using AssertRecorderFixture = AssertRecordingTest;

TEST_F(AssertRecorderFixture, RecordsForTheWholeTest) {
  fail_with("recorded by the fixture");
  EXPECT_EQ(asserts_.count(), 1u);
  asserts_.expect_asserted("by the fixture");
}

}  // namespace
}  // namespace keel::testing
