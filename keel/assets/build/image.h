// A float RGBA image: the book's IImage (Golden Rules ch. 6) over stb. Step 2 of texture
// processing promotes every source to 128-bit float RGBA (0..1 per channel), so compositing,
// resizing and mip-mapping never round before the final format is written.
//
// Like the book's IImage, no manipulator alters its image: each returns a new one.
//
//   auto photo = keel::assets::Image::load("example1.png");     // 8- or 16-bit sources
//   keel::assets::Image small = photo->resized(256, 256);        // stb_image_resize, linear light
//   keel::assets::Image gray = photo->grayscale();               // Equation 6.1
#pragma once

#include "keel/core/bytes.h"
#include "keel/core/error.h"
#include "keel/core/types.h"

#include <filesystem>
#include <span>
#include <string_view>
#include <vector>

namespace keel::assets {

struct Rgba {
  f32 r = 0.0f;
  f32 g = 0.0f;
  f32 b = 0.0f;
  f32 a = 0.0f;
  bool operator==(const Rgba&) const = default;
};

// Equation 6.1 weights: gray = 0.30 red + 0.59 green + 0.11 blue.
inline constexpr f32 kGrayRed = 0.30f;
inline constexpr f32 kGrayGreen = 0.59f;
inline constexpr f32 kGrayBlue = 0.11f;
inline f32 gray_of(const Rgba& c) { return kGrayRed * c.r + kGrayGreen * c.g + kGrayBlue * c.b; }

// 0..1 to 0..255, clamped, rounding halves up (76.5 -> 77): the one quantising rule of the
// texture pipeline.
u8 to_u8(f32 value);
// sRGB transfer functions (IEC 61966-2-1), for gamma-correct filtering.
f32 srgb_to_linear(f32 value);
f32 linear_to_srgb(f32 value);

// How resized() filters: in linear light (the colour channels are decoded from sRGB, filtered,
// re-encoded; alpha is filtered as it is) or on the stored values as they are.
enum class ResizeSpace : u8 { kSrgb, kRaw };

class Image {
 public:
  Image() = default;
  // A width x height image filled with `fill`. Zero sizes make an empty image.
  Image(u32 width, u32 height, Rgba fill = {});

  // Decodes an image file through stb_image: PNG (16-bit PNGs keep 16 bits), JPEG, BMP or TGA,
  // the book's source formats; others are refused (kUnsupported). Channels a file lacks read as the
  // book's IImage gives them: gray fills r, g, b; a missing alpha is 1. `label` names the data in
  // errors.
  static Result<Image> decode(ByteSpan file, std::string_view label = "<image>");
  static Result<Image> load(const std::filesystem::path& path);
  // From 8-bit pixels, rows top to bottom, `channels` per pixel: 1 (the value goes to all four
  // channels), 2 (gray, alpha), 3 (rgb, alpha 1) or 4 (rgba). Asserts pixels.size() fits.
  static Image from_u8(u32 width, u32 height, std::span<const u8> pixels, u32 channels = 4);

  u32 width() const { return width_; }
  u32 height() const { return height_; }
  bool empty() const { return pixels_.empty(); }
  std::span<const Rgba> pixels() const { return pixels_; }
  std::span<Rgba> pixels() { return pixels_; }
  const Rgba& at(u32 x, u32 y) const { return pixels_[usize{y} * width_ + x]; }
  Rgba& at(u32 x, u32 y) { return pixels_[usize{y} * width_ + x]; }

  // A new image of width x height (stb_image_resize, Mitchell for shrinking, Catmull-Rom for
  // enlarging, edges clamped). A zero size gives an empty image.
  Image resized(u32 width, u32 height, ResizeSpace space = ResizeSpace::kSrgb) const;
  Image duplicate() const { return *this; }
  // Equation 6.2 per pixel: mono = r*red + g*green + b*blue + a*alpha into red, green and blue;
  // alpha is kept.
  Image monochrome(f32 r, f32 g, f32 b, f32 a) const;
  // monochrome(0.30, 0.59, 0.11, 0.0).
  Image grayscale() const;
  // The surface normals of the grayscale image read as a height map (heights 0..1 times `height`
  // texels), by central differences with edges wrapped (`wrap`) or clamped. Components map from
  // -1..1 to 0..1 by (n + 1) / 2; alpha is 0, as the book's IImage::NormalMap leaves it.
  Image normal_map(f32 height, bool wrap = true) const;

  // 8-bit RGBA (to_u8 per channel), rows top to bottom.
  std::vector<u8> to_rgba8() const;

 private:
  u32 width_ = 0;
  u32 height_ = 0;
  std::vector<Rgba> pixels_;
};

}  // namespace keel::assets
