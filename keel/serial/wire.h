// The wire format's primitives: fixed-width big-endian scalars, whatever the host.
//
// Integers and enums are written at their exact width (u8/s8 = 1 byte ... u64/s64 = 8), floats
// as their IEEE-754 bits (f32 = 4 bytes, f64 = 8), most significant byte first. Width comes from
// the type, never from the platform: use the exact-width aliases of keel/core/types.h.
#pragma once

#include "keel/core/types.h"

#include <bit>
#include <cstring>
#include <type_traits>

namespace keel::serial {

static_assert(std::endian::native == std::endian::little || std::endian::native == std::endian::big,
              "mixed-endian hosts are not supported");

// A value written as a fixed number of big-endian bytes and copied in bulk inside vectors and
// arrays: integers (not bool, which is a checked 0/1 byte), enums and f32/f64.
template <class T>
concept WireScalar = ((std::is_integral_v<T> && !std::is_same_v<T, bool>) || std::is_enum_v<T> ||
                      std::is_same_v<T, f32> ||
                      std::is_same_v<T, f64>)&&(sizeof(T) == 1 || sizeof(T) == 2 ||
                                                sizeof(T) == 4 || sizeof(T) == 8);

namespace detail {
template <usize N>
struct UintOfSize;
template <>
struct UintOfSize<1> {
  using Type = u8;
};
template <>
struct UintOfSize<2> {
  using Type = u16;
};
template <>
struct UintOfSize<4> {
  using Type = u32;
};
template <>
struct UintOfSize<8> {
  using Type = u64;
};
}  // namespace detail

// The unsigned integer with the same width as T: its bits on the wire.
template <WireScalar T>
using WireBits = typename detail::UintOfSize<sizeof(T)>::Type;

template <class U>
constexpr U to_big_endian(U raw) {
  if constexpr (std::endian::native == std::endian::little && sizeof(U) > 1) {
    return std::byteswap(raw);
  } else {
    return raw;
  }
}

namespace detail {
// An unaligned integer slot in a byte buffer. Storing through it (rather than memcpy) tells the
// compiler that the store cannot modify an archive's own cursor members: a byte store may alias
// anything, so after a memcpy every write would have to reload the write pointer from memory.
template <class U>
struct [[gnu::packed]] UnalignedSlot {
  U value;
};
}  // namespace detail

// Writes `value` as sizeof(T) big-endian bytes at `dst`.
template <WireScalar T>
inline void store_be(u8* dst, T value) {
  const WireBits<T> raw = to_big_endian(std::bit_cast<WireBits<T>>(value));
  reinterpret_cast<detail::UnalignedSlot<WireBits<T>>*>(dst)->value = raw;
}

// Reads sizeof(T) big-endian bytes at `src`.
template <WireScalar T>
inline T load_be(const u8* src) {
  WireBits<T> raw;
  std::memcpy(&raw, src, sizeof raw);
  return std::bit_cast<T>(to_big_endian(raw));
}

// Bulk forms for vectors and arrays: `count` values, count * sizeof(T) bytes.
template <WireScalar T>
inline void store_be_array(u8* dst, const T* src, usize count) {
  if constexpr (sizeof(T) == 1 || std::endian::native == std::endian::big) {
    if (count != 0) std::memcpy(dst, src, count * sizeof(T));
  } else {
    for (usize i = 0; i < count; ++i) store_be(dst + i * sizeof(T), src[i]);
  }
}

template <WireScalar T>
inline void load_be_array(T* dst, const u8* src, usize count) {
  if constexpr (sizeof(T) == 1 || std::endian::native == std::endian::big) {
    if (count != 0) std::memcpy(dst, src, count * sizeof(T));
  } else {
    for (usize i = 0; i < count; ++i) dst[i] = load_be<T>(src + i * sizeof(T));
  }
}

}  // namespace keel::serial
