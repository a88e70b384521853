// BufferSaver: writes an object into a caller's fixed buffer, big-endian.
//
//   Sizer sizer;  sizer.io(table);
//   keel::ByteBuffer bytes(sizer.size());
//   BufferSaver saver(bytes);
//   saver.io(table);
//   if (!saver.ok()) ...           // kOverflow: the buffer was too small
//   saver.remaining() == 0         // the seed's "flow": bytes left unused
//
// A value that does not fit is not written at all (nothing is ever written past the end); the
// saver records kOverflow with the offset of that value and writes nothing more.
#pragma once

#include "keel/serial/archive.h"

#include <span>
#include <string>

namespace keel::serial {

class BufferSaver : public ArchiveBase<BufferSaver> {
 public:
  static constexpr bool kLoading = false;
  static constexpr bool kSaving = true;
  static constexpr bool kSizing = false;

  explicit BufferSaver(MutableByteSpan buffer, std::string name = {})
      : ArchiveBase(std::move(name)),
        begin_(as_u8(buffer).data()),
        cur_(begin_),
        end_(begin_ + buffer.size()),
        limit_(end_) {}

  usize used() const { return static_cast<usize>(cur_ - begin_); }
  usize remaining() const { return static_cast<usize>(limit_ - cur_); }
  ByteSpan written() const { return as_bytes(std::span<const u8>(begin_, used())); }
  Status finish() const { return status(); }

  // --- primitives (see ArchiveBase) ---
  template <WireScalar T>
  void put(T value) {
    if (sizeof(T) <= static_cast<usize>(end_ - cur_)) [[likely]] {
      store_be(cur_, value);
      cur_ += sizeof(T);
    } else {
      overflow(sizeof(T));
    }
  }
  void put_bytes(const std::byte* data, usize size) {
    if (size <= static_cast<usize>(end_ - cur_)) [[likely]] {
      if (size != 0) std::memcpy(cur_, data, size);
      cur_ += size;
    } else {
      overflow(size);
    }
  }
  template <WireScalar T>
  void put_array(const T* data, usize count) {
    const usize size = count * sizeof(T);
    if (size <= static_cast<usize>(end_ - cur_)) [[likely]] {
      store_be_array(cur_, data, count);
      cur_ += size;
    } else {
      overflow(size);
    }
  }
  template <WireScalar... Ts>
  void put_block(const Ts&... values) {
    constexpr usize kSize = (sizeof(Ts) + ...);
    if (kSize <= static_cast<usize>(end_ - cur_)) [[likely]] {
      u8* p = cur_;
      ((store_be(p, values), p += sizeof(Ts)), ...);
      cur_ = p;
    } else {
      (put(values), ...);  // reports the first value that does not fit
    }
  }
  u64 offset() const { return used(); }
  void halt() { end_ = cur_; }

 private:
  [[gnu::cold]] void overflow(usize size);

  u8* begin_;
  u8* cur_;
  u8* end_;    // == limit_ until an error halts the saver
  u8* limit_;  // the real end of the buffer
};

}  // namespace keel::serial
