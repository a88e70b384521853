// The build database's file-content cache: file key (a 64-bit hash of the path) -> FileRecord,
// in one flat open-addressing table (linear probing): a lookup costs about one cache miss, which
// matters when a no-op build of 10,000 assets asks 20,000 times.
#pragma once

#include "keel/core/types.h"
#include "keel/pipeline/detail/file_state.h"

#include <utility>
#include <vector>

namespace keel::pipeline {

class FileCache {
 public:
  const FileRecord* find(u64 key) const;
  void put(u64 key, const FileRecord& record);  // inserts or replaces
  void reserve(usize count);
  usize size() const { return size_; }

  // Every entry, sorted by key (for writing the database).
  std::vector<std::pair<u64, FileRecord>> sorted() const;

  friend bool operator==(const FileCache& a, const FileCache& b);

 private:
  struct Slot {
    u64 key = 0;  // 0 = empty (key 0 is stored as kZeroKey)
    FileRecord record;
  };
  static constexpr u64 kZeroKey = 0x9E3779B97F4A7C15ull;
  static u64 stored(u64 key) { return key == 0 ? kZeroKey : key; }
  void grow(usize slots);

  std::vector<Slot> slots_;  // size 0 or a power of two, at most 1/2 full
  usize size_ = 0;
};

}  // namespace keel::pipeline
