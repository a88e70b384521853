// The id -> slot index of a PropertyContainer: an open-addressing hash table with linear probing
// and backward-shift deletion (no tombstones), keyed by the 32-bit StringId. Buckets are 16 bytes
// in one array, so a lookup is a multiply, a shift and usually one cache line.
// Internal to the props module.
#pragma once

#include "keel/core/types.h"

#include <vector>

namespace keel::props::detail {

class SlotBase;

class SlotIndex {
 public:
  SlotBase* find(u32 id) const noexcept {
    if (size_ == 0) return nullptr;
    usize i = home(id);
    for (;;) {
      const Bucket& b = buckets_[i];
      if (b.slot == nullptr) return nullptr;
      if (b.id == id) return b.slot;
      i = (i + 1) & mask_;
    }
  }
  // `id` must not be present.
  void insert(u32 id, SlotBase* slot);
  // Returns false when `id` is not present.
  bool erase(u32 id);
  void clear();
  usize size() const { return size_; }
  usize capacity() const { return buckets_.size(); }

 private:
  struct Bucket {
    u32 id = 0;
    SlotBase* slot = nullptr;
  };
  // Fibonacci hashing spreads the rotate-left hash (whose low bits follow the last characters).
  usize home(u32 id) const noexcept { return static_cast<u32>(id * 0x9E3779B1u) >> shift_; }
  void grow();

  std::vector<Bucket> buckets_;
  usize mask_ = 0;
  usize size_ = 0;
  int shift_ = 32;
};

}  // namespace keel::props::detail
