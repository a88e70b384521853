// The little-endian byte stream shared by the entity-definition and event-chain chunks: a writer
// for the build side and a bounds-checked reader for the load side (every read checks the
// remaining length; a hostile chunk is an error with its byte offset, never an overrun).
#pragma once

#include "keel/core/bytes.h"
#include "keel/core/error.h"
#include "keel/core/types.h"

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <string_view>

namespace keel::world::detail {

// Strings longer than this are refused by the reader (names and parameter texts are short).
inline constexpr u32 kMaxDefString = 4096;

class DefWriter {
 public:
  void u8v(u8 v) { out_.push_back(static_cast<std::byte>(v)); }
  void u32v(u32 v) {
    for (int i = 0; i < 4; ++i) u8v(static_cast<u8>(v >> (8 * i)));
  }
  void f64v(double v) {
    const u64 bits = std::bit_cast<u64>(v);
    u32v(static_cast<u32>(bits));
    u32v(static_cast<u32>(bits >> 32));
  }
  void str(std::string_view s) {
    u32v(static_cast<u32>(s.size()));
    const ByteSpan bytes = as_bytes(s);
    out_.insert(out_.end(), bytes.begin(), bytes.end());
  }
  ByteBuffer take() { return std::move(out_); }

 private:
  ByteBuffer out_;
};

class DefReader {
 public:
  DefReader(ByteSpan bytes, std::string_view what) : bytes_(bytes), what_(what) {}

  usize offset() const { return at_; }
  usize remaining() const { return bytes_.size() - at_; }

  Result<u8> u8v() {
    if (remaining() < 1) return short_read();
    return static_cast<u8>(bytes_[at_++]);
  }
  Result<u32> u32v() {
    if (remaining() < 4) return short_read();
    u32 v = 0;
    for (int i = 0; i < 4; ++i) v |= static_cast<u32>(bytes_[at_ + i]) << (8 * i);
    at_ += 4;
    return v;
  }
  // A finite number (NaN and infinities are corrupt data).
  Result<double> f64v() {
    const Result<u32> lo = u32v();
    if (!lo) return std::unexpected(lo.error());
    const Result<u32> hi = u32v();
    if (!hi) return std::unexpected(hi.error());
    const double v = std::bit_cast<double>(static_cast<u64>(*lo) | (static_cast<u64>(*hi) << 32));
    if (!std::isfinite(v)) return corrupt("a number is not finite");
    return v;
  }
  // A number stored as f64 but held as f32: finite and within f32's range.
  Result<f32> f32v() {
    const Result<double> v = f64v();
    if (!v) return std::unexpected(v.error());
    if (std::fabs(*v) > static_cast<double>(std::numeric_limits<f32>::max())) {
      return corrupt("a number is out of the range of f32");
    }
    return static_cast<f32>(*v);
  }
  // A length-prefixed string of at most kMaxDefString bytes; `allow_empty` for optional names.
  Result<std::string> str(bool allow_empty = false) {
    const Result<u32> n = u32v();
    if (!n) return std::unexpected(n.error());
    if (*n > kMaxDefString) return corrupt("a string is longer than 4096 bytes");
    if (*n > remaining()) return short_read();
    if (*n == 0 && !allow_empty) return corrupt("a name is empty");
    std::string s(as_chars(bytes_.subspan(at_, *n)));
    at_ += *n;
    return s;
  }
  // A count of records of at least `min_record` bytes each: never more than the rest can hold.
  Result<u32> count(usize min_record) {
    const Result<u32> n = u32v();
    if (!n) return std::unexpected(n.error());
    if (static_cast<u64>(*n) * min_record > remaining()) {
      return corrupt("a count is larger than the rest of the chunk can hold");
    }
    return n;
  }
  Unexpected corrupt(std::string_view message) const {
    return fail_at(SourceLocation::bytes(std::string(what_), at_), ErrorCode::kCorrupt, "{}",
                   message);
  }

 private:
  Unexpected short_read() const {
    return fail_at(SourceLocation::bytes(std::string(what_), at_), ErrorCode::kUnderflow,
                   "the chunk ends in the middle of a record");
  }
  ByteSpan bytes_;
  usize at_ = 0;
  std::string_view what_;
};

}  // namespace keel::world::detail
