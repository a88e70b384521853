// Fixed-size arithmetic types used across Keel. Sizes are checked at compile time so a port to a
// platform with different widths fails to build instead of corrupting data files.
#pragma once

#include <cstddef>
#include <cstdint>

namespace keel {

using u8 = std::uint8_t;
using u16 = std::uint16_t;
using u32 = std::uint32_t;
using u64 = std::uint64_t;
using s8 = std::int8_t;
using s16 = std::int16_t;
using s32 = std::int32_t;
using s64 = std::int64_t;
using f32 = float;
using f64 = double;
using usize = std::size_t;

static_assert(sizeof(u8) == 1 && sizeof(s8) == 1);
static_assert(sizeof(u16) == 2 && sizeof(s16) == 2);
static_assert(sizeof(u32) == 4 && sizeof(s32) == 4);
static_assert(sizeof(u64) == 8 && sizeof(s64) == 8);
static_assert(sizeof(f32) == 4 && sizeof(f64) == 8);

}  // namespace keel
