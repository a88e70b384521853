// Little-endian byte writer and bounds-checked reader used by the container and the object
// stream. Reads past the end fail (the caller turns that into a located error); nothing is
// allocated from a length found in the data without checking it against what remains.
#pragma once

#include "keel/core/bytes.h"
#include "keel/core/types.h"

#include <bit>
#include <cstring>
#include <string>
#include <string_view>

namespace keel::save::detail {

static_assert(std::endian::native == std::endian::little,
              "keel/save writes its fixed fields little-endian with memcpy; port the stream");

// memcpy of a length known only at run time, without the library call for the short runs of
// passive members a plan mostly has (two overlapping fixed-size copies).
inline void copy_bytes(void* to, const void* from, usize n) {
  auto* out = static_cast<std::byte*>(to);
  const auto* in = static_cast<const std::byte*>(from);
  if (n >= 8 && n <= 16) {
    u64 a = 0;
    u64 b = 0;
    std::memcpy(&a, in, 8);
    std::memcpy(&b, in + n - 8, 8);
    std::memcpy(out, &a, 8);
    std::memcpy(out + n - 8, &b, 8);
  } else if (n >= 4 && n < 8) {
    u32 a = 0;
    u32 b = 0;
    std::memcpy(&a, in, 4);
    std::memcpy(&b, in + n - 4, 4);
    std::memcpy(out, &a, 4);
    std::memcpy(out + n - 4, &b, 4);
  } else if (n > 16 && n <= 32) {
    u64 a[2] = {};
    u64 b[2] = {};
    std::memcpy(a, in, 16);
    std::memcpy(b, in + n - 16, 16);
    std::memcpy(out, a, 16);
    std::memcpy(out + n - 16, b, 16);
  } else if (n != 0) {
    std::memcpy(out, in, n);
  }
}

class Writer {
 public:
  explicit Writer(ByteBuffer& out) : out_(out) {}
  void bytes(const void* data, usize size) {
    const auto* p = static_cast<const std::byte*>(data);
    out_.insert(out_.end(), p, p + size);
  }
  template <class T>
  void value(T v) {
    bytes(&v, sizeof(T));
  }
  void u32v(u32 v) { value(v); }
  void u64v(u64 v) { value(v); }
  void string(std::string_view text) {
    u32v(static_cast<u32>(text.size()));
    bytes(text.data(), text.size());
  }
  void blob(ByteSpan data) {
    u32v(static_cast<u32>(data.size()));
    bytes(data.data(), data.size());
  }
  usize size() const { return out_.size(); }
  ByteBuffer& buffer() { return out_; }

 private:
  ByteBuffer& out_;
};

class Reader {
 public:
  Reader() = default;
  explicit Reader(ByteSpan data) : data_(data) {}
  bool bytes(void* out, usize size) {
    if (size > remaining()) return false;
    copy_bytes(out, data_.data() + pos_, size);
    pos_ += size;
    return true;
  }
  template <class T>
  bool value(T& v) {
    return bytes(&v, sizeof(T));
  }
  bool skip(usize size) {
    if (size > remaining()) return false;
    pos_ += size;
    return true;
  }
  bool string(std::string& out, usize max = 1 << 20) {
    u32 n = 0;
    if (!value(n) || n > remaining() || n > max) return false;
    out.assign(reinterpret_cast<const char*>(data_.data() + pos_), n);
    pos_ += n;
    return true;
  }
  bool blob(ByteBuffer& out) {
    u32 n = 0;
    if (!value(n) || n > remaining()) return false;
    out.assign(data_.begin() + static_cast<std::ptrdiff_t>(pos_),
               data_.begin() + static_cast<std::ptrdiff_t>(pos_ + n));
    pos_ += n;
    return true;
  }
  usize remaining() const { return data_.size() - pos_; }
  usize pos() const { return pos_; }
  void seek(usize pos) { pos_ = pos <= data_.size() ? pos : data_.size(); }
  ByteSpan data() const { return data_; }

 private:
  ByteSpan data_;
  usize pos_ = 0;
};

}  // namespace keel::save::detail
