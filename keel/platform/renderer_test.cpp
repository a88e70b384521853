#include "keel/platform/renderer.h"

#include "keel/platform/detail/pixels.h"
#include "keel/platform/testing/test_assets.h"

#include <gtest/gtest.h>

#include <array>
#include <vector>

namespace keel::platform {
namespace {

using testing::open_test_window;
using testing::pixel;
using testing::solid_texture;

struct Fixture {
  std::unique_ptr<Window> window = open_test_window();
  Renderer renderer{window ? window->sdl_renderer() : nullptr};
  ByteBuffer red_chunk = solid_texture(4, 4, 0xFFFF0000u);
  ByteBuffer blue_chunk = solid_texture(4, 4, 0xFF0000FFu);
  TextureId red = add(red_chunk);
  TextureId blue = add(blue_chunk);

  TextureId add(const ByteBuffer& chunk) {
    Result<assets::Texture> view = assets::Texture::view(chunk);
    EXPECT_TRUE(view.has_value());
    Result<TextureId> id = renderer.add_texture(*view);
    EXPECT_TRUE(id.has_value()) << (id ? "" : id.error().to_string());
    return id ? *id : TextureId{};
  }
};

TEST(Batching, NSpritesWithOneTextureAndBlendAreOneBatch) {
  Fixture f;
  ASSERT_TRUE(f.window);
  ASSERT_TRUE(f.renderer.begin_frame());
  for (int i = 0; i < 500; ++i) {
    f.renderer.sprite({.texture = f.red,
                       .position = {static_cast<f32>(i % 60), 10},
                       .rotation = 0.1f * static_cast<f32>(i)});
  }
  ASSERT_TRUE(f.renderer.end_frame());
  EXPECT_EQ(f.renderer.stats().draw_calls, 1u);
  EXPECT_EQ(f.renderer.stats().sprites, 500u);
  EXPECT_EQ(f.renderer.stats().vertices, 2000u);
}

TEST(Batching, ATextureOrBlendChangeStartsANewBatch) {
  Fixture f;
  ASSERT_TRUE(f.window);
  ASSERT_TRUE(f.renderer.begin_frame());
  f.renderer.sprite({.texture = f.red});
  f.renderer.sprite({.texture = f.red});
  f.renderer.sprite({.texture = f.blue});                            // texture change
  f.renderer.sprite({.texture = f.blue, .blend = BlendMode::kAdd});  // blend change
  f.renderer.sprite({.texture = f.blue, .blend = BlendMode::kAdd});
  ASSERT_TRUE(f.renderer.end_frame());
  EXPECT_EQ(f.renderer.stats().draw_calls, 3u);
}

TEST(ShadowState, CountsRequestedAndAppliedChanges) {
  Fixture f;
  ASSERT_TRUE(f.window);
  const auto frame = [&] {
    EXPECT_TRUE(f.renderer.begin_frame());
    for (int i = 0; i < 4; ++i) {  // red, blue, red, blue: four batches
      f.renderer.sprite({.texture = i % 2 == 0 ? f.red : f.blue});
    }
    EXPECT_TRUE(f.renderer.end_frame());
    return f.renderer.stats().states;
  };
  const StateCounts first = frame();
  EXPECT_EQ(first.requested, 12u);  // 3 fields per draw, 4 draws
  // First frame: 4 binds + blend and filter of each texture once = 8; 2 states prepared late.
  EXPECT_EQ(first.applied, 8u);
  EXPECT_EQ(first.misses, 2u);
  const StateCounts second = frame();
  EXPECT_EQ(second.requested, 12u);
  EXPECT_EQ(second.applied, 4u);  // only the texture binds differ from the shadow state
  EXPECT_EQ(second.misses, 0u);
}

TEST(ShadowState, PrewarmAvoidsMisses) {
  Fixture f;
  ASSERT_TRUE(f.window);
  const std::array ids{f.red, f.blue};
  f.renderer.prewarm(ids);
  ASSERT_TRUE(f.renderer.begin_frame());
  f.renderer.sprite({.texture = f.red, .blend = BlendMode::kAdd});
  f.renderer.sprite({.texture = f.blue});
  ASSERT_TRUE(f.renderer.end_frame());
  EXPECT_EQ(f.renderer.stats().states.misses, 0u);
}

TEST(ShadowState, DnaCodesMatchTheLayout) {
  const RenderState s{77, BlendMode::kMultiply, Filter::kNearest};
  const std::array<u32, 3> genes{77, 3, 0};
  Result<u32> encoded = render_state_layout().encode(genes);
  ASSERT_TRUE(encoded.has_value());
  EXPECT_EQ(*encoded, state_dna(s));
  EXPECT_EQ(state_of_dna(state_dna(s)), s);
  EXPECT_TRUE(render_state_layout().validate(state_dna({4095, BlendMode::kAdd, Filter::kLinear})));
}

TEST(Rendering, ASpriteAppearsWhereTheCameraPutsIt) {
  Fixture f;
  ASSERT_TRUE(f.window);
  // World (100, 100) at the centre of the 64x64 viewport, zoom 2: an 8x8 world sprite is 16x16.
  f.renderer.set_camera({.position = {100, 100}, .zoom = 2, .viewport = {64, 64}});
  ASSERT_TRUE(f.renderer.begin_frame({0, 0, 0, 255}));
  f.renderer.sprite({.texture = f.red, .position = {100, 100}, .size = {8, 8}});
  ASSERT_TRUE(f.renderer.end_frame());
  Result<Image> shot = f.window->screenshot();
  ASSERT_TRUE(shot.has_value());
  EXPECT_EQ((pixel(*shot, 32, 32)), (std::array<u8, 4>{255, 0, 0, 255}));
  EXPECT_EQ((pixel(*shot, 40 - 1, 40 - 1)), (std::array<u8, 4>{255, 0, 0, 255}));
  EXPECT_EQ((pixel(*shot, 42, 32)), (std::array<u8, 4>{0, 0, 0, 255}));  // outside the 16 px
  EXPECT_EQ((pixel(*shot, 5, 5)), (std::array<u8, 4>{0, 0, 0, 255}));
}

TEST(Camera, WorldToScreenAndBack) {
  const Camera c{.position = {10, 20}, .zoom = 4, .rotation = 0.5f, .viewport = {800, 600}};
  const spatial::Vec2 centre = c.world_to_screen({10, 20});
  EXPECT_FLOAT_EQ(centre.x, 400);
  EXPECT_FLOAT_EQ(centre.y, 300);
  const Camera plain{.position = {0, 0}, .zoom = 2, .viewport = {100, 100}};
  const spatial::Vec2 s = plain.world_to_screen({5, -5});
  EXPECT_FLOAT_EQ(s.x, 60);
  EXPECT_FLOAT_EQ(s.y, 40);
  for (const spatial::Vec2 p :
       {spatial::Vec2{0, 0}, spatial::Vec2{-30, 7}, spatial::Vec2{123, 456}}) {
    const spatial::Vec2 back = c.screen_to_world(c.world_to_screen(p));
    EXPECT_NEAR(back.x, p.x, 1e-3);
    EXPECT_NEAR(back.y, p.y, 1e-3);
  }
}

TEST(Rendering, TextIsOneDrawPerStringAndParticlesOneBatch) {
  Fixture f;
  ASSERT_TRUE(f.window);
  const testing::TestFont tf = testing::test_font();
  Result<assets::FontView> font = assets::FontView::parse(tf.font_chunk);
  Result<assets::Texture> atlas = assets::Texture::view(tf.atlas_chunk);
  ASSERT_TRUE(font && atlas);
  Result<FontId> id = f.renderer.add_font(*font, *atlas);
  ASSERT_TRUE(id.has_value());
  std::vector<spatial::Vec2> positions(1000, {0, 0});
  std::vector<Color> colours(1000, Color{0, 255, 0, 255});
  std::vector<f32> sizes(1000, 2.0f);
  ASSERT_TRUE(f.renderer.begin_frame());
  f.renderer.particles(f.red, positions, colours, sizes, BlendMode::kAdd);
  const f32 end = f.renderer.text(*id, "AB C", {2, 20}, {255, 255, 255, 255});
  ASSERT_TRUE(f.renderer.end_frame());
  EXPECT_EQ(f.renderer.stats().draw_calls, 2u);
  EXPECT_EQ(f.renderer.stats().particles, 1000u);
  EXPECT_EQ(f.renderer.stats().strings, 1u);
  EXPECT_FLOAT_EQ(end, 2 + 9 + 9 + 8 + 9);
  Result<Image> shot = f.window->screenshot();
  ASSERT_TRUE(shot.has_value());
  EXPECT_EQ((pixel(*shot, 4, 15)), (std::array<u8, 4>{255, 255, 255, 255}));  // inside 'A'
  EXPECT_EQ((pixel(*shot, 10, 15)), (std::array<u8, 4>{0, 0, 0, 255}));       // between glyphs
}

TEST(Pixels, DecodesBc1Blocks) {
  // c0 = pure red (0xF800) > c1 = pure blue (0x001F): four-colour mode; indices 0,1,2,3 per row.
  const std::array<u8, 8> block{0x00, 0xF8, 0x1F, 0x00, 0xE4, 0xE4, 0xE4, 0xE4};
  ByteBuffer chunk =
      testing::texture_chunk(4, 4, assets::TextureFormat::kBC1, std::as_bytes(std::span(block)));
  Result<assets::Texture> view = assets::Texture::view(chunk);
  ASSERT_TRUE(view.has_value()) << view.error().to_string();
  Result<std::vector<u32>> px = detail::to_argb(*view);
  ASSERT_TRUE(px.has_value());
  EXPECT_EQ((*px)[0], 0xFFFF0000u);
  EXPECT_EQ((*px)[1], 0xFF0000FFu);
  EXPECT_EQ((*px)[2], 0xFFAA0055u);  // 2/3 red + 1/3 blue
  EXPECT_EQ((*px)[3], 0xFF5500AAu);
}

}  // namespace
}  // namespace keel::platform
