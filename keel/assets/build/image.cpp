#include "keel/assets/build/image.h"

#include "keel/core/assert.h"
#include "keel/core/file.h"

#include <stb/stb_image.h>
#include <stb/stb_image_resize.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

namespace keel::assets {
namespace {

// Sources larger than this are refused before decoding (a bound on memory for external data:
// the float image of the largest source takes 1 GiB).
constexpr u64 kMaxSourcePixels = u64{8192} * 8192;
constexpr u32 kMaxSourceExtent = 16384;

struct StbFree {
  void operator()(void* p) const { stbi_image_free(p); }
};

// The book's source formats that stb_image reads: PNG, JPEG, BMP and TGA (TGA has no magic
// number; anything stb would read as PSD, GIF, HDR, PIC or PNM is refused first).
bool known_format(ByteSpan file) {
  const std::string_view head = as_chars(file.first(std::min<usize>(file.size(), 11)));
  const auto starts = [&](std::string_view magic) { return head.starts_with(magic); };
  if (starts("\x89PNG") || starts("\xFF\xD8\xFF") || starts("BM")) return true;
  if (starts("8BPS") || starts("GIF8") || starts("#?RADIANCE") || starts("#?RGBE") ||
      starts("\x53\x80\xF6\x34")) {
    return false;
  }
  if (head.size() >= 2 && head[0] == 'P' && head[1] >= '1' && head[1] <= '7') return false;  // PNM
  return true;
}

// stb_image grows its PNG data buffer to whatever an IDAT chunk claims before reading it, so a
// 200-byte file claiming a 3 GB chunk asks for gigabytes. Every chunk must fit in the file.
Status check_png_chunks(ByteSpan file, std::string_view label) {
  usize at = 8;  // after the signature
  while (at < file.size()) {
    if (file.size() - at < 12) {
      return fail_at(SourceLocation::bytes(std::string(label), at), ErrorCode::kCorrupt,
                     "PNG chunk header cut short");
    }
    const auto b = [&](usize i) { return static_cast<u32>(file[at + i]); };
    const u32 length = (b(0) << 24) | (b(1) << 16) | (b(2) << 8) | b(3);
    if (length > file.size() - at - 12) {
      return fail_at(SourceLocation::bytes(std::string(label), at), ErrorCode::kCorrupt,
                     "PNG chunk claims {} bytes; the file has {} left", length,
                     file.size() - at - 12);
    }
    const bool end = b(4) == 'I' && b(5) == 'E' && b(6) == 'N' && b(7) == 'D';
    at += 12 + usize{length};
    if (end) break;
  }
  return {};
}

}  // namespace

u8 to_u8(f32 value) {
  if (!(value > 0.0f)) return 0;  // negatives and NaN
  if (value >= 1.0f) return 255;
  return static_cast<u8>(std::floor(value * 255.0f + 0.5f));
}

f32 srgb_to_linear(f32 v) {
  if (v <= 0.04045f) return v / 12.92f;
  return std::pow((v + 0.055f) / 1.055f, 2.4f);
}

f32 linear_to_srgb(f32 v) {
  if (v <= 0.0031308f) return v * 12.92f;
  return 1.055f * std::pow(v, 1.0f / 2.4f) - 0.055f;
}

Image::Image(u32 width, u32 height, Rgba fill) {
  if (width == 0 || height == 0) return;
  width_ = width;
  height_ = height;
  pixels_.assign(usize{width} * height, fill);
}

Result<Image> Image::decode(ByteSpan file, std::string_view label) {
  const auto where = [&] { return SourceLocation::bytes(std::string(label), 0); };
  if (file.empty()) return fail_at(where(), ErrorCode::kUnderflow, "empty image file");
  if (file.size() > static_cast<usize>(std::numeric_limits<int>::max())) {
    return fail_at(where(), ErrorCode::kOutOfRange, "image file of {} bytes is too large",
                   file.size());
  }
  if (!known_format(file)) {
    return fail_at(where(), ErrorCode::kUnsupported, "not a PNG, JPEG, BMP or TGA image");
  }
  if (file.size() >= 8 && as_chars(file.first(4)) == "\x89PNG") {
    if (Status s = check_png_chunks(file, label); !s) return Unexpected(s.error());
  }
  const auto* bytes = reinterpret_cast<const stbi_uc*>(file.data());  // NOLINT
  const int size = static_cast<int>(file.size());
  int w = 0;
  int h = 0;
  int channels = 0;
  if (stbi_info_from_memory(bytes, size, &w, &h, &channels) == 0) {
    return fail_at(where(), ErrorCode::kParse, "not a readable image: {}", stbi_failure_reason());
  }
  if (w <= 0 || h <= 0 || static_cast<u32>(w) > kMaxSourceExtent ||
      static_cast<u32>(h) > kMaxSourceExtent || u64(w) * u64(h) > kMaxSourcePixels) {
    return fail_at(where(), ErrorCode::kOutOfRange, "image of {}x{} pixels is larger than allowed",
                   w, h);
  }
  const usize count = usize(w) * usize(h);
  Image image;  // allocated once the pixels decoded
  const auto allocate = [&] {
    image.width_ = static_cast<u32>(w);
    image.height_ = static_cast<u32>(h);
    image.pixels_.resize(count);
  };
  if (stbi_is_16_bit_from_memory(bytes, size) != 0) {
    // Native channels, expanded here: stb_image's own 16-bit channel conversion is unsafe for
    // some formats (16-bit PNM) in the Debian version.
    std::unique_ptr<stbi_us, StbFree> data(
        stbi_load_16_from_memory(bytes, size, &w, &h, &channels, 0));
    if (!data || usize(w) * usize(h) != count || channels < 1 || channels > 4) {
      return fail_at(where(), ErrorCode::kParse, "image could not be decoded: {}",
                     stbi_failure_reason());
    }
    allocate();
    constexpr f32 kScale = 1.0f / 65535.0f;
    const usize n = static_cast<usize>(channels);
    for (usize i = 0; i < count; ++i) {
      const stbi_us* p = data.get() + i * n;
      const f32 first = p[0] * kScale;
      switch (n) {
        case 1: image.pixels_[i] = {first, first, first, 1.0f}; break;
        case 2: image.pixels_[i] = {first, first, first, p[1] * kScale}; break;
        case 3: image.pixels_[i] = {first, p[1] * kScale, p[2] * kScale, 1.0f}; break;
        default: image.pixels_[i] = {first, p[1] * kScale, p[2] * kScale, p[3] * kScale}; break;
      }
    }
    return image;
  }
  std::unique_ptr<stbi_uc, StbFree> data(stbi_load_from_memory(bytes, size, &w, &h, &channels, 4));
  if (!data || usize(w) * usize(h) != count) {
    return fail_at(where(), ErrorCode::kParse, "image could not be decoded: {}",
                   stbi_failure_reason());
  }
  allocate();
  constexpr f32 kScale = 1.0f / 255.0f;
  for (usize i = 0; i < count; ++i) {
    const stbi_uc* p = data.get() + i * 4;
    image.pixels_[i] = {p[0] * kScale, p[1] * kScale, p[2] * kScale, p[3] * kScale};
  }
  return image;
}

Result<Image> Image::load(const std::filesystem::path& path) {
  Result<std::string> bytes = read_file(path);
  if (!bytes) return Unexpected(bytes.error());
  return decode(as_bytes(*bytes), path.string());
}

Image Image::from_u8(u32 width, u32 height, std::span<const u8> pixels, u32 channels) {
  const usize count = usize{width} * height;
  KEEL_ASSERT(channels >= 1 && channels <= 4, "Image::from_u8: channels must be 1..4, not {}",
              channels);
  KEEL_ASSERT(pixels.size() >= count * channels, "Image::from_u8: {} bytes for {}x{}x{}",
              pixels.size(), width, height, channels);
  if (channels < 1 || channels > 4 || pixels.size() < count * channels) return {};
  Image image(width, height);
  constexpr f32 kScale = 1.0f / 255.0f;
  for (usize i = 0; i < count; ++i) {
    const u8* p = pixels.data() + i * channels;
    Rgba& out = image.pixels_[i];
    switch (channels) {
      case 1: out = {p[0] * kScale, p[0] * kScale, p[0] * kScale, p[0] * kScale}; break;
      case 2: out = {p[0] * kScale, p[0] * kScale, p[0] * kScale, p[1] * kScale}; break;
      case 3: out = {p[0] * kScale, p[1] * kScale, p[2] * kScale, 1.0f}; break;
      default: out = {p[0] * kScale, p[1] * kScale, p[2] * kScale, p[3] * kScale}; break;
    }
  }
  return image;
}

Image Image::resized(u32 width, u32 height, ResizeSpace space) const {
  if (width == 0 || height == 0 || empty()) return {};
  if (width == width_ && height == height_) return *this;
  Image out(width, height);
  const auto* in = reinterpret_cast<const float*>(pixels_.data());  // NOLINT: Rgba is 4 floats
  auto* dst = reinterpret_cast<float*>(out.pixels_.data());         // NOLINT
  const int ok = stbir_resize_float_generic(
      in, static_cast<int>(width_), static_cast<int>(height_), 0, dst, static_cast<int>(width),
      static_cast<int>(height), 0, 4, 3, STBIR_FLAG_ALPHA_PREMULTIPLIED, STBIR_EDGE_CLAMP,
      STBIR_FILTER_DEFAULT,
      space == ResizeSpace::kSrgb ? STBIR_COLORSPACE_SRGB : STBIR_COLORSPACE_LINEAR, nullptr);
  KEEL_ASSERT(ok != 0, "stbir_resize_float_generic failed");
  return out;
}

Image Image::monochrome(f32 r, f32 g, f32 b, f32 a) const {
  Image out = *this;
  for (Rgba& p : out.pixels_) {
    const f32 mono = r * p.r + g * p.g + b * p.b + a * p.a;
    p = {mono, mono, mono, p.a};
  }
  return out;
}

Image Image::grayscale() const { return monochrome(kGrayRed, kGrayGreen, kGrayBlue, 0.0f); }

Image Image::normal_map(f32 height, bool wrap) const {
  if (empty()) return {};
  const Image gray = grayscale();
  Image out(width_, height_);
  const auto sample = [&](s64 x, s64 y) {
    const s64 w = width_;
    const s64 h = height_;
    if (wrap) {
      x = ((x % w) + w) % w;
      y = ((y % h) + h) % h;
    } else {
      x = std::clamp<s64>(x, 0, w - 1);
      y = std::clamp<s64>(y, 0, h - 1);
    }
    return gray.at(static_cast<u32>(x), static_cast<u32>(y)).r * height;
  };
  for (u32 y = 0; y < height_; ++y) {
    for (u32 x = 0; x < width_; ++x) {
      const f32 dx = (sample(s64{x} + 1, y) - sample(s64{x} - 1, y)) * 0.5f;
      const f32 dy = (sample(x, s64{y} + 1) - sample(x, s64{y} - 1)) * 0.5f;
      const f32 len = std::sqrt(dx * dx + dy * dy + 1.0f);
      out.at(x, y) = {(-dx / len + 1.0f) * 0.5f, (-dy / len + 1.0f) * 0.5f,
                      (1.0f / len + 1.0f) * 0.5f, 0.0f};
    }
  }
  return out;
}

std::vector<u8> Image::to_rgba8() const {
  std::vector<u8> out(pixels_.size() * 4);
  for (usize i = 0; i < pixels_.size(); ++i) {
    out[i * 4 + 0] = to_u8(pixels_[i].r);
    out[i * 4 + 1] = to_u8(pixels_[i].g);
    out[i * 4 + 2] = to_u8(pixels_[i].b);
    out[i * 4 + 3] = to_u8(pixels_[i].a);
  }
  return out;
}

}  // namespace keel::assets
