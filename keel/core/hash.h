// Hash functions.
//
// - The book's rotate-left-7 hashes (Golden Rules ch. 3): `hash = rotl(hash, 7) + byte` for every
//   byte, starting from 0. `hash_bytes` over raw bytes, `make_hash` over a trivially copyable
//   object's bytes (host byte order: the result differs between little- and big-endian hosts),
//   `filename_hash` folding A-Z to lower case and '/' to '\'.
// - Bytes >= 0x80: Keel adds them as unsigned values (0xE9 adds 0xE9). The book's code adds a
//   plain `char`, which is sign-extended where char is signed (0xE9 adds 0xFFFFFFE9); pass
//   HighBytes::kSignExtend to reproduce that. The default is the same on every platform.
// - `hash64`: a fast, well-distributed 64-bit hash (xxHash XXH3) for content hashing.
// - String ids: `keel::id("stance")` / `"stance"_id` are compile-time StringIds whose value equals
//   the run-time `string_hash("stance")` (the rotate-left-7 hash, case-sensitive).
#pragma once

#include "keel/core/assert.h"
#include "keel/core/types.h"

#include <bit>
#include <compare>
#include <cstring>
#include <span>
#include <string_view>
#include <type_traits>

namespace keel {

using Hash = u32;

constexpr u32 rotate_left(u32 value, int bits) { return std::rotl(value, bits); }

enum class HighBytes { kUnsigned, kSignExtend };

namespace detail {
constexpr u32 byte_value(char c, HighBytes mode) {
  const auto byte = static_cast<u8>(c);
  if (mode == HighBytes::kSignExtend && byte >= 0x80) {
    return static_cast<u32>(static_cast<s32>(static_cast<s8>(byte)));
  }
  return byte;
}
}  // namespace detail

// Rotate-left-7 hash of raw bytes.
constexpr Hash hash_bytes(std::span<const u8> bytes) {
  Hash h = 0;
  for (u8 b : bytes) h = rotate_left(h, 7) + b;
  return h;
}
// A null `data` with a non-zero size is a programmer error (asserts; hashes as empty: 0).
inline Hash hash_bytes(const void* data, usize size) {
  KEEL_ASSERT(data != nullptr || size == 0, "hash_bytes: {} bytes at a null pointer", size);
  if (data == nullptr) return 0;
  return hash_bytes(std::span<const u8>(static_cast<const u8*>(data), size));
}

// Rotate-left-7 hash of a string's bytes, case-sensitive.
constexpr Hash string_hash(std::string_view text, HighBytes mode = HighBytes::kUnsigned) {
  Hash h = 0;
  for (char c : text) h = rotate_left(h, 7) + detail::byte_value(c, mode);
  return h;
}

// The book's filename hash: case-insensitive for A-Z, '/' and '\' equal.
constexpr Hash filename_hash(std::string_view name, HighBytes mode = HighBytes::kUnsigned) {
  Hash h = 0;
  for (char c : name) {
    if (c >= 'A' && c <= 'Z') {
      c = static_cast<char>(c ^ 32);
    } else if (c == '/') {
      c = '\\';
    }
    h = rotate_left(h, 7) + detail::byte_value(c, mode);
  }
  return h;
}

// The book's MakeHash over an object's bytes. Restricted to types whose bytes are their value
// (no padding), so equal values always hash equal.
template <typename T>
requires std::is_trivially_copyable_v<T> && std::has_unique_object_representations_v<T> Hash
make_hash(const T& value) {
  unsigned char bytes[sizeof(T)];
  std::memcpy(bytes, &value, sizeof(T));
  return hash_bytes(std::span<const u8>(bytes, sizeof(T)));
}

// 64-bit content hash (XXH3-64). Stable across platforms and runs for the same seed.
// A null `data` with a non-zero size asserts and hashes as the empty input.
u64 hash64(const void* data, usize size, u64 seed = 0);
inline u64 hash64(std::string_view text, u64 seed = 0) {
  return hash64(text.data(), text.size(), seed);
}

// Incremental 64-bit hashing of data that arrives in pieces; equals hash64 of the concatenation.
class Hasher64 {
 public:
  explicit Hasher64(u64 seed = 0);
  ~Hasher64();
  Hasher64(const Hasher64&) = delete;
  Hasher64& operator=(const Hasher64&) = delete;
  void update(const void* data, usize size);
  void update(std::string_view text) { update(text.data(), text.size()); }
  u64 digest() const;

 private:
  void* state_;
};

// A 32-bit identifier made from a name at compile time.
struct StringId {
  Hash value = 0;
  friend constexpr auto operator<=>(StringId, StringId) = default;
};

consteval StringId id(std::string_view name) { return StringId{string_hash(name)}; }
constexpr StringId runtime_id(std::string_view name) { return StringId{string_hash(name)}; }

inline namespace literals {
consteval StringId operator""_id(const char* text, usize size) {
  return StringId{string_hash(std::string_view(text, size))};
}
}  // namespace literals

}  // namespace keel

template <>
struct std::hash<keel::StringId> {
  std::size_t operator()(keel::StringId id) const noexcept { return id.value; }
};
