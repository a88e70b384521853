// Enginuity III: the engine's standard settings registered by one call (issue 17, section 6).
#include "keel/settings/standard.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace keel::settings {
namespace {

TEST(StandardSettings, OneCallRegistersTheEngineSettingsWithDefaults) {
  StandardSettings values;
  Settings settings;
  ASSERT_TRUE(add_standard_settings(settings, values));
  const std::vector<std::string_view> names = settings.names();
  ASSERT_EQ(names.size(), std::size(kStandardSettingNames));
  for (usize i = 0; i < names.size(); ++i) EXPECT_EQ(names[i], kStandardSettingNames[i]);
  EXPECT_EQ(*settings.get("width"), "1280");
  EXPECT_EQ(*settings.get("height"), "720");
  EXPECT_EQ(*settings.get("fullscreen"), "false");
  EXPECT_EQ(*settings.get("vsync"), "true");
  EXPECT_EQ(*settings.get("volume"), "0.8");
  EXPECT_EQ(*settings.get("log_level"), "info");
  EXPECT_EQ(*settings.get("profiler"), "true");
  for (const std::string_view name : names) {
    EXPECT_FALSE(settings.find(name)->help().empty()) << name;
  }
  const std::string listing = settings.list();
  EXPECT_NE(listing.find("Window width in pixels"), std::string::npos) << listing;
  EXPECT_NE(listing.find("level"), std::string::npos) << listing;
}

TEST(StandardSettings, Check13_FlagsAndValuesReachTheVariables) {
  StandardSettings values;
  Settings settings;
  ASSERT_TRUE(add_standard_settings(settings, values));
  ASSERT_TRUE(settings.apply("+fullscreen"));
  EXPECT_TRUE(values.fullscreen);
  ASSERT_TRUE(settings.apply("-fullscreen"));
  EXPECT_FALSE(values.fullscreen);
  ASSERT_TRUE(settings.apply("width=1024"));
  EXPECT_EQ(values.width, 1024);
  ASSERT_TRUE(settings.apply("-vsync"));
  EXPECT_FALSE(values.vsync);
  ASSERT_TRUE(settings.apply("volume=0.25"));
  EXPECT_FLOAT_EQ(values.volume, 0.25f);
  ASSERT_TRUE(settings.apply("log_level=WARNING"));
  EXPECT_EQ(values.log_level, log::Level::kWarn);
  ASSERT_TRUE(settings.apply("-profiler"));
  EXPECT_FALSE(values.profiler);
  EXPECT_NE(settings.to_file_text().find("log_level=warn"), std::string::npos);
}

TEST(StandardSettings, Check15_OutOfRangeOrMalformedValuesAreErrorsAndChangeNothing) {
  StandardSettings values;
  Settings settings;
  ASSERT_TRUE(add_standard_settings(settings, values));
  EXPECT_FALSE(settings.apply("width=100"));
  EXPECT_FALSE(settings.apply("width=abc"));
  EXPECT_FALSE(settings.apply("height=99999"));
  EXPECT_FALSE(settings.apply("volume=1.5"));
  EXPECT_FALSE(settings.apply("volume=-0.1"));
  const Status bad_level = settings.apply("log_level=loud");
  ASSERT_FALSE(bad_level);
  EXPECT_NE(bad_level.error().message().find("not a log level"), std::string::npos);
  EXPECT_EQ(values.width, 1280);
  EXPECT_EQ(values.height, 720);
  EXPECT_FLOAT_EQ(values.volume, 0.8f);
  EXPECT_EQ(values.log_level, log::Level::kInfo);
}

TEST(StandardSettings, GameDefaultsSetBeforeTheCallBecomeTheDefaults) {
  StandardSettings values;
  values.width = 800;
  values.profiler = false;
  Settings settings;
  ASSERT_TRUE(add_standard_settings(settings, values));
  ASSERT_TRUE(settings.apply("width=1920"));
  ASSERT_TRUE(settings.reset("width"));
  EXPECT_EQ(values.width, 800);
  EXPECT_EQ(settings.find("profiler")->default_text(), "false");
}

TEST(StandardSettings, FileAndCommandLineCommandLineWins) {
  StandardSettings values;
  Settings settings;
  ASSERT_TRUE(add_standard_settings(settings, values));
  EXPECT_TRUE(
      settings.apply_text("width=1024\n+fullscreen\nlog_level=debug\n", "game.cfg").empty());
  const std::vector<std::string_view> args{"width=1600", "-fullscreen"};
  EXPECT_TRUE(settings.apply_args(args).errors.empty());
  EXPECT_EQ(values.width, 1600);
  EXPECT_FALSE(values.fullscreen);
  EXPECT_EQ(values.log_level, log::Level::kDebug);
}

TEST(StandardSettings, ApplyLogLevelSetsEveryChannel) {
  log::Logger logger;
  const log::Channel extra = logger.register_channel("physics");
  StandardSettings values;
  values.log_level = log::Level::kError;
  apply_log_level(values, logger);
  EXPECT_EQ(logger.level(log::Channel::kApp), log::Level::kError);
  EXPECT_EQ(logger.level(extra), log::Level::kError);
  EXPECT_FALSE(logger.enabled(log::Channel::kClient, log::Level::kWarn));
}

TEST(EntryPoints, StandardSettingsRefuseANameClashAndAddNothing) {
  StandardSettings values;
  Settings settings;
  int width = 640;
  settings.add("WIDTH", width);  // names match case-insensitively
  const Status added = add_standard_settings(settings, values);
  ASSERT_FALSE(added);
  EXPECT_EQ(added.error().code(), ErrorCode::kAlreadyExists);
  EXPECT_NE(added.error().message().find("'width'"), std::string::npos);
  EXPECT_EQ(settings.size(), 1u);
  // Registering twice is the same mistake.
  Settings twice;
  ASSERT_TRUE(add_standard_settings(twice, values));
  EXPECT_FALSE(add_standard_settings(twice, values));
  EXPECT_EQ(twice.size(), std::size(kStandardSettingNames));
}

}  // namespace
}  // namespace keel::settings
