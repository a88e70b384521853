#include "keel/platform/image.h"

#include "keel/core/file.h"

#include <stb/stb_image.h>
#include <stb/stb_image_write.h>

#include <cstdlib>

namespace keel::platform {
namespace {

void append_bytes(void* context, void* data, int size) {
  auto* out = static_cast<ByteBuffer*>(context);
  const auto* bytes = static_cast<const std::byte*>(data);
  out->insert(out->end(), bytes, bytes + size);
}

}  // namespace

Status write_png(const std::filesystem::path& path, const Image& image) {
  if (image.width == 0 || image.height == 0 ||
      image.rgba.size() != static_cast<usize>(image.width) * image.height * 4) {
    return fail(ErrorCode::kInvalidArgument, "write_png {}: a {}x{} image with {} bytes",
                path.string(), image.width, image.height, image.rgba.size());
  }
  ByteBuffer png;
  const int ok = stbi_write_png_to_func(append_bytes, &png, static_cast<int>(image.width),
                                        static_cast<int>(image.height), 4, image.rgba.data(),
                                        static_cast<int>(image.width * 4));
  if (ok == 0) return fail(ErrorCode::kOutOfMemory, "write_png {}: stb refused", path.string());
  return write_file_atomic(path, png);
}

Result<Image> read_png(const std::filesystem::path& path) {
  int w = 0;
  int h = 0;
  int channels = 0;
  stbi_uc* pixels = stbi_load(path.c_str(), &w, &h, &channels, 4);
  if (pixels == nullptr) {
    return fail(ErrorCode::kIo, "read_png {}: {}", path.string(), stbi_failure_reason());
  }
  Image image{static_cast<u32>(w), static_cast<u32>(h), {}};
  const auto* bytes = reinterpret_cast<const std::byte*>(pixels);
  image.rgba.assign(bytes, bytes + static_cast<usize>(w) * h * 4);
  stbi_image_free(pixels);
  return image;
}

Result<ImageDiff> compare_images(const Image& a, const Image& b, u32 tolerance) {
  if (a.width != b.width || a.height != b.height || a.rgba.size() != b.rgba.size()) {
    return fail(ErrorCode::kInvalidArgument, "compare_images: {}x{} against {}x{}", a.width,
                a.height, b.width, b.height);
  }
  ImageDiff diff;
  for (usize p = 0; p + 4 <= a.rgba.size(); p += 4) {
    bool differs = false;
    for (usize c = 0; c < 4; ++c) {
      const int d = std::abs(static_cast<int>(a.rgba[p + c]) - static_cast<int>(b.rgba[p + c]));
      if (static_cast<u32>(d) > diff.max_channel_delta)
        diff.max_channel_delta = static_cast<u32>(d);
      if (static_cast<u32>(d) > tolerance) differs = true;
    }
    if (differs) ++diff.differing_pixels;
  }
  return diff;
}

}  // namespace keel::platform
