// The load-ready texture chunk (Golden Rules ch. 6, step 6 "save") and the runtime view over it.
//
// A texture chunk is what a renderer uploads without further processing: a 32-byte header, then
// every mip level's pixels, largest first, each level packed tightly (rows of `row_bytes`, or rows
// of 4x4 blocks for the BCn formats). All integers are little-endian on every host.
//
//   offset size field
//        0    4 magic "KTEX" (kTextureMagic)
//        4    2 version (kTextureVersion)
//        6    2 header size in bytes (kTextureHeaderSize)
//        8    4 name hash (keel::string_hash of the asset name)
//       12    4 width of level 0, >= 1
//       16    4 height of level 0, >= 1
//       20    1 TextureFormat
//       21    1 level count, 1 .. max_levels(width, height)
//       22    1 TextureFilter
//       23    1 TextureWrap
//       24    4 flags (kTextureFlag*)
//       28    4 byte count of all levels (the chunk is exactly header + this many bytes)
//
//   auto texture = keel::assets::Texture::view(chunk_bytes);     // validated once
//   for (u32 i = 0; i < texture->level_count(); ++i) upload(texture->level(i));
#pragma once

#include "keel/core/bytes.h"
#include "keel/core/error.h"
#include "keel/core/hash.h"
#include "keel/core/types.h"

#include <string_view>

namespace keel::pack {
class Loader;
}  // namespace keel::pack

namespace keel::assets {

// Pixel formats, named as Direct3D names them (the book's). The byte order of the uncompressed
// formats is the D3D one: each pixel is a little-endian 16- or 32-bit number whose high bits are
// the first channel of the name (A8R8G8B8 is the bytes B, G, R, A in memory).
enum class TextureFormat : u8 {
  kA8R8G8B8 = 1,  // 32 bpp
  kX8R8G8B8 = 2,  // 32 bpp, the X byte is written as 255
  kR5G6B5 = 3,    // 16 bpp
  kA1R5G5B5 = 4,  // 16 bpp, alpha >= 0.5 sets the bit
  kA4R4G4B4 = 5,  // 16 bpp
  kA8 = 6,        // 8 bpp alpha only
  kL8 = 7,        // 8 bpp luminance (Equation 6.1 of the colour)
  kBC1 = 8,       // DXT1: 4x4 blocks of 8 bytes, colour + 1-bit alpha
  kBC2 = 9,       // DXT2 (premultiplied) / DXT3: 16-byte blocks, explicit 4-bit alpha
  kBC3 = 10,      // DXT4 (premultiplied) / DXT5: 16-byte blocks, interpolated alpha
  kBC4 = 11,      // 8-byte blocks, one channel (red)
  kBC5 = 12,      // 16-byte blocks, two channels (red, green)
};
inline constexpr u8 kTextureFormatCount = 12;

enum class TextureFilter : u8 { kPoint = 0, kBilinear = 1, kTrilinear = 2 };
enum class TextureWrap : u8 { kWrap = 0, kClamp = 1, kMirror = 2 };

// The colour channels were multiplied by alpha before compression (DXT2, DXT4).
inline constexpr u32 kTextureFlagPremultiplied = 1u << 0;
inline constexpr u32 kTextureKnownFlags = kTextureFlagPremultiplied;

inline constexpr u32 kTextureMagic = 0x5845544Bu;  // "KTEX" in little-endian byte order
inline constexpr u16 kTextureVersion = 1;
inline constexpr u16 kTextureHeaderSize = 32;
// The largest level 0 a chunk may describe (a sanity bound on external data).
inline constexpr u32 kMaxTextureSize = 16384;

// The format's name as written above without the "k" ("A8R8G8B8", "BC1", ...); "?" if invalid.
std::string_view format_name(TextureFormat format);
std::string_view filter_name(TextureFilter filter);  // "point", "bilinear", "trilinear"
std::string_view wrap_name(TextureWrap wrap);        // "wrap", "clamp", "mirror"
bool is_valid(TextureFormat format);
bool is_block_compressed(TextureFormat format);
// Bytes per pixel of an uncompressed format; bytes per 4x4 block of a BCn format.
u32 format_unit_bytes(TextureFormat format);

// floor(log2(max(width, height))) + 1: the levels of a full chain (0 for a zero size).
u32 max_levels(u32 width, u32 height);
// The size of `level` of a chain starting at width x height: halved per level, never below 1.
u32 level_extent(u32 extent, u32 level);
// Bytes of one level of `width` x `height` in `format` (BCn: whole 4x4 blocks).
u64 level_bytes(TextureFormat format, u32 width, u32 height);
// Bytes of `levels` levels starting at width x height.
u64 chain_bytes(TextureFormat format, u32 width, u32 height, u32 levels);

// One mip level inside a chunk.
struct TextureLevel {
  u32 width = 0;
  u32 height = 0;
  u32 row_bytes = 0;  // bytes per row of pixels, or per row of 4x4 blocks for BCn
  ByteSpan data;
};

// A validated, non-owning view over a texture chunk. The bytes must outlive the view.
class Texture {
 public:
  // Checks the header and that the chunk holds exactly the levels it declares; an error names
  // the field and its byte offset. `label` names the data in errors (a pack or file name).
  static Result<Texture> view(ByteSpan chunk, std::string_view label = "<texture>");

  Hash name_hash() const { return name_hash_; }
  u32 width() const { return width_; }
  u32 height() const { return height_; }
  TextureFormat format() const { return format_; }
  u32 level_count() const { return levels_; }
  TextureFilter filter() const { return filter_; }
  TextureWrap wrap() const { return wrap_; }
  u32 flags() const { return flags_; }
  bool premultiplied() const { return (flags_ & kTextureFlagPremultiplied) != 0; }
  ByteSpan bytes() const { return bytes_; }  // the whole chunk

  // Level `index` (0 = largest). Asserts index < level_count(); an empty level in release.
  TextureLevel level(u32 index) const;

 private:
  ByteSpan bytes_;
  Hash name_hash_ = 0;
  u32 width_ = 0;
  u32 height_ = 0;
  TextureFormat format_ = TextureFormat::kA8R8G8B8;
  u32 levels_ = 0;
  TextureFilter filter_ = TextureFilter::kBilinear;
  TextureWrap wrap_ = TextureWrap::kWrap;
  u32 flags_ = 0;
};

// Registers the "Texture" asset type with a pack loader: each asset becomes a heap Texture over
// its primary chunk, checked once (deleted by the teardown). find_as<Texture>(name) then returns
// it.
void register_texture_type(pack::Loader& loader);

}  // namespace keel::assets
