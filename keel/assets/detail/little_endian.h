// Little-endian fields of the asset chunks (font, sound) and of WAV files: append to a buffer,
// read at an offset the caller has already bounds-checked.
#pragma once

#include "keel/core/bytes.h"
#include "keel/core/types.h"

namespace keel::assets::detail {

inline void put16(ByteBuffer& out, u32 v) {
  for (int i = 0; i < 2; ++i) out.push_back(static_cast<std::byte>(v >> (8 * i)));
}
inline void put32(ByteBuffer& out, u32 v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<std::byte>(v >> (8 * i)));
}
inline u32 get16(ByteSpan bytes, usize at) {
  return static_cast<u32>(bytes[at]) | (static_cast<u32>(bytes[at + 1]) << 8);
}
inline u32 get32(ByteSpan bytes, usize at) {
  return get16(bytes, at) | (get16(bytes, at + 2) << 16);
}

}  // namespace keel::assets::detail
