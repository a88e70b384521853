// Keel's one vocabulary for raw bytes: std::byte, viewed through spans.
//
// Every module passes binary data as ByteSpan (read-only view), MutableByteSpan (writable view)
// or ByteBuffer (owned). u8 stays the type of *numbers* that are one byte wide (a colour
// channel, an opcode field); bytes that are just data are std::byte. The helpers below are the
// only places that convert between the two worlds, so call sites carry no casts.
#pragma once

#include "keel/core/types.h"

#include <cstddef>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace keel {

using ByteSpan = std::span<const std::byte>;
using MutableByteSpan = std::span<std::byte>;
using ByteBuffer = std::vector<std::byte>;

// The bytes of a string, without copying.
inline ByteSpan as_bytes(std::string_view text) {
  return {reinterpret_cast<const std::byte*>(text.data()), text.size()};  // NOLINT
}

// The bytes of a span of one-byte numbers (u8, char, ...), without copying.
template <class T>
requires(sizeof(T) == 1) inline ByteSpan as_bytes(std::span<const T> values) {
  return {reinterpret_cast<const std::byte*>(values.data()), values.size()};  // NOLINT
}
template <class T>
requires(sizeof(T) == 1) inline MutableByteSpan as_writable_bytes(std::span<T> values) {
  return {reinterpret_cast<std::byte*>(values.data()), values.size()};  // NOLINT
}

// The same bytes seen as characters or as u8 numbers, without copying.
inline std::string_view as_chars(ByteSpan bytes) {
  return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};  // NOLINT
}
inline std::span<const u8> as_u8(ByteSpan bytes) {
  return {reinterpret_cast<const u8*>(bytes.data()), bytes.size()};  // NOLINT
}
inline std::span<u8> as_u8(MutableByteSpan bytes) {
  return {reinterpret_cast<u8*>(bytes.data()), bytes.size()};  // NOLINT
}

// Owned copies.
inline ByteBuffer to_buffer(ByteSpan bytes) { return {bytes.begin(), bytes.end()}; }
inline ByteBuffer to_buffer(std::string_view text) { return to_buffer(as_bytes(text)); }
inline std::string to_string(ByteSpan bytes) { return std::string(as_chars(bytes)); }

// A bool restored byte for byte (a save file, a component store) may hold any byte, and reading
// such a bool is undefined: check its byte, 0 or 1, before the bool is read.
inline bool bool_byte_ok(const bool& b) {
  u8 byte = 0;
  std::memcpy(&byte, &b, 1);
  return byte <= 1;
}

}  // namespace keel
