// Post-transform vertex cache models (Golden Rules ch. 6): FIFO (a hit does not move the entry;
// the oldest entry is overwritten) and LRU (a hit refreshes the entry; the least recently used is
// overwritten), with optional "bad" tail entries (e.g. a 20-entry FIFO whose 5 oldest entries cost
// more to hit than a miss). Used by the stripper to pick vertices and by the benchmarks for ACMR.
#pragma once

#include "keel/core/types.h"

#include <span>
#include <vector>

namespace keel::assets {

enum class CacheKind : u8 { kFifo, kLru };

struct CacheModel {
  CacheKind kind = CacheKind::kFifo;
  u32 size = 16;           // entries (1..256)
  u32 bad_tail = 0;        // how many of the oldest entries carry a penalty (< size)
  float miss_cost = 1.0f;  // cost of transforming a vertex
  float bad_cost = 1.5f;   // cost of a hit in a bad tail entry (may exceed miss_cost)
};

// What one vertex reference did to the cache.
struct CacheAccess {
  bool hit = false;
  bool bad = false;  // the hit was in a penalised tail entry
  float cost = 0.0f;
};

class VertexCache {
 public:
  explicit VertexCache(const CacheModel& model = {});

  // Looks `vertex` up and updates the cache as the hardware would.
  CacheAccess access(u32 vertex);
  // What access(vertex) would report, without changing the cache.
  CacheAccess peek(u32 vertex) const;
  bool contains(u32 vertex) const { return find(vertex) >= 0; }
  // Entries newer than `vertex` (0: the newest); -1 when absent.
  int age(u32 vertex) const { return find(vertex); }
  // Entries from the newest to the oldest (the one overwritten next is last when full).
  std::vector<u32> entries() const;
  void clear();
  const CacheModel& model() const { return model_; }

 private:
  // Age of the entry: 0 for the newest; -1 when absent.
  int find(u32 vertex) const;

  CacheModel model_;
  std::vector<u32> slots_;  // newest first; the first count_ are in use
  u32 count_ = 0;
};

// Average cache miss ratio: transformed vertices per non-degenerate triangle, for a triangle list
// (`strip` false) or one strip whose references are processed in order (`strip` true).
double acmr(std::span<const u32> indices, bool strip, const CacheModel& model);

}  // namespace keel::assets
