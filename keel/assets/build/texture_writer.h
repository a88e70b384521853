// Writes load-ready texture chunks (keel/assets/texture.h): step 5 (convert to the pixel format,
// block-compress) and step 6 (save) of the book's texture processing. Used by the Texture handler
// and by every other processor that makes a texture (the font atlas).
//
//   const keel::assets::PixelsU8 atlas{.width = 256, .height = 256, .channels = 1, .data = bytes};
//   auto chunk = keel::assets::write_texture({.name = "arial48", .format = TextureFormat::kA8},
//                                            std::span(&atlas, 1));
//   out->add_chunk("arial48", kBlockGeneral, *chunk);
#pragma once

#include "keel/assets/build/image.h"
#include "keel/assets/texture.h"
#include "keel/core/bytes.h"
#include "keel/core/error.h"
#include "keel/core/types.h"

#include <span>
#include <string_view>
#include <vector>

namespace keel::assets {

// Block compression: kFast is stb_dxt in its high-quality mode (BC2's explicit alpha is written
// by Keel), kBest is libsquish with its iterative cluster fit for colour.
enum class BlockQuality : u8 { kFast, kBest };

struct TextureWriteOptions {
  std::string_view name;  // the asset name; its string_hash goes into the header
  TextureFormat format = TextureFormat::kA8R8G8B8;
  TextureFilter filter = TextureFilter::kBilinear;
  TextureWrap wrap = TextureWrap::kWrap;
  BlockQuality quality = BlockQuality::kBest;
  bool premultiply = false;  // DXT2/DXT4: colour times alpha before encoding; sets the flag
};

// 8-bit pixels, rows top to bottom, tightly packed: 1 channel (the value is r, g, b and a: L8
// and A8 take it as it is), 2 (gray, alpha), 3 (rgb) or 4 (rgba) per pixel.
struct PixelsU8 {
  u32 width = 0;
  u32 height = 0;
  u32 channels = 4;
  std::span<const u8> data;
};

// A chunk with `levels` as its mip levels, largest first: each level must be half the previous
// one in each dimension (never below 1), at most max_levels(width, height) of them. Errors
// (kInvalidArgument) name the offending level; nothing asserts on bad input.
Result<ByteBuffer> write_texture(const TextureWriteOptions& options,
                                 std::span<const PixelsU8> levels);
Result<ByteBuffer> write_texture(const TextureWriteOptions& options, std::span<const Image> levels);

// One level converted to `format` (no header): what write_texture stores per level.
ByteBuffer encode_level(const Image& level, TextureFormat format, BlockQuality quality,
                        bool premultiply = false);
// One level of a chunk back to 8-bit RGBA for display (BCn through squish::Decompress; BC4 and L8
// as gray, BC5 as red and green,
// A8 as white with alpha). Empty if the level's bytes do not match its size.
std::vector<u8> decode_level_rgba8(TextureFormat format, const TextureLevel& level);

}  // namespace keel::assets
