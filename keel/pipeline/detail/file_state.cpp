#include "keel/pipeline/detail/file_state.h"

#include "keel/core/file.h"
#include "keel/core/hash.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace keel::pipeline {

namespace {

std::optional<FileStamp> to_stamp(const struct stat& st) {
  if (!S_ISREG(st.st_mode)) return std::nullopt;
  return FileStamp{static_cast<u64>(st.st_size),
                   static_cast<s64>(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec,
                   static_cast<u64>(st.st_ino)};
}

}  // namespace

std::optional<FileStamp> stat_file(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return std::nullopt;
  return to_stamp(st);
}

DirectoryHandles::~DirectoryHandles() {
  for (const auto& [dir, fd] : folders_) ::close(fd);
}

int DirectoryHandles::handle(std::string_view dir) {
  const std::lock_guard lock(mutex_);
  for (const auto& [name, fd] : folders_) {
    if (name == dir) return fd;
  }
  if (folders_.size() >= kMaxFolders) return -1;
  const std::string path(dir);
  const int fd = ::open(path.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (fd >= 0) folders_.emplace_back(path, fd);
  return fd;
}

std::optional<FileStamp> DirectoryHandles::stat_in(std::string_view dir, std::string_view name) {
  if (name.empty()) return std::nullopt;
  if (name.front() == '/') return stat_file(std::string(name));
  const int fd = handle(dir);
  if (fd < 0) {
    std::string path(dir);
    path += '/';
    path += name;
    return stat_file(path);
  }
  const std::string relative(name);
  struct stat st {};
  if (::fstatat(fd, relative.c_str(), &st, 0) != 0) return std::nullopt;
  return to_stamp(st);
}

std::optional<FileStamp> DirectoryHandles::stat(std::string_view path) {
  const usize slash = path.rfind('/');
  if (slash == std::string_view::npos || slash == 0) return stat_file(std::string(path));
  return stat_in(path.substr(0, slash), path.substr(slash + 1));
}

s64 wall_clock_ns() {
  timespec ts{};
  ::clock_gettime(CLOCK_REALTIME, &ts);
  return static_cast<s64>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

u64 content_hash(ByteSpan bytes) { return hash64(bytes.data(), bytes.size()); }

std::optional<FileRecord> FileStateMemo::find(u64 key, const FileStamp& now) const {
  std::lock_guard lock(mutex_);
  const auto it = records_.find(key);
  if (it == records_.end() || !can_trust(it->second, now)) return std::nullopt;
  return it->second;
}

void FileStateMemo::put(u64 key, const FileRecord& record) {
  std::lock_guard lock(mutex_);
  records_.insert_or_assign(key, record);
}

namespace {

// Hashes the file in pieces of kHashPiece bytes; keeps the contents in `content` only when the
// file has at most kKeepContentLimit bytes (larger files are read again by whoever needs them).
Result<FileRecord> hash_file_impl(const std::string& path, std::string* content) {
  // Stat before reading: if the file changes while it is read, the recorded stamp is the older
  // one, so the next build sees a different stamp and hashes it again.
  const s64 now = wall_clock_ns();
  const std::optional<FileStamp> stamp = stat_file(path);
  if (!stamp) return fail_at(SourceLocation::text(path, 0), ErrorCode::kNotFound, "no such file");
  if (content != nullptr && stamp->size <= kKeepContentLimit) {
    Result<std::string> bytes = read_file(path);
    if (!bytes) return Unexpected(bytes.error());
    *content = std::move(*bytes);
    return FileRecord{*stamp, content_hash(as_bytes(*content)), now};
  }
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) {
    return fail_at(SourceLocation::text(path, 0), ErrorCode::kIo, "cannot open for reading: {}",
                   std::strerror(errno));
  }
  Hasher64 hasher;
  ByteBuffer buffer(kHashPiece);
  for (;;) {
    const usize n = std::fread(buffer.data(), 1, buffer.size(), f);
    hasher.update(buffer.data(), n);
    if (n < buffer.size()) break;
  }
  const bool failed = std::ferror(f) != 0;
  std::fclose(f);
  if (failed) {
    return fail_at(SourceLocation::text(path, 0), ErrorCode::kIo, "read failed: {}",
                   std::strerror(errno));
  }
  return FileRecord{*stamp, hasher.digest(), now};
}

}  // namespace

Result<HashedFile> read_and_hash_file(const std::string& path) {
  HashedFile file;
  Result<FileRecord> record = hash_file_impl(path, &file.content);
  if (!record) return Unexpected(record.error());
  file.record = *record;
  return file;
}

Result<FileRecord> hash_file(const std::string& path) { return hash_file_impl(path, nullptr); }

}  // namespace keel::pipeline
