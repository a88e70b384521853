// GrowingSaver: saves in one pass into a buffer it owns and grows as needed.
//
//   GrowingSaver saver;
//   saver.io(snapshot);
//   send(saver.bytes());
//   saver.clear();          // reuse: keeps the capacity, so steady-state saves allocate nothing
//
// The alternative to sizing then saving into an exact buffer (save_to_bytes): no sizing pass,
// at the price of a buffer that may be up to twice the data. Errors: a string or vector too long
// for its u32 length, or the user's fail().
#pragma once

#include "keel/serial/archive.h"

#include <memory>
#include <span>
#include <vector>

namespace keel::serial {

class GrowingSaver : public ArchiveBase<GrowingSaver> {
 public:
  static constexpr bool kLoading = false;
  static constexpr bool kSaving = true;
  static constexpr bool kSizing = false;

  explicit GrowingSaver(usize initial_capacity = 256);

  ByteSpan bytes() const { return as_bytes(std::span<const u8>(buffer_.get(), used())); }
  ByteBuffer to_vector() const { return to_buffer(bytes()); }
  usize used() const { return static_cast<usize>(cur_ - buffer_.get()); }
  usize capacity() const { return capacity_; }
  // Forgets what was written and any error; keeps the buffer.
  void clear();
  Status finish() const { return status(); }

  // --- primitives (see ArchiveBase) ---
  template <WireScalar T>
  void put(T value) {
    if (sizeof(T) <= static_cast<usize>(end_ - cur_) || grow(sizeof(T))) [[likely]] {
      store_be(cur_, value);
      cur_ += sizeof(T);
    }
  }
  void put_bytes(const std::byte* data, usize size) {
    if (size <= static_cast<usize>(end_ - cur_) || grow(size)) [[likely]] {
      if (size != 0) std::memcpy(cur_, data, size);
      cur_ += size;
    }
  }
  template <WireScalar T>
  void put_array(const T* data, usize count) {
    const usize size = count * sizeof(T);
    if (size <= static_cast<usize>(end_ - cur_) || grow(size)) [[likely]] {
      store_be_array(cur_, data, count);
      cur_ += size;
    }
  }
  template <WireScalar... Ts>
  void put_block(const Ts&... values) {
    constexpr usize kSize = (sizeof(Ts) + ...);
    if (kSize <= static_cast<usize>(end_ - cur_) || grow(kSize)) [[likely]] {
      u8* p = cur_;
      ((store_be(p, values), p += sizeof(Ts)), ...);
      cur_ = p;
    }
  }
  u64 offset() const { return used(); }
  void halt() { end_ = cur_; }

 private:
  // Makes room for `size` more bytes; false once the saver has failed.
  [[gnu::cold]] bool grow(usize size);

  std::unique_ptr<u8[]> buffer_;
  usize capacity_;
  u8* cur_;
  u8* end_;
};

}  // namespace keel::serial
