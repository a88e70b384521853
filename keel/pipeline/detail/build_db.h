// The build database of one data file on one platform: what every intermediate was made from, the
// file-content cache, and what the data file was last packed from. It replaces the book's
// timestamp comparisons (spec §6.2) with content hashes:
//
//   an intermediate is up to date when its record matches: the handler (type, version, plug-in
//   content), the platform, the hash of the command subtree (text::hash_tree), the list of source
//   files with their content hashes, and the intermediate's own content hash;
//   the data file is up to date when the list of (intermediate, content hash) it was packed from
//   is the current one and the data file still has the content it was written with.
//
// The file is written atomically, records and file states in the order the build put them,
// which is the order the next build looks them up (the same build gives the same bytes). A
// database that cannot be read (missing, truncated, corrupted, another version) is an empty one:
// everything is rebuilt, nothing crashes.
#pragma once

#include "keel/core/bytes.h"
#include "keel/core/error.h"
#include "keel/core/prehashed_map.h"
#include "keel/core/types.h"
#include "keel/pipeline/detail/file_cache.h"
#include "keel/pipeline/detail/file_state.h"

#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace keel::pipeline {

struct SourceDependency {
  std::string path;  // relative to the project folder when inside it, else absolute
  u64 hash = 0;
  friend bool operator==(const SourceDependency&, const SourceDependency&) = default;
};

struct IntermediateRecord {
  std::string output;  // relative to the data file's intermediate folder, e.g. "Blob/logo.kpk"
  std::string asset_name;
  std::string asset_type;
  std::string platform;
  u64 handler_key = 0;   // HandlerEntry::key of the handler that made it
  u64 command_hash = 0;  // text::hash_tree of the command
  u64 output_hash = 0;   // content hash of the intermediate file
  std::vector<SourceDependency> sources;
  friend bool operator==(const IntermediateRecord&, const IntermediateRecord&) = default;
};

struct PackInput {
  std::string output;  // as in IntermediateRecord::output
  u64 hash = 0;
  friend bool operator==(const PackInput&, const PackInput&) = default;
};

struct PackRecord {
  bool valid = false;             // a data file was written
  u64 data_hash = 0;              // content hash of the data file as written
  std::vector<PackInput> inputs;  // in pack order
  friend bool operator==(const PackRecord&, const PackRecord&) = default;
};

// Hash of strings that also takes string_views (heterogeneous lookup).
struct StringHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};
template <typename T>
using StringMap = std::unordered_map<std::string, T, StringHash, std::equal_to<>>;

class BuildDatabase {
 public:
  static constexpr u32 kVersion = 1;

  // A missing file is an empty database; an unreadable or invalid one is an error (which the
  // builder reports as a warning before rebuilding everything).
  static Result<BuildDatabase> load(const std::filesystem::path& path);
  Status save(const std::filesystem::path& path) const;  // atomic

  static Result<BuildDatabase> from_bytes(ByteSpan bytes);
  ByteBuffer to_bytes() const;

  const IntermediateRecord* find(std::string_view output) const;
  // The same, trying the few records after the cursor's first: records are stored in the order
  // they were put, which is the jobs' order, the order the next build asks in.
  using Cursor = FileCache::Cursor;
  static constexpr usize kWindow = FileCache::kWindow;
  const IntermediateRecord* find(std::string_view output, Cursor& cursor) const;
  void put(IntermediateRecord record);
  // Every record, in the order they were loaded or put.
  const std::vector<IntermediateRecord>& records() const { return records_; }

  // The file-content cache is keyed by a 64-bit hash of the path: a cached entry is only trusted
  // when size, modification time and inode match too, so two paths never share an entry.
  static u64 file_key(std::string_view path);
  const FileRecord* file(std::string_view path) const { return file(file_key(path)); }
  const FileRecord* file(u64 key) const;
  // The same, trying the entries after the cursor's first (FileCache: file states are stored in
  // the order a build looks them up).
  const FileRecord* file(u64 key, FileCache::Cursor& cursor) const {
    return files_.find(key, cursor);
  }
  void put_file(u64 key, const FileRecord& record) { files_.put(key, record); }
  void put_file(std::string_view path, const FileRecord& record) {
    put_file(file_key(path), record);
  }
  const FileCache& files() const { return files_; }
  void reserve(usize records, usize files);

  const PackRecord& pack() const { return pack_; }
  void set_pack(PackRecord pack) { pack_ = std::move(pack); }

  // The same records (in any order), file states and pack record.
  friend bool operator==(const BuildDatabase& a, const BuildDatabase& b);

 private:
  // The records in one array and an index by hash64(output) in core's open-addressing table: a
  // no-op build looks up every record once, and a node-based map cost three dependent cache
  // misses per lookup. Two outputs whose 64-bit hashes collide are told apart by the record's
  // output (the later one is kept in a linear side list).
  std::vector<IntermediateRecord> records_;
  PrehashedMap<u64, u32> index_;
  FileCache files_;
  PackRecord pack_;
};

}  // namespace keel::pipeline
