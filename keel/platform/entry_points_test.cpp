// EntryPoints.Platform*: bad caller input gives errors, never a crash.
#include "keel/platform/input.h"
#include "keel/platform/overlay.h"
#include "keel/platform/renderer.h"
#include "keel/platform/testing/test_assets.h"
#include "keel/platform/window.h"
#include "keel/profile/profiler.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace keel::platform {
namespace {

TEST(EntryPoints, PlatformWindowZeroOrHugeSizeIsAnError) {
  for (const auto& [w, h] :
       {std::pair{0, 720}, std::pair{1280, 0}, std::pair{-5, 5}, std::pair{20000, 10}}) {
    WindowOptions options;
    options.width = w;
    options.height = h;
    options.headless = true;
    Result<std::unique_ptr<Window>> window = Window::open(options);
    ASSERT_FALSE(window.has_value());
    EXPECT_EQ(window.error().code(), ErrorCode::kInvalidArgument);
  }
}

TEST(EntryPoints, PlatformRendererWithoutDeviceReportsEveryCall) {
  Renderer renderer(nullptr);
  EXPECT_FALSE(renderer.begin_frame());
  renderer.sprite({});
  renderer.line({0, 0}, {1, 1}, {});
  EXPECT_FALSE(renderer.end_frame());
  const ByteBuffer chunk = testing::solid_texture(2, 2, 0xFFFFFFFFu);
  EXPECT_FALSE(renderer.add_texture(*assets::Texture::view(chunk)));
}

TEST(EntryPoints, PlatformRendererDrawBeforeBeginFrame) {
  auto window = testing::open_test_window();
  ASSERT_TRUE(window);
  Renderer renderer(window->sdl_renderer());
  renderer.sprite({});
  EXPECT_FALSE(renderer.end_frame());  // no frame begun
  ASSERT_TRUE(renderer.begin_frame());
  ASSERT_TRUE(renderer.end_frame());  // the stray draw is forgotten with the new frame
  renderer.circle({0, 0}, 5, {});
  const Status s = renderer.begin_frame();
  EXPECT_TRUE(s);
}

TEST(EntryPoints, PlatformRendererMissingTextureOrFontOrBadSpans) {
  auto window = testing::open_test_window();
  ASSERT_TRUE(window);
  Renderer renderer(window->sdl_renderer());
  ASSERT_TRUE(renderer.begin_frame());
  renderer.sprite({.texture = {42}});
  Status s = renderer.end_frame();
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code(), ErrorCode::kNotFound);
  EXPECT_NE(s.error().message().find("texture 42"), std::string::npos);

  ASSERT_TRUE(renderer.begin_frame());
  renderer.text(FontId{}, "hello", {0, 0});
  s = renderer.end_frame();
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().message().find("font"), std::string::npos);

  const std::vector<spatial::Vec2> positions(3);
  const std::vector<Color> colours(2);
  const std::vector<f32> sizes(3);
  ASSERT_TRUE(renderer.begin_frame());
  renderer.particles({}, positions, colours, sizes);
  s = renderer.end_frame();
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(renderer.stats().draw_calls, 0u);
}

TEST(EntryPoints, PlatformRendererFontWithTheWrongAtlas) {
  auto window = testing::open_test_window();
  ASSERT_TRUE(window);
  Renderer renderer(window->sdl_renderer());
  const testing::TestFont tf = testing::test_font();
  const ByteBuffer wrong = testing::solid_texture(8, 8, 0xFFFFFFFFu);
  Result<assets::FontView> font = assets::FontView::parse(tf.font_chunk);
  ASSERT_TRUE(font.has_value());
  EXPECT_FALSE(renderer.add_font(*font, *assets::Texture::view(wrong)));
}

TEST(EntryPoints, PlatformInputUnknownActionsReadAsIdle) {
  Input input;
  EXPECT_TRUE(input.apply_bindings());  // no actions: fine
  EXPECT_FALSE(input.down("nothing"));
  EXPECT_FALSE(input.pressed("nothing"));
  EXPECT_TRUE(input.bindings("nothing").empty());
  const std::vector<InputEvent> stray_up{{Device::kKey, 44, false}};
  input.update(stray_up);  // an up without a down is ignored
  settings::Settings settings;
  input.add_action("fire", {"key:Space"});
  ASSERT_TRUE(input.add_settings(settings));
  const Status again = input.add_settings(settings);  // names taken: an error, no assert
  ASSERT_FALSE(again);
  EXPECT_EQ(again.error().code(), ErrorCode::kAlreadyExists);
}

TEST(EntryPoints, PlatformOverlayKeysOnAnEmptyProfiler) {
  profile::Profiler profiler;
  ProfilerOverlay overlay(profiler);
  const std::vector<InputEvent> keys{{Device::kKey, SDL_SCANCODE_DOWN, true},
                                     {Device::kKey, SDL_SCANCODE_RIGHT, true},
                                     {Device::kKey, SDL_SCANCODE_LEFT, true},
                                     {Device::kKey, SDL_SCANCODE_F1, true}};
  overlay.handle(keys);
  EXPECT_FALSE(overlay.visible());
  EXPECT_EQ(overlay.selected(), 0u);
  EXPECT_EQ(overlay.lines().size(), 1u);  // the build stamp only
}

}  // namespace
}  // namespace keel::platform
