// Fuzz target: source image decoding (artists' files: external data) and one resize of the result.
#include "keel/assets/build/image.h"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const keel::ByteSpan bytes = keel::as_bytes(std::span<const uint8_t>(data, size));
  keel::Result<keel::assets::Image> image = keel::assets::Image::decode(bytes, "fuzz");
  if (!image) return 0;
  if (image->pixels().size() != keel::usize{image->width()} * image->height()) std::abort();
  if (image->pixels().size() <= 4096) {
    const keel::assets::Image half =
        image->resized((image->width() + 1) / 2, (image->height() + 1) / 2);
    if (half.empty()) std::abort();
  }
  return 0;
}
