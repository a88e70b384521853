// RGBA8 pictures: screenshots, PNG files (stb_image_write / stb_image) and exact or tolerant
// comparison (the Xvfb-versus-headless check).
#pragma once

#include "keel/core/bytes.h"
#include "keel/core/error.h"
#include "keel/core/types.h"

#include <filesystem>

namespace keel::platform {

struct Image {
  u32 width = 0;
  u32 height = 0;
  ByteBuffer rgba;  // width * height * 4 bytes, rows top to bottom
};

// Written atomically (keel::write_file_atomic). Errors: empty or inconsistent image, I/O.
Status write_png(const std::filesystem::path& path, const Image& image);
Result<Image> read_png(const std::filesystem::path& path);

struct ImageDiff {
  u64 differing_pixels = 0;  // pixels with any channel differing by more than the tolerance
  u32 max_channel_delta = 0;
};
// Errors when the sizes differ.
Result<ImageDiff> compare_images(const Image& a, const Image& b, u32 tolerance = 0);

}  // namespace keel::platform
