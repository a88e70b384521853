// Sizer: adds up how many bytes an object takes on the wire, without writing anything.
//
//   Sizer sizer;
//   sizer.io(table);
//   keel::ByteBuffer bytes(sizer.size());
#pragma once

#include "keel/serial/archive.h"

namespace keel::serial {

class Sizer : public ArchiveBase<Sizer> {
 public:
  static constexpr bool kLoading = false;
  static constexpr bool kSaving = false;
  static constexpr bool kSizing = true;

  Sizer() = default;

  // Bytes counted so far; meaningless once !ok() (a string too long for its length field, or
  // the user's fail()).
  usize size() const { return size_; }

  // --- primitives (see ArchiveBase) ---
  template <WireScalar T>
  void put(T) {
    size_ += sizeof(T);
  }
  void put_bytes(const std::byte*, usize size) { size_ += size; }
  template <WireScalar T>
  void put_array(const T*, usize count) {
    size_ += count * sizeof(T);
  }
  template <WireScalar... Ts>
  void put_block(const Ts&...) {
    size_ += (sizeof(Ts) + ...);
  }
  u64 offset() const { return size_; }
  void halt() {}

 private:
  usize size_ = 0;
};

}  // namespace keel::serial
