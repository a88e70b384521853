// FileLoader: streams an object straight out of a file.
//
//   FileLoader loader("highscor.dat");
//   loader.io(table);
//   Status s = loader.finish();   // kNotFound / kIo, kUnderflow, kTrailingData, kCorrupt, ...
//
// Reads go through a small staging buffer (no whole-file buffer). The file's size is taken when
// it is opened, so length fields are validated against the bytes really left in the file, as
// in BufferLoader.
#pragma once

#include "keel/serial/archive.h"

#include <cstdio>
#include <filesystem>
#include <memory>

namespace keel::serial {

class FileLoader : public ArchiveBase<FileLoader> {
 public:
  static constexpr bool kLoading = true;
  static constexpr bool kSaving = false;
  static constexpr bool kSizing = false;
  static constexpr usize kDefaultBufferSize = usize{64} << 10;

  // A missing file is kNotFound, any other open failure kIo (reported by status()/finish()).
  explicit FileLoader(const std::filesystem::path& path, LoadLimits limits = {},
                      usize buffer_size = kDefaultBufferSize);
  ~FileLoader();

  // Call after the whole object: the first error, else kTrailingData if bytes are left over.
  Status finish();
  u64 file_size() const { return file_size_; }

  // --- primitives (see ArchiveBase) ---
  template <WireScalar T>
  bool get(T& value) {
    if (sizeof(T) <= static_cast<usize>(end_ - cur_) || fill(sizeof(T))) [[likely]] {
      value = load_be<T>(cur_);
      cur_ += sizeof(T);
      return true;
    }
    return false;
  }
  bool get_bytes(std::byte* data, usize size) {
    if (size <= static_cast<usize>(end_ - cur_)) [[likely]] {
      if (size != 0) std::memcpy(data, cur_, size);
      cur_ += size;
      return true;
    }
    return get_bytes_slow(data, size);
  }
  template <WireScalar T>
  bool get_array(T* data, usize count) {
    const usize size = count * sizeof(T);
    if (size <= static_cast<usize>(end_ - cur_)) [[likely]] {
      load_be_array(data, cur_, count);
      cur_ += size;
      return true;
    }
    // Fail before reading anything, as BufferLoader does, if the file cannot hold it all.
    if (!ok() || size > remaining()) return underflow(size);
    while (count != 0) {
      if (static_cast<usize>(end_ - cur_) < sizeof(T) && !fill(sizeof(T))) return false;
      const usize n = std::min(count, static_cast<usize>(end_ - cur_) / sizeof(T));
      load_be_array(data, cur_, n);
      cur_ += n * sizeof(T);
      data += n;
      count -= n;
    }
    return true;
  }
  template <WireScalar... Ts>
  bool get_block(Ts&... values) {
    constexpr usize kSize = (sizeof(Ts) + ...);
    if (kSize <= static_cast<usize>(end_ - cur_) ||
        (kSize <= capacity_ && kSize <= remaining() && fill(kSize))) [[likely]] {
      const u8* p = cur_;
      ((values = load_be<Ts>(p), p += sizeof(Ts)), ...);
      cur_ = p;
      return true;
    }
    return (get(values) && ...);
  }
  u64 remaining() const { return ok() ? file_size_ - offset() : 0; }
  u64 offset() const { return buffer_offset_ + static_cast<u64>(cur_ - buffer_.get()); }
  const LoadLimits& limits() const { return limits_; }
  void halt() { end_ = cur_; }

 private:
  // Makes at least `size` (<= capacity) bytes available at cur_; false (kUnderflow) at the end.
  bool fill(usize size);
  bool get_bytes_slow(std::byte* data, usize size);
  // Records kUnderflow for a read of `size` bytes at the current offset; returns false.
  [[gnu::cold]] bool underflow(usize size);
  // Reads up to `size` bytes from the file; false on a read error (recorded).
  bool read_some(void* data, usize size, usize& got);

  std::FILE* file_ = nullptr;
  std::unique_ptr<u8[]> buffer_;
  usize capacity_;
  const u8* cur_;
  const u8* end_;
  u64 buffer_offset_ = 0;  // file offset of buffer_[0]
  u64 file_size_ = 0;
  LoadLimits limits_;
};

}  // namespace keel::serial
