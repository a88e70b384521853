// Pictures of a BSP tree (target keel::spatial_build): a top view or a horizontal slice at
// height y. The splitting planes are drawn as lines clipped to the cell of their node (coloured by
// depth: red at the root through to blue); the faces as grey outlines (top view) or black
// cuts (slice). SVG as text, PNG through stb_image_write.
#pragma once

#include "keel/core/bytes.h"
#include "keel/core/types.h"
#include "keel/spatial/bsp.h"

#include <string>

namespace keel::spatial {

struct BspPictureOptions {
  bool slice = false;  // false: top view (every face projected); true: the cut at `height`
  float height = 0;    // y of the slice; the splitting lines are always taken at this height
  u32 size = 800;      // pixels (PNG) or user units (SVG) of the longer side
};

std::string bsp_svg(const BspView& tree, const BspPictureOptions& options = {});
// PNG file bytes; empty if the encoder fails.
ByteBuffer bsp_png(const BspView& tree, const BspPictureOptions& options = {});

}  // namespace keel::spatial
