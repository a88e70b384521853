// The build database's file-content cache: file key (a 64-bit hash of the path) -> FileRecord.
//
// The entries are kept in the order they were put (and written and loaded in that order), which
// is the order a build looks them up: the jobs' file states in asset order, each job's source
// before its intermediate. A lookup with a Cursor (one per thread) first tries the few entries
// after the previous hit, so a no-op build of 10,000 assets reads its 20,000 file states
// sequentially, where a hash table keyed by path hashes cost a cache miss (and, in a new
// process, the page faults of a table twice the entry count) per lookup. Anything else goes
// through an index by key (core's keel::PrehashedMap: key -> position), built on the first
// lookup that needs it: a loaded database whose lookups all follow its order never builds one.
//
// A key put again keeps its position and takes the new record. A loaded list that holds a key
// twice (not something the database writes) loads; a lookup by key then finds the later entry.
// Lookups are thread-safe (the index is built under a mutex); put is not.
#pragma once

#include "keel/core/prehashed_map.h"
#include "keel/core/types.h"
#include "keel/pipeline/detail/file_state.h"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <utility>
#include <vector>

namespace keel::pipeline {

class FileCache {
 public:
  using Entry = std::pair<u64, FileRecord>;
  // Where the next sequential lookup is expected; only a hint (any value is safe).
  struct Cursor {
    usize next = 0;
  };
  // A lookup with a cursor tries this many entries from the cursor before the index.
  static constexpr usize kWindow = 8;

  FileCache() = default;
  FileCache(const FileCache& other);
  FileCache(FileCache&& other) noexcept;
  FileCache& operator=(const FileCache& other);
  FileCache& operator=(FileCache&& other) noexcept;
  ~FileCache() = default;

  const FileRecord* find(u64 key) const {
    const usize i = position(key);
    return i != kNone ? &entries_[i].second : nullptr;
  }
  const FileRecord* find(u64 key, Cursor& cursor) const {
    const usize end = std::min(entries_.size(), cursor.next + kWindow);
    for (usize i = cursor.next; i < end; ++i) {
      if (entries_[i].first == key) {
        cursor.next = i + 1;
        return &entries_[i].second;
      }
    }
    const usize i = position(key);
    if (i == kNone) return nullptr;
    cursor.next = i + 1;
    return &entries_[i].second;
  }
  void put(u64 key, const FileRecord& record);
  void reserve(usize count);
  usize size() const { return entries_.size(); }  // entries (a key listed twice counts twice)

  // Replaces the contents with `entries` in their order (a loaded database's).
  void assign(std::vector<Entry>&& entries);

  // Every entry in the order put (for writing the database).
  const std::vector<Entry>& entries() const { return entries_; }
  // Every entry, sorted by key.
  std::vector<Entry> sorted() const;

  // The same keys with the same records, in any order (of a key listed twice, the later entry).
  friend bool operator==(const FileCache& a, const FileCache& b);

 private:
  static constexpr usize kNone = ~usize{0};
  usize position(u64 key) const;
  void ensure_index() const;
  void build_index() const;

  std::vector<Entry> entries_;
  mutable PrehashedMap<u64, u32> index_;  // key -> position in entries_, once indexed_
  mutable std::atomic<bool> indexed_{true};
  mutable std::mutex index_mutex_;
};

}  // namespace keel::pipeline
