// Writes a font's 8-bit atlas as a texture asset of the font's intermediate file.
#pragma once

#include "keel/assets/build/font_builder.h"
#include "keel/pipeline/handler.h"

#include <string_view>

namespace keel::assets::detail {

// Adds the atlas chunk and its "Texture" item named `atlas_name`; the chunk's locator, 0 on error.
u32 add_font_atlas(pipeline::OutputFile& out, std::string_view atlas_name, const FontBuild& build);

}  // namespace keel::assets::detail
