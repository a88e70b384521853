// The fight drawn headless (SDL's software renderer on the dummy driver) from the pictures' pack
// (built by the rumble_builds_pack fixture): names, health, the clock, the log, the banners, the
// animation each fighter is drawn in; a screenshot is kept for a look.
#include "view.h"

#include "keel/assets/font.h"
#include "keel/assets/texture.h"
#include "keel/platform/image.h"
#include "keel/platform/window.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>

namespace rumble {
namespace {

const std::string kPicturesDataDir = std::string(KEEL_SOURCE_DIR) + "/games/rumble/data";

class RumbleView : public ::testing::Test {
 protected:
  void SetUp() override {
    keel::assets::register_texture_type(loader_);
    keel::assets::register_font_type(loader_);
    auto pack = loader_.load(RUMBLE_PACK);
    ASSERT_TRUE(pack) << pack.error().to_string();
    pack_ = std::move(*pack);
    auto window = keel::platform::Window::open({.title = "rumble_view_test",
                                                .width = View::kWidth,
                                                .height = View::kHeight,
                                                .fullscreen = false,
                                                .vsync = false,
                                                .headless = true,
                                                .software = true});
    ASSERT_TRUE(window) << window.error().to_string();
    window_ = std::move(*window);
    renderer_ = std::make_unique<keel::platform::Renderer>(window_->sdl_renderer());
    auto view = View::create(*renderer_, pack_);
    ASSERT_TRUE(view) << view.error().to_string();
    view_ = std::move(*view);
  }

  std::unique_ptr<Match> match(std::string script = {}) {
    MatchSetup setup = MatchSetup::from_data_dir(kPicturesDataDir);
    setup.seed = 7;
    if (!script.empty()) {
      auto inputs = ScriptedInput::parse(std::move(script), "inputs", setup.fighters);
      EXPECT_TRUE(inputs) << inputs.error().to_string();
      setup.inputs = std::make_unique<ScriptedInput>(std::move(*inputs));
    }
    auto m = Match::create(std::move(setup));
    EXPECT_TRUE(m) << m.error().to_string();
    return std::move(*m);
  }

  void draw(const Match& m) {
    ASSERT_TRUE(renderer_->begin_frame({20, 18, 30, 255}));
    view_->draw(m);
    const keel::Status done = renderer_->end_frame();
    ASSERT_TRUE(done) << done.error().to_string();
  }

  bool drew(std::string_view text) const {
    const auto lines = view_->strings();
    return std::any_of(lines.begin(), lines.end(),
                       [&](const std::string& l) { return l.find(text) != std::string::npos; });
  }

  keel::pack::Loader loader_;
  keel::pack::LoadedPack pack_;
  std::unique_ptr<keel::platform::Window> window_;
  std::unique_ptr<keel::platform::Renderer> renderer_;
  std::unique_ptr<View> view_;
};

TEST_F(RumbleView, TheFirstFrameShowsTheFightersAndTheBanner) {
  auto m = match();
  draw(*m);
  EXPECT_TRUE(drew("FIGHT!"));
  EXPECT_TRUE(drew("Hero  100"));
  EXPECT_TRUE(drew("Brute  120"));
  EXPECT_TRUE(drew("0:00"));
  EXPECT_FALSE(drew("K.O."));
  EXPECT_EQ(view_->alias_of(0), "Stance");
  EXPECT_EQ(view_->alias_of(1), "Stance");
  // The fighters, the arena and the bars are sprites; a handful of batches at most.
  EXPECT_GT(renderer_->stats().sprites, 2u * 12u);
  EXPECT_LE(renderer_->stats().draw_calls, 8u);
}

TEST_F(RumbleView, FightersAreDrawnInTheAnimationTheirFsmPlays) {
  auto m = match("Hold(0, 40, \"Hero\", \"forward\");\nPress(41, \"Hero\", \"attack\");\n");
  for (int i = 0; i < 45; ++i) m->step();
  draw(*m);
  EXPECT_EQ(view_->alias_of(0), "Attack");  // the jab (hero_jab, the alias the FSM named)
  EXPECT_EQ(view_->alias_of(1), "Stance");
  EXPECT_TRUE(drew("Hero plays hero_jab as Attack"));  // the log's last lines
}

TEST_F(RumbleView, TheEndShowsTheResult) {
  auto m = match();
  m->run(7200);
  ASSERT_TRUE(m->over());
  draw(*m);
  EXPECT_TRUE(drew("K.O.!") || drew("TIME"));
  ASSERT_TRUE(m->winner().has_value());
  EXPECT_TRUE(drew(m->fighter(*m->winner()).name() + " wins"));
  EXPECT_FALSE(drew("FIGHT!"));
  // Kept for a look: build/debug/games/rumble/test_tmp/rumble_end.png.
  ASSERT_TRUE(renderer_->begin_frame({20, 18, 30, 255}));
  view_->draw(*m);
  ASSERT_TRUE(renderer_->end_frame());
  auto shot = window_->screenshot();
  ASSERT_TRUE(shot) << shot.error().to_string();
  std::filesystem::create_directories(KEEL_TEST_TMPDIR);
  EXPECT_TRUE(
      keel::platform::write_png(std::filesystem::path(KEEL_TEST_TMPDIR) / "rumble_end.png", *shot));
}

TEST_F(RumbleView, APackWithoutTheFontsIsRefusedByName) {
  const keel::pack::LoadedPack empty;
  auto view = View::create(*renderer_, empty);
  ASSERT_FALSE(view);
  EXPECT_NE(view.error().message().find("disc"), std::string::npos) << view.error().to_string();
}

}  // namespace
}  // namespace rumble
