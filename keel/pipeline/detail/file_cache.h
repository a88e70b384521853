// The build database's file-content cache: file key (a 64-bit hash of the path) -> FileRecord,
// in core's table for pre-hashed keys (keel::PrehashedMap): a hit in its home slot reads one
// entry, which matters when a no-op build of 10,000 assets asks 20,000 times. This class adds
// what the database needs on top: a sorted listing for writing and order-free equality.
#pragma once

#include "keel/core/prehashed_map.h"
#include "keel/core/types.h"
#include "keel/pipeline/detail/file_state.h"

#include <utility>
#include <vector>

namespace keel::pipeline {

class FileCache {
 public:
  const FileRecord* find(u64 key) const { return map_.find(key); }
  void put(u64 key, const FileRecord& record) { map_.insert_or_assign(key, record); }
  void reserve(usize count) { map_.reserve(count); }
  usize size() const { return map_.size(); }

  // Every entry, sorted by key (for writing the database).
  std::vector<std::pair<u64, FileRecord>> sorted() const;

  friend bool operator==(const FileCache& a, const FileCache& b);

 private:
  PrehashedMap<u64, FileRecord> map_;
};

}  // namespace keel::pipeline
