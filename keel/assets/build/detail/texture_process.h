// The book's six texture processing steps in its order, at float precision until step 5:
//   1 load and 2 promote to float RGBA (the loader: Image::decode), 3 composite, 4 resize and
//   build the mip chain (gamma-correct: linearise, filter, re-encode), 5 convert to the pixel
//   format (texture_writer), 6 save (the chunk; the handler adds it to the pack).
#pragma once

#include "keel/assets/build/detail/texture_spec.h"
#include "keel/assets/build/image.h"
#include "keel/core/bytes.h"
#include "keel/core/error.h"

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace keel::assets::detail {

// Steps 1 and 2 for one Image command: the source as float RGBA, or an error.
using ImageLoader = std::function<Result<Image>(const ImageSpec&)>;

// Records the steps as they run ("load", "promote", "composite", "resize", "mip", "convert",
// "save") and notes for the build log; tests read it.
struct ProcessLog {
  std::vector<std::string> steps;
  std::vector<std::string> notes;
};

// Step 3: the canvas filled with spec.color, every Image applied in order through its channel
// specifiers. The canvas has the first image's size (sources of another size are resampled to
// it), or spec.size when no image is loaded.
Result<Image> composite(const TextureSpec& spec, std::span<const Image> sources);

// Step 4: the level images, largest first (sRGB-encoded values when spec.filter_in_srgb()).
Result<std::vector<Image>> make_levels(const TextureSpec& spec, Image canvas);

// Steps 1-6 for one texture on one platform: the load-ready chunk.
Result<ByteBuffer> build_texture(const TextureSpec& spec, std::string_view platform,
                                 const ImageLoader& load, ProcessLog* log = nullptr);

}  // namespace keel::assets::detail
