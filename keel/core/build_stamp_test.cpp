// Enginuity V: which of two builds is older, and the message that tells the user to update.
#include "keel/core/build_stamp.h"

#include <gtest/gtest.h>

namespace keel {
namespace {

BuildStamp stamp(std::string_view version, std::string_view built, u64 number) {
  return BuildStamp{"keel-demo", version, "1a2b3c", false, built, number, "ana", 1};
}

TEST(BuildStamp, VersionsCompareNumericallyNotAsText) {
  EXPECT_EQ(compare_builds(stamp("0.9.7", "2026-01-02T00:00:00Z", 9),
                           stamp("0.10.0", "2026-01-01T00:00:00Z", 1)),
            BuildOrder::kOlder);
  EXPECT_EQ(compare_builds(stamp("1.2.1", "", 0), stamp("1.2", "", 0)), BuildOrder::kNewer);
  EXPECT_EQ(compare_builds(stamp("1.0.0-rc2", "", 0), stamp("1.0.0", "", 0)), BuildOrder::kOlder);
  EXPECT_EQ(compare_builds(stamp("1.0.0-rc1", "", 0), stamp("1.0.0-rc2", "", 0)),
            BuildOrder::kOlder);
}

TEST(BuildStamp, SameVersionOrdersByBuildTimeThenNumber) {
  const BuildStamp monday = stamp("0.1.0", "2026-03-02T10:00:00Z", 40);
  const BuildStamp tuesday = stamp("0.1.0", "2026-03-03T09:00:00Z", 12);  // another build tree
  EXPECT_EQ(compare_builds(monday, tuesday), BuildOrder::kOlder);
  EXPECT_EQ(compare_builds(tuesday, monday), BuildOrder::kNewer);
  EXPECT_EQ(compare_builds(stamp("0.1.0", "", 4), stamp("0.1.0", "", 5)), BuildOrder::kOlder);
  EXPECT_EQ(compare_builds(monday, monday), BuildOrder::kSame);
}

TEST(BuildStamp, OtherProjectsAndUnorderableBuildsAreUnrelated) {
  BuildStamp other = stamp("0.1.0", "2026-03-02T10:00:00Z", 40);
  other.project = "another-game";
  EXPECT_EQ(compare_builds(stamp("0.1.0", "2026-03-02T10:00:00Z", 40), other),
            BuildOrder::kUnrelated);
  BuildStamp dirty = stamp("0.1.0", "2026-03-02T10:00:00Z", 40);
  dirty.dirty = true;
  EXPECT_EQ(compare_builds(stamp("0.1.0", "2026-03-02T10:00:00Z", 40), dirty),
            BuildOrder::kUnrelated);
}

TEST(BuildStamp, UpdateMessageTellsTheOlderSideToUpdate) {
  const BuildStamp old_build = stamp("0.1.0", "2026-03-02T10:00:00Z", 40);
  const BuildStamp new_build = stamp("0.2.0", "2026-04-01T08:00:00Z", 41);
  const std::string mine_older = update_message(old_build, new_build);
  EXPECT_NE(mine_older.find("Update this game"), std::string::npos) << mine_older;
  EXPECT_NE(mine_older.find("0.1.0"), std::string::npos);
  EXPECT_NE(mine_older.find("0.2.0"), std::string::npos);
  const std::string theirs_older = update_message(new_build, old_build);
  EXPECT_NE(theirs_older.find("other side must update"), std::string::npos) << theirs_older;
  EXPECT_EQ(update_message(old_build, old_build), "");
  BuildStamp other = old_build;
  other.project = "another-game";
  EXPECT_NE(update_message(old_build, other).find("another-game"), std::string::npos);
}

}  // namespace
}  // namespace keel
