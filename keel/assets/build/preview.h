// Pictures of built assets for people (keel-asset show, test failure pictures): a texture's mip
// chain as a contact sheet, a font atlas with its glyph boxes, a mesh's triangles coloured by
// strip, a sprite atlas with its frame boxes.
#pragma once

#include "keel/core/error.h"
#include "keel/core/types.h"
#include "keel/pack/pack_file.h"

#include <filesystem>
#include <string_view>
#include <vector>

namespace keel::assets {

// 8-bit RGBA, rows top to bottom, width * height * 4 bytes.
struct Picture {
  u32 width = 0;
  u32 height = 0;
  std::vector<u8> rgba;
};

// Each renders the asset `name` of a pack; an error names what is missing or damaged.
Result<Picture> picture_of_texture(const pack::PackFile& pack, std::string_view name);
Result<Picture> picture_of_font(const pack::PackFile& pack, std::string_view name);
Result<Picture> picture_of_mesh(const pack::PackFile& pack, std::string_view name);
// An atlas' texture over a checkerboard, every frame outlined in magenta.
Result<Picture> picture_of_atlas(const pack::PackFile& pack, std::string_view name);

// Writes a picture as a PNG file, atomically.
Status write_png(const Picture& picture, const std::filesystem::path& path);

}  // namespace keel::assets
