// The Texture command of a command file, parsed (Golden Rules ch. 6 "Texture command-file
// syntax"): definition commands first, then Image commands with their channel specifiers.
#pragma once

#include "keel/assets/build/image.h"
#include "keel/assets/build/texture_writer.h"
#include "keel/assets/texture.h"
#include "keel/core/error.h"
#include "keel/text/diagnostics.h"
#include "keel/text/token.h"

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace keel::assets::detail {

// What one texture component (R, G, B or A) takes from an Image command's source.
enum class ChannelOp : u8 {
  kCopy,     // the specifier was omitted: the source's matching channel
  kNone,     // "none" / "n": leave the component as it is
  kChannel,  // "red"/"r", "green"/"g", "blue"/"b", "alpha"/"a"
  kMax,      // "max????": the largest of 2-4 channels
  kMin,      // "min????"
  kAvg,      // "avg????"
  kNx,       // "nx": the source read as a height map, its normal's x (mapped to 0..1)
  kNy,
  kNz,
  kGray,  // "gray": Equation 6.1
};

struct ChannelSpec {
  ChannelOp op = ChannelOp::kCopy;
  u8 channel = 0;  // kChannel: 0 red, 1 green, 2 blue, 3 alpha
  u8 mask = 0;     // kMax/kMin/kAvg: bit 0 red, 1 green, 2 blue, 3 alpha
};

// Parses one specifier (case-insensitive); the error says what is valid.
Result<ChannelSpec> parse_channel(std::string_view text);

struct ImageSpec {
  std::string file;
  std::array<ChannelSpec, 4> channels{};  // R, G, B, A of the texture
  const text::Token* at = nullptr;        // the Image command, for errors
};

// Per-level colour effect (the book's "colour transition to each successive level"): level i
// is blended toward `color` by min(1, i * amount). Keel's command: MipFade(r, g, b, a, amount).
struct MipFade {
  Rgba color;
  f32 amount = 0.0f;
};

struct TextureSpec {
  std::string name;
  std::optional<std::array<u32, 2>> size;  // Size(x, y)
  std::string format;                      // Format("..."): an artist format name; empty = 32-bit
  const text::Token* format_at = nullptr;  // the Format command, for errors
  u32 levels = 0;                          // Levels(n): 0 = a full chain
  std::optional<TextureFilter> filter;     // Filter("point"|"bilinear"|"trilinear")
  TextureWrap wrap = TextureWrap::kWrap;   // Wrap("wrap"|"clamp"|"mirror")
  Rgba color{1.0f, 1.0f, 1.0f, 1.0f};      // Color(r, g, b, a), 0..255 in the file
  std::vector<ImageSpec> images;
  // Keel's additions (documented in keel/assets/README.md):
  BlockQuality quality = BlockQuality::kBest;  // Quality("fast"|"best")
  std::optional<bool> srgb;                    // MipSpace("srgb"|"linear"); default: see below
  f32 normal_height = 4.0f;                    // NormalHeight(h): height-map scale for nx/ny/nz
  std::optional<MipFade> fade;                 // MipFade(r, g, b, a, amount)
  bool artist_mips = false;                    // ArtistMips(): the sources hold the whole chain

  // Mips filter in linear light unless told otherwise or the texture holds normals.
  bool filter_in_srgb() const;
};

// Reads `Texture("name") { ... }`. Every problem is reported to `diagnostics` at its token;
// returns nothing when there was any error.
std::optional<TextureSpec> parse_texture(const text::Token& cmd, text::Diagnostics& diagnostics);

}  // namespace keel::assets::detail
