#include "keel/props/slot_index.h"

#include "keel/core/assert.h"

#include <bit>
#include <utility>

namespace keel::props::detail {

void SlotIndex::insert(u32 id, SlotBase* slot) {
  KEEL_ASSERT(slot != nullptr);
  if ((size_ + 1) * 4 > buckets_.size() * 3) grow();
  usize i = home(id);
  while (buckets_[i].slot != nullptr) {
    KEEL_ASSERT(buckets_[i].id != id, "id {:#x} inserted twice", id);
    i = (i + 1) & mask_;
  }
  buckets_[i] = Bucket{id, slot};
  ++size_;
}

bool SlotIndex::erase(u32 id) {
  if (size_ == 0) return false;
  usize hole = home(id);
  for (;;) {
    if (buckets_[hole].slot == nullptr) return false;
    if (buckets_[hole].id == id) break;
    hole = (hole + 1) & mask_;
  }
  // Backward shift: pull later entries of the probe run into the hole when their home bucket
  // does not lie (cyclically) after the hole.
  usize next = hole;
  for (;;) {
    next = (next + 1) & mask_;
    const Bucket& b = buckets_[next];
    if (b.slot == nullptr) break;
    const usize want = home(b.id);
    const usize dist_hole = (hole - want) & mask_;  // probe distance if moved to the hole
    const usize dist_next = (next - want) & mask_;  // current probe distance
    if (dist_hole <= dist_next) {
      buckets_[hole] = b;
      hole = next;
    }
  }
  buckets_[hole] = Bucket{};
  --size_;
  return true;
}

void SlotIndex::clear() {
  buckets_.clear();
  mask_ = 0;
  size_ = 0;
  shift_ = 32;
}

void SlotIndex::grow() {
  const usize capacity = buckets_.empty() ? 8 : buckets_.size() * 2;
  std::vector<Bucket> old = std::exchange(buckets_, std::vector<Bucket>(capacity));
  mask_ = capacity - 1;
  shift_ = 32 - std::countr_zero(capacity);
  size_ = 0;
  for (const Bucket& b : old) {
    if (b.slot != nullptr) insert(b.id, b.slot);
  }
}

}  // namespace keel::props::detail
