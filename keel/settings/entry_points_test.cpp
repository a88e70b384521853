// Entry points of the settings module given bad caller input: each returns an error or asserts
// with a message naming the mistake, and none crashes in a release build (issue 17, section 4).
#include "keel/core/assert.h"
#include "keel/settings/settings.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

namespace keel::settings {
namespace {

int g_asserts = 0;
std::string g_last_assert;
void counting_handler(const AssertInfo& info) {
  ++g_asserts;
  g_last_assert = info.message;
}

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
  ScopedAssertHandler handler(counting_handler);
  g_asserts = 0;
  int a = 1;
  int b = 2;
  Settings settings;
  settings.add("bad name!", a);
  if (KEEL_ASSERTS_ENABLED) {
    EXPECT_EQ(g_asserts, 1);
    EXPECT_NE(g_last_assert.find("invalid setting name"), std::string::npos);
  }
  settings.add("value", a);
  settings.add("VALUE", b);  // a duplicate (names ignore case): the later one wins in release
  if (KEEL_ASSERTS_ENABLED) {
    EXPECT_EQ(g_asserts, 2);
    EXPECT_NE(g_last_assert.find("already registered"), std::string::npos);
  }
  ASSERT_TRUE(settings.set("value", "9"));
  EXPECT_EQ(b, 9);
  // A null dator: asserted; the setting exists but refuses every value instead of crashing.
  Setting& empty = settings.add_dator("empty", nullptr, "no variable");
  if (KEEL_ASSERTS_ENABLED) {
    EXPECT_EQ(g_asserts, 3);
    EXPECT_NE(g_last_assert.find("null dator"), std::string::npos);
  }
  EXPECT_EQ(empty.value_text(), "");
  const Status refused = settings.set("empty", "1");
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().message().find("without a variable"), std::string::npos);
  EXPECT_FALSE(settings.apply("+empty"));
  EXPECT_FALSE(settings.to_file_text().empty());
}

}  // namespace
}  // namespace keel::settings
