#include "keel/assets/build/mesh_compress.h"

#include <algorithm>
#include <cmath>

namespace keel::assets {

ScaleBias scale_bias(float bbox_min, float bbox_max, float range_min, float range_max,
                     float epsilon) {
  float extent = bbox_max - bbox_min;
  // The book's `value`: zero unless the bounds nearly coincide, then enough to keep scale > 0.
  const float magnitude = std::max({std::fabs(bbox_min), std::fabs(bbox_max), 1.0f});
  const float tiny = std::max(epsilon, magnitude * 1e-6f);
  if (!(extent > tiny)) extent = tiny;
  ScaleBias out;
  out.scale = extent / (range_max - range_min);  // Eq. 6.3
  out.bias = bbox_min - range_min * out.scale;   // Eq. 6.4
  return out;
}

u8 quantize_unorm8(float x) {
  return static_cast<u8>(std::lround(std::clamp(x, 0.0f, 1.0f) * 255.0f));
}

u16 quantize_unorm16(float x) {
  return static_cast<u16>(std::lround(std::clamp(x, 0.0f, 1.0f) * 65535.0f));
}

u32 pack_101010(const std::array<float, 3>& v) {
  u32 word = 0;
  for (u32 i = 0; i < 3; ++i) {
    const float unit = (std::clamp(v[i], -1.0f, 1.0f) + 1.0f) * 0.5f;
    word |= static_cast<u32>(std::lround(unit * 1023.0f)) << (10 * i);
  }
  return word;
}

std::array<float, 3> unpack_101010(u32 word) {
  std::array<float, 3> out{};
  for (u32 i = 0; i < 3; ++i) {
    out[i] = static_cast<float>((word >> (10 * i)) & 1023u) / 1023.0f * 2.0f - 1.0f;
  }
  return out;
}

u32 pack_a8r8g8b8(const std::array<float, 4>& rgba) {
  return (static_cast<u32>(quantize_unorm8(rgba[3])) << 24) |
         (static_cast<u32>(quantize_unorm8(rgba[0])) << 16) |
         (static_cast<u32>(quantize_unorm8(rgba[1])) << 8) | quantize_unorm8(rgba[2]);
}

}  // namespace keel::assets
