// Entry points of the settings module given bad caller input: each returns an error or asserts
// with a message naming the mistake, and none crashes in a release build (issue 17, section 4).
#include "keel/core/testing/assert_recorder.h"
#include "keel/settings/settings.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

namespace keel::settings {
namespace {

using keel::testing::AssertRecorder;

TEST(EntryPoints, SettingsUnregisteredNames) {
  Settings settings;
  EXPECT_EQ(settings.get("width").error().code(), ErrorCode::kNotFound);
  EXPECT_EQ(settings.set("width", "5").error().code(), ErrorCode::kNotFound);
  EXPECT_EQ(settings.reset("width").error().code(), ErrorCode::kNotFound);
  EXPECT_FALSE(settings.apply("width=5"));
  EXPECT_FALSE(settings.apply("+width"));
  EXPECT_EQ(settings.find("width"), nullptr);
  EXPECT_FALSE(settings.contains("width"));
  EXPECT_EQ(settings.size(), 0u);  // look-ups never create entries
}

TEST(EntryPoints, SettingsEmptyInputs) {
  int width = 640;
  Settings settings;
  settings.add("width", width);
  EXPECT_FALSE(settings.apply(""));
  EXPECT_FALSE(settings.apply("="));
  EXPECT_FALSE(settings.apply("+"));
  EXPECT_FALSE(settings.set("", "1"));
  EXPECT_FALSE(settings.set("width", ""));  // an empty text is not an int
  EXPECT_TRUE(settings.apply_text("", "empty.cfg").empty());
  EXPECT_TRUE(settings.apply_args({}).errors.empty());
  EXPECT_TRUE(settings.load({}, {}).errors.empty());
  EXPECT_FALSE(settings.apply_file("/nonexistent/game.cfg").empty());
  EXPECT_EQ(width, 640);
  EXPECT_TRUE(settings.reset_all().empty());
}

TEST(EntryPoints, SettingsBadRegistrations) {
  AssertRecorder asserts;
  int a = 1;
  int b = 2;
  Settings settings;
  settings.add("bad name!", a);
  asserts.expect_assert_count(1, "invalid setting name");
  settings.add("value", a);
  settings.add("VALUE", b);  // a duplicate (names ignore case): the later one wins in release
  asserts.expect_assert_count(2, "already registered");
  ASSERT_TRUE(settings.set("value", "9"));
  EXPECT_EQ(b, 9);
  // A null dator: asserted; the setting exists but refuses every value instead of crashing.
  Setting& empty = settings.add_dator("empty", nullptr, "no variable");
  asserts.expect_assert_count(3, "null dator");
  EXPECT_EQ(empty.value_text(), "");
  const Status refused = settings.set("empty", "1");
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().message().find("without a variable"), std::string::npos);
  EXPECT_FALSE(settings.apply("+empty"));
  EXPECT_FALSE(settings.to_file_text().empty());
}

}  // namespace
}  // namespace keel::settings
