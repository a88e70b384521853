// Whole-file reads and crash-safe writes.
//
// Every file a user would hate to lose (saves, settings, high scores, packs) is written through
// AtomicFileWriter or write_file_atomic: the bytes go to a temporary file in the same directory,
// are flushed to disk, and only then renamed over the target. A crash or error mid-write leaves
// the previous file untouched; a failed write leaves no temporary behind.
#pragma once

#include "keel/core/bytes.h"
#include "keel/core/error.h"
#include "keel/core/types.h"

#include <cstdio>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>

namespace keel {

// The whole file. An empty path is kInvalidArgument; I/O failures are kIo naming the path.
Result<std::string> read_file(const std::filesystem::path& path);

// Replaces `path` with the bytes, atomically. Threads and processes may save the same target at
// once: each uses its own temporary name, and the last rename wins with a complete file.
Status write_file_atomic(const std::filesystem::path& path, ByteSpan bytes);
Status write_file_atomic(const std::filesystem::path& path, std::string_view text);

// Streams a file into place: open(), write() any number of times, commit(). Destroying an
// uncommitted writer (or a failed write) discards the temporary file. The temporary is
// `<target>.tmp.<pid>.<counter>.<random>`, created exclusively (O_EXCL): no two writers share one.
// Calls in the wrong order (write or commit before open) return kInvalidArgument.
class AtomicFileWriter {
 public:
  AtomicFileWriter() = default;
  ~AtomicFileWriter();
  AtomicFileWriter(const AtomicFileWriter&) = delete;
  AtomicFileWriter& operator=(const AtomicFileWriter&) = delete;

  Status open(const std::filesystem::path& path);
  Status write(const void* data, usize size);
  // For writers that learn a header only after the data (keel::pack's streaming writer): cut the
  // file back to `size` bytes and continue writing there; overwrite bytes already written.
  Status truncate(u64 size);
  Status write_at(u64 offset, const void* data, usize size);
  Status commit();  // flush, fsync, rename over the target
  void discard();
  bool is_open() const { return file_ != nullptr; }

 private:
  std::filesystem::path target_;
  std::filesystem::path temp_;
  std::FILE* file_ = nullptr;
};

// Temporaries of atomic writes (`<target>.tmp.<pid>.<...>`, as AtomicFileWriter names them) that
// a process no longer running left behind, e.g. after kill -9. Temporaries of running processes
// (this one included) are kept.
//
// Deletes such files in `dir` (and its subfolders with `recursive`); returns how many.
usize remove_stale_temporaries(const std::filesystem::path& dir, bool recursive = false);
// Deletes only the stale temporaries of one target file (`<target>.tmp.<dead pid>.*` beside it):
// for tools that write one file into a folder they do not own.
usize remove_stale_temporaries_of(const std::filesystem::path& target);

}  // namespace keel
