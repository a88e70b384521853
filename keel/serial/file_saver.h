// FileSaver: streams an object straight into a file, crash-safely.
//
//   FileSaver saver("highscor.dat");
//   saver.io(table);
//   Status s = saver.commit();   // the file is replaced only if every write succeeded
//
// Bytes go through a small staging buffer (no whole-file buffer) into a keel::AtomicFileWriter:
// a temporary file beside the target, flushed, synced and renamed into place by commit(). A
// saver destroyed without commit(), or one that failed, leaves the previous file untouched and
// no temporary behind. Errors: kIo (the operating system refused), or the user's fail().
#pragma once

#include "keel/core/file.h"
#include "keel/serial/archive.h"

#include <filesystem>
#include <memory>

namespace keel::serial {

class FileSaver : public ArchiveBase<FileSaver> {
 public:
  static constexpr bool kLoading = false;
  static constexpr bool kSaving = true;
  static constexpr bool kSizing = false;
  static constexpr usize kDefaultBufferSize = usize{64} << 10;

  explicit FileSaver(const std::filesystem::path& path, usize buffer_size = kDefaultBufferSize);
  ~FileSaver();

  // Writes what is buffered and renames the file into place. Returns the first error of the
  // whole save (after which the old file is still there). Call once.
  Status commit();

  // --- primitives (see ArchiveBase) ---
  template <WireScalar T>
  void put(T value) {
    if (sizeof(T) <= static_cast<usize>(end_ - cur_) || make_room()) [[likely]] {
      store_be(cur_, value);
      cur_ += sizeof(T);
    }
  }
  void put_bytes(const std::byte* data, usize size) {
    if (size <= static_cast<usize>(end_ - cur_)) [[likely]] {
      if (size != 0) std::memcpy(cur_, data, size);
      cur_ += size;
    } else {
      put_bytes_slow(data, size);
    }
  }
  template <WireScalar T>
  void put_array(const T* data, usize count) {
    while (count != 0) {
      if (static_cast<usize>(end_ - cur_) < sizeof(T) && !make_room()) return;
      const usize n = std::min(count, static_cast<usize>(end_ - cur_) / sizeof(T));
      store_be_array(cur_, data, n);
      cur_ += n * sizeof(T);
      data += n;
      count -= n;
    }
  }
  template <WireScalar... Ts>
  void put_block(const Ts&... values) {
    constexpr usize kSize = (sizeof(Ts) + ...);
    if (kSize <= static_cast<usize>(end_ - cur_) || (kSize <= capacity_ && make_room()))
        [[likely]] {
      u8* p = cur_;
      ((store_be(p, values), p += sizeof(Ts)), ...);
      cur_ = p;
    } else {
      (put(values), ...);
    }
  }
  u64 offset() const { return flushed_ + static_cast<u64>(cur_ - buffer_.get()); }
  void halt() { end_ = cur_; }

 private:
  bool make_room();  // flushes the staging buffer; false once failed
  void put_bytes_slow(const std::byte* data, usize size);
  bool flush();

  AtomicFileWriter writer_;
  std::unique_ptr<u8[]> buffer_;
  usize capacity_;
  u8* cur_;
  u8* end_;
  u64 flushed_ = 0;  // bytes already handed to the writer
  bool committed_ = false;
};

}  // namespace keel::serial
