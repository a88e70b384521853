#include "keel/assets/build/detail/texture_formats.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <string>
#include <utility>

namespace keel::assets::detail {
namespace {

using F = TextureFormat;

struct ArtistName {
  std::string_view name;
  FormatChoice choice;
};

constexpr std::array<ArtistName, 20> kArtistNames = {{
    {"A8R8G8B8", {F::kA8R8G8B8, false}},
    {"X8R8G8B8", {F::kX8R8G8B8, false}},
    {"R5G6B5", {F::kR5G6B5, false}},
    {"A1R5G5B5", {F::kA1R5G5B5, false}},
    {"A4R4G4B4", {F::kA4R4G4B4, false}},
    {"A8", {F::kA8, false}},
    {"L8", {F::kL8, false}},
    {"DXT1", {F::kBC1, false}},
    {"DXT2", {F::kBC2, true}},
    {"DXT3", {F::kBC2, false}},
    {"DXT4", {F::kBC3, true}},
    {"DXT5", {F::kBC3, false}},
    {"BC1", {F::kBC1, false}},
    {"BC2", {F::kBC2, false}},
    {"BC3", {F::kBC3, false}},
    {"BC4", {F::kBC4, false}},
    {"BC5", {F::kBC5, false}},
    {"ATI1", {F::kBC4, false}},
    {"ATI2", {F::kBC5, false}},
    {"32bit", {F::kA8R8G8B8, false}},
}};

constexpr std::array<std::string_view, 20> kNames = [] {
  std::array<std::string_view, 20> out{};
  for (usize i = 0; i < kArtistNames.size(); ++i) out[i] = kArtistNames[i].name;
  return out;
}();

// One row per platform: for each format (in enum order, A8R8G8B8 .. BC5) the one it becomes.
struct PlatformRow {
  std::string_view platform;
  std::array<F, kTextureFormatCount> closest;
};

constexpr std::array<PlatformRow, 2> kPlatforms = {{
    // Direct3D 9 class hardware: every format.
    {"PC",
     {F::kA8R8G8B8, F::kX8R8G8B8, F::kR5G6B5, F::kA1R5G5B5, F::kA4R4G4B4, F::kA8, F::kL8, F::kBC1,
      F::kBC2, F::kBC3, F::kBC4, F::kBC5}},
    // A handheld with 16-bit formats, 8-bit alpha/luminance and DXT1 only: X8R8G8B8 stays 32-bit,
    // the explicit/interpolated-alpha blocks become 4-bit alpha, one channel becomes L8, two
    // channels (BC5) need the 32-bit format.
    {"Handheld",
     {F::kA8R8G8B8, F::kA8R8G8B8, F::kR5G6B5, F::kA1R5G5B5, F::kA4R4G4B4, F::kA8, F::kL8, F::kBC1,
      F::kA4R4G4B4, F::kA4R4G4B4, F::kL8, F::kA8R8G8B8}},
}};

bool same_text(std::string_view a, std::string_view b) {
  return std::ranges::equal(a, b, [](char x, char y) {
    return std::tolower(static_cast<unsigned char>(x)) ==
           std::tolower(static_cast<unsigned char>(y));
  });
}

}  // namespace

std::span<const std::string_view> artist_format_names() { return kNames; }

Result<FormatChoice> artist_format(std::string_view name) {
  for (const ArtistName& entry : kArtistNames) {
    if (same_text(entry.name, name)) return entry.choice;
  }
  std::string valid;
  for (std::string_view n : kNames) valid += (valid.empty() ? "" : ", ") + std::string(n);
  return fail(ErrorCode::kNotFound, "unknown texture format \"{}\" (valid: {})", name, valid);
}

TextureFormat closest_format(std::string_view platform, TextureFormat wanted) {
  if (!is_valid(wanted)) return wanted;
  for (const PlatformRow& row : kPlatforms) {
    if (same_text(row.platform, platform)) return row.closest[static_cast<usize>(wanted) - 1];
  }
  return wanted;
}

}  // namespace keel::assets::detail
