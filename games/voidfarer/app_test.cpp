// The program's settings, bindings and options (app.h).
#include "app.h"

#include "keel/core/file.h"

#include <gtest/gtest.h>

#include <array>
#include <filesystem>
#include <string>
#include <vector>

namespace keel::voidfarer {
namespace {

TEST(AppSettings, DifficultyAutopilotAndBindingsComeFromFilesAndTheCommandLine) {
  GameSettings game;
  settings::Settings registry;
  ASSERT_TRUE(add_game_settings(registry, game));
  platform::Input input;
  add_game_actions(input);
  ASSERT_TRUE(input.add_settings(registry));
  const std::filesystem::path cfg = std::filesystem::path(VOIDFARER_CFG);
  const std::array<std::string_view, 3> args{"difficulty=hard", "bind_thrust=key:Return",
                                             "--frames"};
  const settings::ArgsResult loaded = registry.load(std::array{cfg}, args);
  ASSERT_TRUE(loaded.errors.empty()) << loaded.errors.front().to_string();
  Status bound = input.apply_bindings();
  ASSERT_TRUE(bound) << bound.error().to_string();
  EXPECT_EQ(game.difficulty, Difficulty::kHard);  // the command line wins over the file
  EXPECT_EQ(loaded.rest.size(), 1u);
  EXPECT_EQ(input.bindings("thrust"), std::vector<std::string>{"key:Return"});
  EXPECT_EQ(input.bindings("fire"), (std::vector<std::string>{"key:Space", "mouse:left", "pad:a"}));
  EXPECT_EQ(input.bindings("quicksave"), std::vector<std::string>{"key:F5"});
  EXPECT_EQ(input.bindings("quickload"), std::vector<std::string>{"key:F9"});
  EXPECT_EQ(input.bindings("overlay"), std::vector<std::string>{"key:F1"});
  EXPECT_EQ(*registry.get("difficulty"), "hard");
}

TEST(AppSettings, ABadDifficultyIsALocatedError) {
  GameSettings game;
  settings::Settings registry;
  ASSERT_TRUE(add_game_settings(registry, game));
  const std::vector<Error> errors = registry.apply_text("difficulty=nightmare\n", "v.cfg");
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].to_string().find("v.cfg:1:"), std::string::npos);
  EXPECT_EQ(game.difficulty, Difficulty::kNormal);
}

TEST(AppSettings, ControlsFollowTheActions) {
  platform::Input input;
  add_game_actions(input);
  Status bound = input.apply_bindings();
  ASSERT_TRUE(bound) << bound.error().to_string();
  const std::array events{platform::InputEvent{.device = platform::Device::kKey,
                                               .code = platform::parse_binding("key:W")->code,
                                               .down = true},
                          platform::InputEvent{.device = platform::Device::kKey,
                                               .code = platform::parse_binding("key:Space")->code,
                                               .down = true}};
  input.update(events);
  EXPECT_EQ(controls_from(input), (Controls{.thrust = true, .fire = true}));
}

std::vector<std::string> words(std::initializer_list<const char*> list) {
  return {list.begin(), list.end()};
}

TEST(AppOptions, ParsesTheGameOptionsAfterTheRunOptions) {
  Result<AppOptions> o = parse_app_options(
      words({"--data", "v.kpk", "--headless", "--frames", "600", "--save-at", "300", "--save",
             "q.sav", "--record", "r.vfr", "--user-dir", "u", "--seed", "9"}));
  ASSERT_TRUE(o) << o.error().to_string();
  EXPECT_EQ(o->data, "v.kpk");
  EXPECT_TRUE(o->run.headless);
  EXPECT_EQ(o->run.frames, 600u);
  EXPECT_EQ(o->save_at, 300u);
  EXPECT_EQ(o->quick_save(), "q.sav");
  EXPECT_EQ(o->high_scores(), std::filesystem::path("u") / "highscores.dat");
  EXPECT_EQ(o->record, "r.vfr");
  EXPECT_EQ(o->seed, 9u);
}

TEST(AppOptions, RejectsMeaninglessCombinations) {
  EXPECT_FALSE(parse_app_options(words({"--frames", "10"})));  // no pack
  EXPECT_FALSE(parse_app_options(words({"--data", "v", "--replay", "a", "--record", "b"})));
  EXPECT_FALSE(parse_app_options(words({"--data", "v", "--record", "a", "--load", "b"})));
  EXPECT_FALSE(parse_app_options(words({"--data", "v", "--save-at", "x"})));
  EXPECT_FALSE(parse_app_options(words({"--data", "v", "--save-at", "0"})));
  EXPECT_FALSE(parse_app_options(words({"--data", "v", "--bogus", "1"})));
  EXPECT_FALSE(parse_app_options(
      words({"--data", "v", "--no-view", "--screenshot-every", "5", "--out", "d"})));
}

}  // namespace
}  // namespace keel::voidfarer

namespace keel::voidfarer {
namespace {

std::filesystem::path high_score_file(const char* name) {
  const std::filesystem::path dir = std::filesystem::path(KEEL_TEST_TMPDIR) / "high_scores";
  std::filesystem::create_directories(dir);
  std::filesystem::remove(dir / name);
  return dir / name;
}

TEST(HighScores, AGoodScoreEntersTheTableAndIsSaved) {
  const std::filesystem::path path = high_score_file("good.dat");
  Result<HighScoreEntry> first = enter_high_score(path, "Ada", 95);
  ASSERT_TRUE(first) << first.error().to_string();
  EXPECT_EQ(first->rank, 1u);  // behind the default 100
  Result<HighScoreEntry> second = enter_high_score(path, "Bob", 5'000'000'000ULL);  // clamped
  ASSERT_TRUE(second);
  EXPECT_EQ(second->rank, 0u);
  serial::HighScoreTable read;
  ASSERT_TRUE(read.load(path));
  EXPECT_EQ(read.entries()[0], (serial::HighScoreTable::Entry{"Bob", 0xFFFF'FFFFu}));
  EXPECT_EQ(read.entries()[2], (serial::HighScoreTable::Entry{"Ada", 95}));
}

TEST(HighScores, APoorScoreLeavesNoFileAndADamagedTableIsKept) {
  const std::filesystem::path path = high_score_file("poor.dat");
  Result<HighScoreEntry> poor = enter_high_score(path, "Ada", 3);
  ASSERT_TRUE(poor);
  EXPECT_FALSE(poor->rank);
  EXPECT_FALSE(std::filesystem::exists(path));

  const std::filesystem::path damaged = high_score_file("damaged.dat");
  ASSERT_TRUE(write_file_atomic(damaged, std::string_view("not a table")));
  EXPECT_FALSE(enter_high_score(damaged, "Ada", 1000));
  Result<std::string> kept = read_file(damaged);
  ASSERT_TRUE(kept);
  EXPECT_EQ(*kept, "not a table");
}

}  // namespace
}  // namespace keel::voidfarer

namespace keel::voidfarer {
namespace {

TEST(ScriptKeys, PressesAtTheFrameAndReleasesOneLater) {
  platform::ScriptedInput scripted;
  ASSERT_TRUE(script_keys("2:key:P,3:key:F5", scripted));
  std::vector<std::vector<platform::InputEvent>> frames(5);
  for (auto& f : frames) scripted.poll(f);
  const u32 p = platform::parse_binding("key:P")->code;
  const u32 f5 = platform::parse_binding("key:F5")->code;
  EXPECT_TRUE(frames[0].empty());
  EXPECT_TRUE(frames[1].empty());
  ASSERT_EQ(frames[2].size(), 1u);
  EXPECT_EQ(frames[2][0],
            (platform::InputEvent{.device = platform::Device::kKey, .code = p, .down = true}));
  ASSERT_EQ(frames[3].size(), 2u);  // P up, F5 down
  EXPECT_FALSE(frames[3][0].down);
  EXPECT_EQ(frames[3][1].code, f5);
  ASSERT_EQ(frames[4].size(), 1u);
  EXPECT_FALSE(frames[4][0].down);
}

TEST(ScriptKeys, BadEntriesAreErrors) {
  platform::ScriptedInput scripted;
  EXPECT_FALSE(script_keys("key:P", scripted));
  EXPECT_FALSE(script_keys("x:key:P", scripted));
  Status unknown = script_keys("5:key:NoSuchKey", scripted);
  ASSERT_FALSE(unknown);
  EXPECT_NE(unknown.error().message().find("5:key:NoSuchKey"), std::string::npos);
  EXPECT_TRUE(script_keys("", scripted));
}

}  // namespace
}  // namespace keel::voidfarer
