// A Voidfarer-sized frame on SDL's software renderer (dummy video driver, 1280x720): 2,000
// sprites (one atlas, four cells), 20,000 additive particles and four HUD strings, drawn
// through keel::platform::Renderer (batched SDL_RenderGeometry, shadow state) against the
// same content drawn the plain SDL way: SDL_RenderCopyEx per sprite, SDL_RenderFillRectF per
// particle, with texture colour and blend set per call. Both include SDL_RenderPresent, where the
// software renderer rasterises. After the run: the frame time as a share of 16.7 ms, draw calls
// per frame and render state changes per frame without and with the shadow state.
#include "bench_support.h"
#include "keel/assets/font.h"
#include "keel/assets/texture.h"
#include "keel/platform/renderer.h"
#include "keel/platform/window.h"

#include <fmt/format.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <memory>
#include <vector>

namespace {

using namespace keel;
using namespace keel::platform;
using spatial::Vec2;

constexpr int kWidth = 1280;
constexpr int kHeight = 720;
constexpr usize kSprites = 2000;
constexpr usize kParticles = 20000;

ByteBuffer chunk(u32 w, u32 h, assets::TextureFormat format, ByteSpan pixels) {
  ByteBuffer out(32);
  const auto put = [&](usize at, u32 v, u32 bytes) {
    for (u32 i = 0; i < bytes; ++i) out[at + i] = static_cast<std::byte>((v >> (8 * i)) & 0xFF);
  };
  put(0, assets::kTextureMagic, 4);
  put(4, assets::kTextureVersion, 2);
  put(6, assets::kTextureHeaderSize, 2);
  put(12, w, 4);
  put(16, h, 4);
  put(20, static_cast<u32>(format), 1);
  put(21, 1, 1);
  put(22, 1, 1);
  put(23, 1, 1);
  put(28, static_cast<u32>(pixels.size()), 4);
  out.reserve(out.size() + pixels.size());
  // Byte by byte: GCC 12 at -O3 reports a false -Warray-bounds for insert() here.
  for (const std::byte b : pixels) out.push_back(b);
  return out;
}

// Everything both variants draw, made once.
struct Scene {
  std::unique_ptr<Window> window;
  ByteBuffer atlas_chunk;   // 64x64 A8R8G8B8, four 32x32 cells
  ByteBuffer glyphs_chunk;  // 16x12 A8 font atlas
  ByteBuffer font_chunk;
  std::vector<Vec2> sprite_pos;
  std::vector<f32> sprite_angle;
  std::vector<Vec2> particle_pos;
  std::vector<Color> particle_color;
  std::vector<f32> particle_size;

  Scene() {
    WindowOptions options;
    options.width = kWidth;
    options.height = kHeight;
    options.headless = true;
    options.software = true;
    options.vsync = false;
    Result<std::unique_ptr<Window>> w = Window::open(options);
    if (!w) {
      std::fprintf(stderr, "%s\n", w.error().to_string().c_str());
      std::abort();
    }
    window = std::move(*w);
    ByteBuffer px(64 * 64 * 4);
    for (u32 y = 0; y < 64; ++y) {
      for (u32 x = 0; x < 64; ++x) {
        const u32 cell = (y / 32) * 2 + x / 32;
        const bool inside =
            ((x % 32) - 16) * ((x % 32) - 16) + ((y % 32) - 16) * ((y % 32) - 16) < 196;
        const u32 argb = inside ? (0xFF000000u | (0x40u << (cell * 6 % 24)) | 0x808080u) : 0;
        for (u32 c = 0; c < 4; ++c) {
          px[(y * 64 + x) * 4 + c] = static_cast<std::byte>((argb >> (8 * c)) & 0xFF);
        }
      }
    }
    atlas_chunk = chunk(64, 64, assets::TextureFormat::kA8R8G8B8, px);
    assets::FontData font;
    font.atlas_width = 16;
    font.atlas_height = 12;
    font.pixel_size = 12;
    font.cell_height = 12;
    font.baseline = 10;
    font.line_height = 14;
    font.glyphs.push_back({32, 0, 0, 0, 12, 0, 8});
    for (u32 c = 33; c < 127; ++c) font.glyphs.push_back({c, 0, 0, 8, 12, 0, 1});
    font_chunk = assets::encode_font(font);
    ByteBuffer a8(16 * 12, std::byte{255});
    glyphs_chunk = chunk(16, 12, assets::TextureFormat::kA8, a8);
    u32 seed = 12345;
    const auto rnd = [&] {
      seed = seed * 1664525u + 1013904223u;
      return static_cast<f32>(seed >> 8) / 16777216.0f;
    };
    for (usize i = 0; i < kSprites; ++i) {
      sprite_pos.push_back({rnd() * kWidth - kWidth / 2.0f, rnd() * kHeight - kHeight / 2.0f});
      sprite_angle.push_back(rnd() * 6.28f);
    }
    for (usize i = 0; i < kParticles; ++i) {
      particle_pos.push_back({rnd() * kWidth - kWidth / 2.0f, rnd() * kHeight - kHeight / 2.0f});
      particle_color.push_back({255, static_cast<u8>(rnd() * 255), 64, 200});
      particle_size.push_back(2 + rnd() * 2);
    }
  }
};

Scene& scene() {
  static Scene s;
  return s;
}

const std::array<const char*, 4> kHud = {"HULL 100%", "SCORE 0012500", "WAVE 7",
                                         "FPS 60  ENEMIES 2000"};

FrameStats g_keel_stats;

// state.range(0) == 0: sprites unrotated (SDL's software renderer blits axis-aligned quads as
// rectangles; rotated ones go through its per-triangle rasteriser).
void BM_KeelRendererFrame(benchmark::State& state) {
  const bool rotate = state.range(0) != 0;
  Scene& s = scene();
  Renderer renderer(s.window->sdl_renderer());
  const assets::Texture atlas = *assets::Texture::view(s.atlas_chunk);
  const assets::Texture glyphs = *assets::Texture::view(s.glyphs_chunk);
  const assets::FontView font = *assets::FontView::parse(s.font_chunk);
  const TextureId sprites = *renderer.add_texture(atlas);
  const FontId hud = *renderer.add_font(font, glyphs);
  const std::array level{sprites, TextureId{0}};
  renderer.prewarm(level);
  renderer.set_camera({.viewport = {kWidth, kHeight}});
  for (auto _ : state) {
    (void)renderer.begin_frame({0, 0, 16, 255});
    for (usize i = 0; i < kSprites; ++i) {
      const f32 cu = static_cast<f32>(i % 2) * 0.5f;
      const f32 cv = static_cast<f32>((i / 2) % 2) * 0.5f;
      renderer.sprite({.texture = sprites,
                       .position = s.sprite_pos[i],
                       .size = {24, 24},
                       .rotation = rotate ? s.sprite_angle[i] : 0.0f,
                       .uv = {cu, cv, cu + 0.5f, cv + 0.5f}});
    }
    renderer.particles(TextureId{0}, s.particle_pos, s.particle_color, s.particle_size,
                       BlendMode::kAdd);
    for (usize i = 0; i < kHud.size(); ++i) {
      renderer.text(hud, kHud[i], {16, 24 + 16 * static_cast<f32>(i)});
    }
    (void)renderer.end_frame();
    SDL_RenderPresent(s.window->sdl_renderer());
  }
  if (rotate) g_keel_stats = renderer.stats();
}
BENCHMARK(BM_KeelRendererFrame)->Arg(1)->Arg(0)->Unit(benchmark::kMillisecond);

u32 g_plain_calls = 0;
u32 g_plain_states = 0;

// The same frame drawn call by call, as an SDL program without a batching layer would.
void BM_PlainSdlFrame(benchmark::State& state) {
  Scene& s = scene();
  SDL_Renderer* r = s.window->sdl_renderer();
  SDL_Texture* atlas =
      SDL_CreateTexture(r, SDL_PIXELFORMAT_ARGB8888, SDL_TEXTUREACCESS_STATIC, 64, 64);
  SDL_UpdateTexture(atlas, nullptr, s.atlas_chunk.data() + 32, 64 * 4);
  SDL_Texture* glyph =
      SDL_CreateTexture(r, SDL_PIXELFORMAT_ARGB8888, SDL_TEXTUREACCESS_STATIC, 8, 12);
  std::vector<u32> white(8 * 12, 0xFFFFFFFFu);
  SDL_UpdateTexture(glyph, nullptr, white.data(), 8 * 4);
  u32 calls = 0;
  u32 states = 0;
  for (auto _ : state) {
    calls = states = 0;
    SDL_SetRenderDrawColor(r, 0, 0, 16, 255);
    SDL_RenderClear(r);
    for (usize i = 0; i < kSprites; ++i) {
      const int cx = static_cast<int>(i % 2) * 32;
      const int cy = static_cast<int>((i / 2) % 2) * 32;
      const SDL_Rect src{cx, cy, 32, 32};
      const Vec2 c = s.sprite_pos[i] + Vec2{kWidth / 2.0f, kHeight / 2.0f};
      const SDL_FRect dst{c.x - 12, c.y - 12, 24, 24};
      SDL_SetTextureBlendMode(atlas, SDL_BLENDMODE_BLEND);
      SDL_SetTextureColorMod(atlas, 255, 255, 255);
      SDL_RenderCopyExF(r, atlas, &src, &dst, s.sprite_angle[i] * 57.2958f, nullptr, SDL_FLIP_NONE);
      states += 3;
      ++calls;
    }
    SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_ADD);
    for (usize i = 0; i < kParticles; ++i) {
      const Color col = s.particle_color[i];
      const Vec2 c = s.particle_pos[i] + Vec2{kWidth / 2.0f, kHeight / 2.0f};
      const f32 h = s.particle_size[i] * 0.5f;
      SDL_SetRenderDrawColor(r, col.r, col.g, col.b, col.a);
      const SDL_FRect rect{c.x - h, c.y - h, 2 * h, 2 * h};
      SDL_RenderFillRectF(r, &rect);
      states += 2;
      ++calls;
    }
    for (usize l = 0; l < kHud.size(); ++l) {
      SDL_SetTextureBlendMode(glyph, SDL_BLENDMODE_BLEND);
      states += 1;
      f32 x = 16;
      for (const char* ch = kHud[l]; *ch != 0; ++ch, x += 9) {
        if (*ch == ' ') continue;
        const SDL_FRect dst{x, 14 + 16 * static_cast<f32>(l), 8, 12};
        SDL_RenderCopyF(r, glyph, nullptr, &dst);
        ++calls;
      }
    }
    SDL_RenderPresent(r);
  }
  g_plain_calls = calls;
  g_plain_states = states;
  SDL_DestroyTexture(atlas);
  SDL_DestroyTexture(glyph);
}
BENCHMARK(BM_PlainSdlFrame)->Unit(benchmark::kMillisecond);

KEEL_BENCH_RATIO(
    "render frame: Keel batched renderer vs plain SDL calls (2k sprites, 20k "
    "particles, HUD, software 1280x720)",
    "BM_KeelRendererFrame/1", "BM_PlainSdlFrame");

}  // namespace

int main(int argc, char** argv) {
  const int rc = keel::bench::run_main(argc, argv);
  const double keel_ns = keel::bench::measured_ns("BM_KeelRendererFrame/1");
  const double unrotated_ns = keel::bench::measured_ns("BM_KeelRendererFrame/0");
  const double plain_ns = keel::bench::measured_ns("BM_PlainSdlFrame");
  if (keel_ns > 0) {
    fmt::print(
        "render frame (Keel): {:.2f} ms = {:.0f}% of a 16.7 ms frame; {} draw calls "
        "({} sprites, {} particles, {} strings); render state changes per frame: {} "
        "without the shadow state, {} with it\n",
        keel_ns / 1e6, keel_ns / 1e6 / 16.667 * 100, g_keel_stats.draw_calls, g_keel_stats.sprites,
        g_keel_stats.particles, g_keel_stats.strings, g_keel_stats.states.requested,
        g_keel_stats.states.applied);
  }
  if (unrotated_ns > 0) {
    fmt::print("render frame (Keel, sprites unrotated): {:.2f} ms = {:.0f}% of a 16.7 ms frame\n",
               unrotated_ns / 1e6, unrotated_ns / 1e6 / 16.667 * 100);
  }
  if (plain_ns > 0) {
    fmt::print(
        "render frame (plain SDL): {:.2f} ms = {:.0f}% of a 16.7 ms frame; {} draw calls; "
        "{} state changes\n",
        plain_ns / 1e6, plain_ns / 1e6 / 16.667 * 100, g_plain_calls, g_plain_states);
  }
  return rc;
}
