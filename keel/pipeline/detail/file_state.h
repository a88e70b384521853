// What the build remembers about a file instead of a timestamp: its content hash, plus the stat
// data (size, modification time, inode) seen when the hash was taken, so an unchanged file is not
// read again. Like git's index, a cached hash is trusted only when the stat data still matches
// AND the file's modification time was at least kRacyWindowNs older than the moment of hashing:
// a file modified again within the same timestamp tick (file systems have coarse clocks) would
// otherwise look unchanged. Such "racy" entries are simply hashed again on the next build.
#pragma once

#include "keel/core/bytes.h"
#include "keel/core/error.h"
#include "keel/core/types.h"

#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace keel::pipeline {

struct FileStamp {
  u64 size = 0;
  s64 mtime_ns = 0;
  u64 inode = 0;
  friend bool operator==(const FileStamp&, const FileStamp&) = default;
};

// stat(2) of a regular file; nullopt when it does not exist or is not a regular file.
std::optional<FileStamp> stat_file(const std::string& path);

// Open handles of the few folders a build stats thousands of files in (include paths, the
// intermediate folders): fstatat(folder, name) walks one path component where stat(path) walks
// every one of an absolute path, which is most of a no-op build's system time. Thread-safe; owned
// by one data file's build, so a folder deleted and made again later is opened again by the next
// build. A folder that cannot be opened (yet) falls back to stat(path).
class DirectoryHandles {
 public:
  DirectoryHandles() = default;
  DirectoryHandles(const DirectoryHandles&) = delete;
  DirectoryHandles& operator=(const DirectoryHandles&) = delete;
  ~DirectoryHandles();

  // stat_file(dir + "/" + name), `name` relative (may hold '/').
  std::optional<FileStamp> stat_in(std::string_view dir, std::string_view name);
  // stat_file(path) for an absolute path.
  std::optional<FileStamp> stat(std::string_view path);

 private:
  static constexpr usize kMaxFolders = 64;
  int handle(std::string_view dir);

  std::mutex mutex_;
  std::vector<std::pair<std::string, int>> folders_;
};

// The wall clock in nanoseconds (the clock file systems stamp files with).
s64 wall_clock_ns();

inline constexpr s64 kRacyWindowNs = 2'000'000'000;  // FAT has 2 s timestamps

struct FileRecord {
  FileStamp stamp;
  u64 hash = 0;
  s64 hashed_at_ns = 0;
  friend bool operator==(const FileRecord&, const FileRecord&) = default;
};

// True when `cached` may stand in for reading a file whose stat data is `now`.
inline bool can_trust(const FileRecord& cached, const FileStamp& now) {
  return cached.stamp == now && cached.stamp.mtime_ns + kRacyWindowNs < cached.hashed_at_ns;
}

// Sources hashed during one Builder's run, shared by the builds of its data files: data files
// often share sources (the same texture in several levels), and a data file whose own database
// does not vouch for a source (a fresh checkout, wiped intermediates, a new data file) would read
// and hash it again. Keyed like the database's file states (BuildDatabase::file_key) and trusted
// by the same rule (can_trust: same stat data, hashed more than kRacyWindowNs after its mtime).
// Thread-safe. Only consulted when the data file's own database has no trusted state, so a no-op
// build never takes its lock.
class FileStateMemo {
 public:
  std::optional<FileRecord> find(u64 key, const FileStamp& now) const;
  void put(u64 key, const FileRecord& record);

 private:
  mutable std::mutex mutex_;
  std::unordered_map<u64, FileRecord> records_;
};

// The content hash used everywhere in the pipeline (XXH3-64 via keel::hash64).
u64 content_hash(ByteSpan bytes);

// Files are hashed in pieces of this size: memory does not grow with the file.
inline constexpr usize kHashPiece = usize{1} << 20;
// read_and_hash_file keeps the contents of files up to this size only.
inline constexpr u64 kKeepContentLimit = u64{8} << 20;

// Reads and hashes a file in pieces.
Result<FileRecord> hash_file(const std::string& path);

// Reads and hashes a file, keeping its contents (a handler is about to read it) when it has at
// most kKeepContentLimit bytes; a larger file is hashed in pieces and `content` stays empty.
struct HashedFile {
  FileRecord record;
  std::string content;
};
Result<HashedFile> read_and_hash_file(const std::string& path);

}  // namespace keel::pipeline
