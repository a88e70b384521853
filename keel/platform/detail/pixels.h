// Software conversion of every texture chunk format to 32-bit ARGB (SDL_PIXELFORMAT_ARGB8888:
// one native-endian u32 per pixel, 0xAARRGGBB), so SDL_Renderer takes one format whatever the
// pack holds. Block-compressed levels (BC1..BC5) are decoded here: SDL cannot upload them.
#pragma once

#include "keel/assets/texture.h"
#include "keel/core/error.h"
#include "keel/core/types.h"

#include <vector>

namespace keel::platform::detail {

// Level `level` of `texture` as width x height ARGB pixels, rows packed. A8 becomes white with
// that alpha (font atlases: the colour comes from the vertices), L8 opaque gray, BC4 gray from
// its red channel, BC5 red and green with blue 0.
Result<std::vector<u32>> to_argb(const assets::Texture& texture, u32 level = 0);

}  // namespace keel::platform::detail
