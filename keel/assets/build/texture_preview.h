// A texture's mip chain as a contact sheet, from a chunk view (picture_of_texture in preview.h
// finds the chunk in a pack first). Tests write it next to a failing texture check.
#pragma once

#include "keel/assets/build/preview.h"
#include "keel/assets/texture.h"
#include "keel/core/error.h"

namespace keel::assets {

// Level 0 on the left, the smaller levels in a column beside it, transparent pixels over a
// checkerboard; textures smaller than 128 pixels are enlarged (nearest) to about 128.
Result<Picture> texture_contact_sheet(const Texture& texture);

}  // namespace keel::assets
