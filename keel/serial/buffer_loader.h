// BufferLoader: reads an object back from bytes in memory.
//
//   BufferLoader loader(bytes);
//   loader.io(table);
//   Status s = loader.finish();   // kUnderflow: data ended early; kTrailingData: data left over;
//                                 // kCorrupt / kOutOfRange: a bad flag byte or length field
//
// Every read is bounds-checked; every length field is checked against the bytes left and the
// LoadLimits before anything is allocated.
#pragma once

#include "keel/serial/archive.h"

#include <span>
#include <string>
#include <string_view>

namespace keel::serial {

class BufferLoader : public ArchiveBase<BufferLoader> {
 public:
  static constexpr bool kLoading = true;
  static constexpr bool kSaving = false;
  static constexpr bool kSizing = false;

  explicit BufferLoader(ByteSpan data, LoadLimits limits = {}, std::string name = {})
      : ArchiveBase(std::move(name)),
        begin_(as_u8(data).data()),
        cur_(begin_),
        end_(begin_ + data.size()),
        limits_(limits) {}
  // For bytes held in a std::string (e.g. from keel::read_file).
  explicit BufferLoader(std::string_view data, LoadLimits limits = {}, std::string name = {})
      : BufferLoader(as_bytes(data), limits, std::move(name)) {}

  // Call after the whole object: the first error, else kTrailingData if bytes are left over.
  Status finish();

  // --- primitives (see ArchiveBase) ---
  template <WireScalar T>
  bool get(T& value) {
    if (sizeof(T) <= static_cast<usize>(end_ - cur_)) [[likely]] {
      value = load_be<T>(cur_);
      cur_ += sizeof(T);
      return true;
    }
    underflow(sizeof(T));
    return false;
  }
  bool get_bytes(std::byte* data, usize size) {
    if (size <= static_cast<usize>(end_ - cur_)) [[likely]] {
      if (size != 0) std::memcpy(data, cur_, size);
      cur_ += size;
      return true;
    }
    underflow(size);
    return false;
  }
  template <WireScalar T>
  bool get_array(T* data, usize count) {
    const usize size = count * sizeof(T);
    if (size <= static_cast<usize>(end_ - cur_)) [[likely]] {
      load_be_array(data, cur_, count);
      cur_ += size;
      return true;
    }
    underflow(size);
    return false;
  }
  template <WireScalar... Ts>
  bool get_block(Ts&... values) {
    constexpr usize kSize = (sizeof(Ts) + ...);
    if (kSize <= static_cast<usize>(end_ - cur_)) [[likely]] {
      const u8* p = cur_;
      ((values = load_be<Ts>(p), p += sizeof(Ts)), ...);
      cur_ = p;
      return true;
    }
    return (get(values) && ...);  // loads what is there, reports the first value that is not
  }
  u64 remaining() const { return static_cast<u64>(end_ - cur_); }
  u64 offset() const { return static_cast<u64>(cur_ - begin_); }
  const LoadLimits& limits() const { return limits_; }
  void halt() { end_ = cur_; }

 private:
  [[gnu::cold]] void underflow(usize size);

  const u8* begin_;
  const u8* cur_;
  const u8* end_;
  LoadLimits limits_;
};

}  // namespace keel::serial
