// A small open-addressing table from a 32-bit hash to a pointer, built once and then only read:
// the runtime's lookups of event handlers (per state), states (per FSM), dictionary strings and
// functions. One multiply picks the slot. optimize() searches for a multiplier that puts every
// entry in its own home slot, so a lookup - hit or miss - reads exactly one slot: no probing
// loop and no unpredictable branches (a binary search over a state's handlers mispredicts on
// nearly every event).
#pragma once

#include "keel/core/hash.h"
#include "keel/core/types.h"

#include <bit>
#include <vector>

namespace keel::fsm {

template <typename T>
class HashSlots {
 public:
  // Adds an entry; hashes must be unique and values non-null.
  void insert(Hash hash, T* value) {
    if ((count_ + 1) * 2 > slots_.size())
      rehash(std::bit_ceil((count_ + 1) * 2 < 8 ? usize{8} : (count_ + 1) * 2), multiplier_);
    place(Slot{hash, value});
    ++count_;
  }

  // Picks the table size (up to 4 slots per entry) and multiplier with the fewest displaced
  // entries; call once after the inserts of a table that is read often.
  void optimize() {
    if (count_ == 0) return;
    const usize small = std::bit_ceil(count_ * 2 < 8 ? usize{8} : count_ * 2);
    u32 best_multiplier = multiplier_;
    usize best_size = slots_.size();
    u32 best_probe = max_probe_;
    u32 m = 0x9E3779B1u;
    for (usize size = small; size <= small * 2 && best_probe > 0; size *= 2) {
      for (int attempt = 0; attempt < 48 && best_probe > 0; ++attempt) {
        m = m * 0x2C1B3C6Du + 0x297A2D39u;  // a sequence of candidate multipliers
        const u32 candidate = m | 1u;
        rehash(size, candidate);
        if (max_probe_ < best_probe) {
          best_probe = max_probe_;
          best_multiplier = candidate;
          best_size = size;
        }
      }
    }
    rehash(best_size, best_multiplier);
  }

  T* find(Hash hash) const {
    if (slots_.empty()) return nullptr;
    u32 i = index(hash);
    for (u32 probe = 0;; ++probe, i = (i + 1) & mask_) {
      const Slot& s = slots_[i];
      if (s.hash == hash && s.value != nullptr) return s.value;
      if (probe == max_probe_) return nullptr;
    }
  }
  usize size() const { return count_; }
  void clear() {
    std::vector<Slot>().swap(slots_);
    count_ = 0;
    max_probe_ = 0;
  }
  usize memory_bytes() const { return slots_.capacity() * sizeof(Slot); }

 private:
  struct Slot {
    Hash hash = 0;
    T* value = nullptr;
  };
  u32 index(Hash hash) const { return (hash * multiplier_) >> shift_; }
  void rehash(usize size, u32 multiplier) {
    std::vector<Slot> old(slots_.size());
    for (usize i = 0; i < slots_.size(); ++i) old[i] = slots_[i];
    slots_.assign(size, Slot{});
    shift_ = 32 - static_cast<u32>(std::countr_zero(size));
    mask_ = static_cast<u32>(size - 1);
    multiplier_ = multiplier;
    max_probe_ = 0;
    for (const Slot& s : old) {
      if (s.value != nullptr) place(s);
    }
  }
  void place(const Slot& s) {
    u32 i = index(s.hash);
    u32 probe = 0;
    while (slots_[i].value != nullptr) {
      i = (i + 1) & mask_;
      ++probe;
    }
    slots_[i] = s;
    if (probe > max_probe_) max_probe_ = probe;
  }

  std::vector<Slot> slots_;
  usize count_ = 0;
  u32 multiplier_ = 0x9E3779B1u;
  u32 shift_ = 32;
  u32 mask_ = 0;
  u32 max_probe_ = 0;  // the longest displacement: a lookup reads at most max_probe_ + 1 slots
};

}  // namespace keel::fsm
