// Test helpers shared by the pack tests, the fuzz target and the benchmark (not installed).
#pragma once

#include "keel/pack/loader.h"
#include "keel/pack/setup.h"
#include "keel/pack/writer.h"

#include <cstddef>
#include <cstring>
#include <span>
#include <string_view>
#include <vector>

namespace keel::pack::testing {

inline constexpr u16 kMetaBlock = 0;   // the book's example: metadata
inline constexpr u16 kVideoBlock = 3;  // the book's example: video memory
inline constexpr u16 kVertexBlock = 5;

inline std::vector<std::byte> bytes_of(std::string_view text) {
  std::vector<std::byte> out(text.size());
  if (!text.empty()) std::memcpy(out.data(), text.data(), text.size());
  return out;
}

// Deterministic bytes that differ per seed (and compress only a little).
inline std::vector<std::byte> pattern(usize size, u32 seed) {
  std::vector<std::byte> out(size);
  u32 x = seed * 2654435761u + 12345u;
  for (usize i = 0; i < size; ++i) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    out[i] = static_cast<std::byte>((x & 0x0F) | ((i & 1) << 6));
  }
  return out;
}

template <typename T>
std::span<const std::byte> as_bytes_of(const T& value) {
  return std::as_bytes(std::span<const T, 1>(&value, 1));
}

// A texture as a build tool would write it: header chunk (primary) pointing at a pixel chunk.
struct TextureHeader {
  u32 width = 0;
  u32 height = 0;
  PackPtr<std::byte> pixels;
};
static_assert(sizeof(TextureHeader) == 16);

inline LocatorId add_texture(PackWriter& writer, std::string_view name, u32 width, u32 height,
                             u32 seed) {
  const std::vector<std::byte> pixels = pattern(usize{width} * height, seed);
  const LocatorId pixel_id = writer.add_chunk(name, kVideoBlock, pixels, 16);
  TextureHeader header{width, height, PackPtr<std::byte>::from(pixel_id)};
  const LocatorId header_id = writer.add_chunk(name, kMetaBlock, as_bytes_of(header), 8);
  writer.add_item(name, type_hash("Texture"), header_id);
  return header_id;
}

// Setup for TextureHeader: fixes the pixel pointer and returns the header.
inline Result<void*> setup_texture(SetupContext& context) {
  auto* header = context.primary_as<TextureHeader>();
  if (header == nullptr) return fail(ErrorCode::kCorrupt, "texture header too small");
  if (header->pixels.raw > 0xFFFFFFFFu) return fail(ErrorCode::kCorrupt, "bad pixel slot");
  auto pixels = context.chunk(header->pixels.locator());
  if (!pixels) return std::unexpected(pixels.error());
  if (pixels->size() != u64{header->width} * header->height) {
    return fail(ErrorCode::kCorrupt, "pixel chunk has {} bytes for {}x{}", pixels->size(),
                header->width, header->height);
  }
  if (auto s = context.fix_up(header->pixels); !s) return std::unexpected(s.error());
  return header;
}

}  // namespace keel::pack::testing
