// The build database's file-content cache: file key (a 64-bit hash of the path) -> FileRecord.
// Two representations, one at a time:
//
//   loaded  a database's entries as read from disk, sorted by key, in one array with a radix
//           index (the key's top bits -> the first entry of that bucket): no table is built
//           while loading, and a lookup reads one index word and usually one entry. A no-op
//           build of 10,000 assets loads 20,000 entries and asks 20,000 times; the hash table
//           it used before took 3.6 MB (twice the entries, rounded up to a power of two), every
//           page of which a new process had to fault in and initialise.
//   table   core's table for pre-hashed keys (keel::PrehashedMap), for a database being made
//           (put): a hit in its home slot reads one entry. The first put on a loaded cache moves
//           the entries into the table.
//
// On top: a sorted listing for writing and order-free equality.
#pragma once

#include "keel/core/prehashed_map.h"
#include "keel/core/types.h"
#include "keel/pipeline/detail/file_state.h"

#include <utility>
#include <vector>

namespace keel::pipeline {

class FileCache {
 public:
  using Entry = std::pair<u64, FileRecord>;

  const FileRecord* find(u64 key) const {
    if (loaded_.empty()) return map_.find(key);
    const u64 bucket = key >> shift_;
    for (u32 i = starts_[bucket], end = starts_[bucket + 1]; i < end; ++i) {
      if (loaded_[i].first == key) return &loaded_[i].second;
    }
    return nullptr;
  }
  void put(u64 key, const FileRecord& record) {
    if (!loaded_.empty()) to_table();
    map_.insert_or_assign(key, record);
  }
  void reserve(usize count) { map_.reserve(count); }
  usize size() const { return loaded_.empty() ? map_.size() : loaded_.size(); }

  // Replaces the contents with `entries`, which must be sorted by key with no key twice (what
  // the database writes); false when they are not: then neither the cache nor `entries` changed.
  bool assign_sorted(std::vector<Entry>&& entries);

  // Every entry, sorted by key (for writing the database).
  std::vector<Entry> sorted() const;

  friend bool operator==(const FileCache& a, const FileCache& b);

 private:
  void to_table();
  template <typename Fn>
  void for_each(Fn&& fn) const {
    for (const Entry& e : loaded_) fn(e.first, e.second);
    map_.for_each(fn);
  }

  std::vector<Entry> loaded_;  // sorted by key; empty when the table is in use
  std::vector<u32> starts_;    // bucket b's entries: loaded_[starts_[b] .. starts_[b + 1])
  u32 shift_ = 63;             // bucket = key >> shift_
  PrehashedMap<u64, FileRecord> map_;
};

}  // namespace keel::pipeline
