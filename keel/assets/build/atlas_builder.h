// Packs many small images into one atlas texture (the `Atlas` build command; keel/assets/atlas.h is
// the runtime side). stb_rect_pack places the frames; each frame is surrounded by `padding`
// pixels that repeat its edge pixels (extrusion), so bilinear filtering at a frame's edge blends
// with the frame itself, never with a neighbour or the empty background.
//
//   std::vector<keel::assets::AtlasSprite> sprites = ...;           // name + RGBA8 pixels
//   auto built = keel::assets::pack_atlas(sprites, {.padding = 2, .max_size = 1024});
//   built->data.frames;   // where each sprite went; built->rgba: width x height RGBA8
#pragma once

#include "keel/assets/atlas.h"
#include "keel/core/error.h"
#include "keel/core/types.h"

#include <span>
#include <string>
#include <vector>

namespace keel::assets {

struct AtlasSprite {
  std::string name;
  u32 width = 0;
  u32 height = 0;
  std::vector<u8> rgba;  // width x height x 4, rows top to bottom
  f32 pivot_x = 0.5f;
  f32 pivot_y = 0.5f;
};

struct AtlasPackOptions {
  u32 padding = 2;      // extruded pixels on every side of every frame
  u32 max_size = 2048;  // the largest texture side tried
};

struct AtlasBuild {
  AtlasData data;        // width, height, frames (texture_name_hash left 0 for the caller)
  std::vector<u8> rgba;  // data.width x data.height x 4; transparent black where no frame is
  f64 efficiency = 0;    // the frames' pixels over the texture's (without padding)
};

// Packs `sprites` into the smallest power-of-two texture (by area, then wider than tall) up to
// max_size x max_size that holds them all. Errors (kInvalidArgument) name the sprite: an empty
// image, a duplicate name, or frames that do not fit (the largest ones are named).
Result<AtlasBuild> pack_atlas(std::span<const AtlasSprite> sprites,
                              const AtlasPackOptions& options);

}  // namespace keel::assets
