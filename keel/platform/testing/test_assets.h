// Texture and font chunks made in memory for the platform tests (no pack, no build tool), and a
// small headless software window.
#pragma once

#include "keel/assets/font.h"
#include "keel/assets/texture.h"
#include "keel/core/bytes.h"
#include "keel/core/types.h"
#include "keel/platform/window.h"

#include <gtest/gtest.h>

#include <memory>
#include <vector>

namespace keel::platform::testing {

// A texture chunk: 32-byte header + level 0 (one level), `pixels` already in `format`'s bytes.
inline ByteBuffer texture_chunk(u32 w, u32 h, assets::TextureFormat format, ByteSpan pixels,
                                assets::TextureFilter filter = assets::TextureFilter::kPoint) {
  ByteBuffer out(32);
  const auto put = [&](usize at, u32 v, u32 bytes) {
    for (u32 i = 0; i < bytes; ++i) out[at + i] = static_cast<std::byte>((v >> (8 * i)) & 0xFF);
  };
  put(0, assets::kTextureMagic, 4);
  put(4, assets::kTextureVersion, 2);
  put(6, assets::kTextureHeaderSize, 2);
  put(8, 0, 4);
  put(12, w, 4);
  put(16, h, 4);
  put(20, static_cast<u32>(format), 1);
  put(21, 1, 1);
  put(22, static_cast<u32>(filter), 1);
  put(23, static_cast<u32>(assets::TextureWrap::kClamp), 1);
  put(24, 0, 4);
  put(28, static_cast<u32>(pixels.size()), 4);
  out.reserve(out.size() + pixels.size());
  // Byte by byte: GCC 12 at -O3 reports a false -Warray-bounds for insert() here.
  for (const std::byte b : pixels) out.push_back(b);
  return out;
}

// A w x h A8R8G8B8 chunk of one colour (0xAARRGGBB).
inline ByteBuffer solid_texture(u32 w, u32 h, u32 argb) {
  ByteBuffer px(static_cast<usize>(w) * h * 4);
  for (usize i = 0; i < px.size(); i += 4) {
    for (u32 c = 0; c < 4; ++c) px[i + c] = static_cast<std::byte>((argb >> (8 * c)) & 0xFF);
  }
  return texture_chunk(w, h, assets::TextureFormat::kA8R8G8B8, px);
}

// A font whose every glyph from '!' to '~' is an 8x12 solid cell of a 16x12 A8 atlas (left
// half opaque), and the space an empty 8-pixel advance.
struct TestFont {
  ByteBuffer font_chunk;
  ByteBuffer atlas_chunk;
};
inline TestFont test_font() {
  assets::FontData data;
  data.atlas_width = 16;
  data.atlas_height = 12;
  data.pixel_size = 12;
  data.cell_height = 12;
  data.baseline = 10;
  data.line_height = 14;
  data.glyphs.push_back({32, 0, 0, 0, 12, 0, 8});
  for (u32 c = 33; c < 127; ++c) data.glyphs.push_back({c, 0, 0, 8, 12, 0, 1});
  ByteBuffer atlas(16 * 12);
  for (u32 y = 0; y < 12; ++y) {
    for (u32 x = 0; x < 8; ++x) atlas[y * 16 + x] = std::byte{255};
  }
  return {assets::encode_font(data), texture_chunk(16, 12, assets::TextureFormat::kA8, atlas)};
}

inline std::unique_ptr<Window> open_test_window(s32 w = 64, s32 h = 64) {
  WindowOptions options;
  options.width = w;
  options.height = h;
  options.headless = true;
  options.software = true;
  options.vsync = false;
  Result<std::unique_ptr<Window>> window = Window::open(options);
  EXPECT_TRUE(window.has_value()) << (window ? "" : window.error().to_string());
  return window ? std::move(*window) : nullptr;
}

// RGBA of pixel (x, y).
inline std::array<u8, 4> pixel(const Image& image, u32 x, u32 y) {
  const usize at = (static_cast<usize>(y) * image.width + x) * 4;
  return {static_cast<u8>(image.rgba[at]), static_cast<u8>(image.rgba[at + 1]),
          static_cast<u8>(image.rgba[at + 2]), static_cast<u8>(image.rgba[at + 3])};
}

}  // namespace keel::platform::testing
