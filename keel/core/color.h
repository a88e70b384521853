// keel::Rgba8: the one colour type of the engine. Four bytes in memory order r, g, b, a (SDL's
// RGBA32 pixel format), so spans of colours go to the renderer as they are.
//
//   constexpr keel::Rgba8 orange = keel::rgba8_from_u32(0xFF8000FFu);  // 0xRRGGBBAA
#pragma once

#include "keel/core/types.h"

namespace keel {

struct Rgba8 {
  u8 r = 255;
  u8 g = 255;
  u8 b = 255;
  u8 a = 255;
  friend constexpr bool operator==(Rgba8, Rgba8) = default;
};
static_assert(sizeof(Rgba8) == 4, "Rgba8 is four bytes: colour spans are read as RGBA32 pixels");

// A colour written as one number, red in the high byte: 0xRRGGBBAA.
constexpr Rgba8 rgba8_from_u32(u32 rrggbbaa) {
  return Rgba8{static_cast<u8>(rrggbbaa >> 24), static_cast<u8>(rrggbbaa >> 16),
               static_cast<u8>(rrggbbaa >> 8), static_cast<u8>(rrggbbaa)};
}

// The inverse of rgba8_from_u32.
constexpr u32 rgba8_to_u32(Rgba8 c) {
  return (u32{c.r} << 24) | (u32{c.g} << 16) | (u32{c.b} << 8) | u32{c.a};
}

}  // namespace keel
