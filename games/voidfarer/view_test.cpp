// The view draws a real frame of the game headless (SDL's dummy driver, software renderer):
// few batches, the HUD's strings, the fallback frame for unknown sprite names, the message.
#include "view.h"

#include "keel/core/hash.h"
#include "keel/platform/image.h"
#include "keel/platform/window.h"
#include "keel/world/components.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>

namespace keel::voidfarer {
namespace {

class ViewTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto sim = Sim::create(VOIDFARER_DATA);
    ASSERT_TRUE(sim) << sim.error().to_string();
    sim_ = std::move(*sim);
    auto window = platform::Window::open({.title = "view_test",
                                          .width = View::kWidth,
                                          .height = View::kHeight,
                                          .fullscreen = false,
                                          .vsync = false,
                                          .headless = true,
                                          .software = true});
    ASSERT_TRUE(window) << window.error().to_string();
    window_ = std::move(*window);
    renderer_ = std::make_unique<platform::Renderer>(window_->sdl_renderer());
    auto view = View::create(*renderer_, *sim_);
    ASSERT_TRUE(view) << view.error().to_string();
    view_ = std::move(*view);
  }

  // One frame: begin, draw, end (whose status is the first bad call of the frame).
  void draw_frame() {
    ASSERT_TRUE(renderer_->begin_frame({8, 8, 16, 255}));
    view_->draw(*sim_);
    const Status done = renderer_->end_frame();
    ASSERT_TRUE(done) << done.error().to_string();
  }

  bool hud_has(std::string_view text) const {
    const auto lines = view_->hud_lines();
    return std::any_of(lines.begin(), lines.end(),
                       [&](const std::string& l) { return l.find(text) != std::string::npos; });
  }

  std::unique_ptr<Sim> sim_;
  std::unique_ptr<platform::Window> window_;
  std::unique_ptr<platform::Renderer> renderer_;
  std::unique_ptr<View> view_;
};

TEST_F(ViewTest, DrawsABusyFrameInAtMost16Batches) {
  for (int i = 0; i < 90; ++i) ASSERT_TRUE(sim_->step(sim_->autopilot()));
  for (int i = 0; i < 40; ++i) {
    ASSERT_TRUE(sim_->spawn(i % 2 ? "fighter" : "bomber", {300.0f + 15.0f * i, 40.0f * (i % 7)}));
  }
  sim_->burst({200, 0});
  sim_->burst({-150, 80}, "sparks");
  ASSERT_TRUE(sim_->step(sim_->autopilot()));
  draw_frame();
  const platform::FrameStats& stats = renderer_->stats();
  EXPECT_GT(stats.sprites, 40u + 370u);  // the ships and the stars at least
  EXPECT_GT(stats.particles, 0u);
  EXPECT_GE(stats.strings, 5u);
  EXPECT_GE(stats.draw_calls, 3u);  // stars+particles, sprites+bars, text
  EXPECT_LE(stats.draw_calls, 16u);
  EXPECT_EQ(view_->fallback_sprites(), 0u);
}

TEST_F(ViewTest, HudShowsHullScoreWaveAndEnemies) {
  ASSERT_TRUE(sim_->spawn("fighter", {400, 0}));
  ASSERT_TRUE(sim_->step(sim_->autopilot()));
  draw_frame();
  EXPECT_TRUE(hud_has("HULL"));
  EXPECT_TRUE(hud_has("SCORE 0"));
  EXPECT_TRUE(hud_has("WAVE 1"));
  const std::string enemies = "ENEMIES " + std::to_string(sim_->summary().enemies);
  EXPECT_TRUE(hud_has(enemies)) << enemies;
  EXPECT_GE(sim_->summary().enemies, 1u);
  EXPECT_FALSE(hud_has("DREADNOUGHT"));
}

TEST_F(ViewTest, BossHealthBarFollowsItsHitPoints) {
  auto boss = sim_->spawn("boss", {600, 0});
  ASSERT_TRUE(boss);
  draw_frame();
  EXPECT_TRUE(hud_has("DREADNOUGHT 100%"));  // the bar's name is its label's key in hud_text
  auto& world = const_cast<world::World&>(sim_->world());
  Health* health = world.get<Health>(*boss);
  ASSERT_NE(health, nullptr);
  health->hp *= 0.25f;
  draw_frame();
  EXPECT_TRUE(hud_has("DREADNOUGHT 25%"));
}

TEST_F(ViewTest, HudWordsFollowTheLanguage) {
  ASSERT_TRUE(sim_->spawn("boss", {600, 0}));
  EXPECT_EQ(view_->language(), "english");
  EXPECT_EQ(view_->text("WAVE"), "WAVE");
  EXPECT_EQ(view_->text("NO_SUCH_KEY"), "NO_SUCH_KEY");
  ASSERT_TRUE(view_->set_language("french"));
  EXPECT_EQ(view_->text("PAUSED"), "PAUSE");
  draw_frame();
  EXPECT_TRUE(hud_has("COQUE"));
  EXPECT_TRUE(hud_has("VAGUE 1"));
  EXPECT_TRUE(hud_has("CUIRASS\xc3\x89 100%"));  // Latin-1 letters are in the fonts too
  EXPECT_FALSE(hud_has("HULL"));
  EXPECT_FALSE(view_->set_language("klingon"));
  EXPECT_EQ(view_->language(), "french");  // unchanged
  // Kept for a look: build/debug/games/voidfarer/test_tmp/view_french.png.
  auto shot = window_->screenshot();
  ASSERT_TRUE(shot) << shot.error().to_string();
  std::filesystem::create_directories(KEEL_TEST_TMPDIR);
  EXPECT_TRUE(
      platform::write_png(std::filesystem::path(KEEL_TEST_TMPDIR) / "view_french.png", *shot));
}

TEST_F(ViewTest, HudTextsAndIconsComeFromTheirElements) {
  auto& world = const_cast<world::World&>(sim_->world());
  draw_frame();
  const platform::FrameStats before = renderer_->stats();
  // The player's ship icon (ships.kcmd) is drawn from the atlas, not the fallback.
  EXPECT_EQ(view_->fallback_sprites(), 0u);
  const world::Entity text = world.create();
  ASSERT_TRUE(world.create<world::HudElement>(
      text, world::HudElement{.kind = world::HudElement::Kind::kText,
                              .content = runtime_id("CLEARED"),
                              .position = {500, 300},
                              .size = {},
                              .value = 0,
                              .colour = {}}));
  const world::Entity icon = world.create();
  ASSERT_TRUE(world.create<world::HudElement>(
      icon, world::HudElement{.kind = world::HudElement::Kind::kIcon,
                              .content = runtime_id("ships/no_such_icon"),
                              .position = {500, 340},
                              .size = {24, 24},
                              .value = 0,
                              .colour = {}}));
  draw_frame();
  EXPECT_TRUE(std::any_of(view_->hud_lines().begin(), view_->hud_lines().end(),
                          [](const std::string& l) { return l == "CLEARED"; }));
  EXPECT_EQ(renderer_->stats().strings, before.strings + 1);
  EXPECT_EQ(renderer_->stats().sprites, before.sprites + 1);
  EXPECT_EQ(view_->fallback_sprites(), 1u);  // an icon the atlas lacks
  world.kill(text);
  world.kill(icon);
}

TEST_F(ViewTest, UnknownSpriteNamesDrawTheFallback) {
  auto ship = sim_->spawn("fighter", {100, 0});
  ASSERT_TRUE(ship);
  draw_frame();
  EXPECT_EQ(view_->fallback_sprites(), 0u);
  const u32 known = renderer_->stats().sprites;
  auto& world = const_cast<world::World&>(sim_->world());
  world::Sprite* sprite = world.get<world::Sprite>(*ship);
  ASSERT_NE(sprite, nullptr);
  sprite->texture = runtime_id("ships/no_such_ship");
  draw_frame();
  EXPECT_EQ(view_->fallback_sprites(), 1u);
  EXPECT_EQ(renderer_->stats().sprites, known);  // still drawn, with the fallback frame
  // A texture + frame pair finds the sheet's "folder/leaf" frame.
  sprite->texture = runtime_id("ships");
  sprite->frame = runtime_id("bomber");
  draw_frame();
  EXPECT_EQ(view_->fallback_sprites(), 0u);
}

TEST_F(ViewTest, MessageIsDrawnUntilCleared) {
  draw_frame();
  const u32 strings = renderer_->stats().strings;
  view_->set_message("GAME OVER", "press R to restart");
  ASSERT_TRUE(renderer_->begin_frame({8, 8, 16, 255}));
  view_->draw(*sim_);
  ASSERT_TRUE(renderer_->end_frame());
  // Kept for a look: build/debug/games/voidfarer/test_tmp/view_message.png.
  auto shot = window_->screenshot();
  ASSERT_TRUE(shot) << shot.error().to_string();
  std::filesystem::create_directories(KEEL_TEST_TMPDIR);
  EXPECT_TRUE(
      platform::write_png(std::filesystem::path(KEEL_TEST_TMPDIR) / "view_message.png", *shot));
  EXPECT_EQ(view_->message(), "GAME OVER");
  EXPECT_EQ(renderer_->stats().strings, strings + 2);
  EXPECT_LE(renderer_->stats().draw_calls, 16u);
  view_->clear_message();
  draw_frame();
  EXPECT_EQ(renderer_->stats().strings, strings);
}

TEST_F(ViewTest, CameraFollowsThePlayerAndDrawsItInTheMiddle) {
  // The player's ship is drawn at the centre of the screen: a bright pixel there, while the
  // corner (only stars, maybe) stays dark on average.
  draw_frame();
  ASSERT_TRUE(renderer_->begin_frame({8, 8, 16, 255}));
  view_->draw(*sim_);
  ASSERT_TRUE(renderer_->end_frame());
  SDL_Rect centre{View::kWidth / 2 - 4, View::kHeight / 2 - 4, 8, 8};
  u32 pixels[64] = {};
  ASSERT_EQ(SDL_RenderReadPixels(renderer_->sdl(), &centre, SDL_PIXELFORMAT_ARGB8888, pixels, 32),
            0)
      << SDL_GetError();
  u32 bright = 0;
  for (const u32 p : pixels) {
    const u32 g = (p >> 8) & 0xFF;
    if (g > 100) ++bright;
  }
  EXPECT_GT(bright, 16u);
}

}  // namespace
}  // namespace keel::voidfarer
