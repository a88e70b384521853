// Vertex compression with scale and bias (Golden Rules ch. 6, Tables 6.1/6.2, Eqs. 6.3-6.6):
// each axis of each element maps its bounding box onto the range the hardware expands a compact
// type to, and the game undoes it with element = x * scale + bias.
#pragma once

#include "keel/core/types.h"

#include <array>

namespace keel::assets {

struct ScaleBias {
  float scale = 1.0f;
  float bias = 0.0f;
  float compress(float element) const { return (element - bias) / scale; }  // Eq. 6.5
  float decompress(float x) const { return x * scale + bias; }              // Eq. 6.6
};

// Eqs. 6.3 and 6.4 for bounds [bbox_min, bbox_max] into [range_min, range_max]. `epsilon` is the
// book's `value`: added to the extent when the bounds (nearly) coincide, so scale never reaches 0.
ScaleBias scale_bias(float bbox_min, float bbox_max, float range_min, float range_max,
                     float epsilon = 1e-6f);

// Quantisers for Table 6.1's types (round to nearest, clamped).
u8 quantize_unorm8(float x);    // 0..1 -> 0..255
u16 quantize_unorm16(float x);  // 0..1 -> 0..65535
// Three values in -1..1 as u32:10:10:10: x in bits 0-9, y 10-19, z 20-29, bits 30-31 zero;
// q = round((v + 1) / 2 * 1023).
u32 pack_101010(const std::array<float, 3>& v);
std::array<float, 3> unpack_101010(u32 word);  // v = q / 1023 * 2 - 1
// A colour with channels 0..1 as A8R8G8B8.
u32 pack_a8r8g8b8(const std::array<float, 4>& rgba);

}  // namespace keel::assets
