// A font's 8-bit atlas as a texture asset of the font's intermediate file, and back.
#pragma once

#include "keel/assets/build/font_builder.h"
#include "keel/core/error.h"
#include "keel/pack/pack_file.h"
#include "keel/pipeline/handler.h"

#include <string_view>
#include <vector>

namespace keel::assets::detail {

// Adds the atlas chunk and its "Texture" item named `atlas_name`; the chunk's locator, 0 on error.
u32 add_font_atlas(pipeline::OutputFile& out, std::string_view atlas_name, const FontBuild& build);

// The atlas pixels of a font in a pack (width * height coverage values), checked against the
// font's atlas size.
Result<std::vector<u8>> read_font_atlas(const pack::PackFile& pack, const FontView& font);

}  // namespace keel::assets::detail
