#include "keel/pipeline/detail/file_state.h"

#include "keel/core/file.h"
#include "keel/core/hash.h"

#include <sys/stat.h>
#include <time.h>

namespace keel::pipeline {

std::optional<FileStamp> stat_file(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
  return FileStamp{static_cast<u64>(st.st_size),
                   static_cast<s64>(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec,
                   static_cast<u64>(st.st_ino)};
}

s64 wall_clock_ns() {
  timespec ts{};
  ::clock_gettime(CLOCK_REALTIME, &ts);
  return static_cast<s64>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

u64 content_hash(ByteSpan bytes) { return hash64(bytes.data(), bytes.size()); }

Result<HashedFile> read_and_hash_file(const std::string& path) {
  // Stat before reading: if the file changes while it is read, the recorded stamp is the older
  // one, so the next build sees a different stamp and hashes it again.
  const s64 now = wall_clock_ns();
  const std::optional<FileStamp> stamp = stat_file(path);
  if (!stamp) return fail_at(SourceLocation::text(path, 0), ErrorCode::kNotFound, "no such file");
  Result<std::string> bytes = read_file(path);
  if (!bytes) return Unexpected(bytes.error());
  const u64 hash = content_hash(as_bytes(*bytes));
  return HashedFile{FileRecord{*stamp, hash, now}, std::move(*bytes)};
}

Result<FileRecord> hash_file(const std::string& path) {
  Result<HashedFile> file = read_and_hash_file(path);
  if (!file) return Unexpected(file.error());
  return file->record;
}

}  // namespace keel::pipeline
