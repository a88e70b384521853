// The picture of a font atlas with its glyph boxes (what `keel-asset show` writes for a font),
// from a font view and its atlas pixels, for tools and tests that have them in memory.
#pragma once

#include "keel/assets/build/preview.h"
#include "keel/assets/font.h"

#include <span>
#include <string_view>

namespace keel::assets {

// Coverage in gray, every cell outlined (alternating cyan and orange), baselines dotted red;
// atlases smaller than 512x512 are drawn at twice their size.
Picture font_atlas_picture(const FontView& font, std::span<const u8> atlas);

// `utf8` drawn the way a renderer draws it: FontView::layout's quads, each copied from the atlas
// (black on white, coverage blended with max so overlapping quads keep their ink), with a margin.
Picture font_text_picture(const FontView& font, std::span<const u8> atlas, std::string_view utf8);

}  // namespace keel::assets
