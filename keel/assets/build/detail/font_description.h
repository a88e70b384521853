// The Font handler's second form: the book's font description with its records (what keel-font
// --kcmd writes), instead of a font source to rasterise.
#pragma once

#include "keel/pipeline/handler.h"

namespace keel::assets::detail {

// A Font block that names its atlas with Texture("...") is a description.
bool is_font_description(const text::Token& cmd);
// Builds the font chunk from the records; errors are reported at their tokens.
bool build_described_font(pipeline::BuildContext& context);

}  // namespace keel::assets::detail
