// A small open-addressing table from a 32-bit hash to a pointer, built once and then only read:
// the runtime's lookups of event handlers (per state), states (per FSM), dictionary strings and
// functions. One multiply picks the slot. optimize() searches for a multiplier that puts every
// entry in its own home slot, so a lookup - hit or miss - reads exactly one slot: no probing
// loop (a binary search over a state's handlers mispredicts on nearly every event).
#pragma once

#include "keel/core/hash.h"
#include "keel/core/types.h"

#include <bit>
#include <utility>
#include <vector>

namespace keel::fsm {

template <typename T>
class HashSlots {
 public:
  HashSlots() = default;
  HashSlots(const HashSlots& other) { *this = other; }
  HashSlots(HashSlots&& other) noexcept { *this = std::move(other); }
  HashSlots& operator=(const HashSlots& other) {
    if (this != &other) {
      hashes_ = other.hashes_;
      values_ = other.values_;
      copy_shape(other);
    }
    return *this;
  }
  HashSlots& operator=(HashSlots&& other) noexcept {
    if (this != &other) {
      hashes_ = std::move(other.hashes_);
      values_ = std::move(other.values_);
      copy_shape(other);
      other.clear();
    }
    return *this;
  }
  ~HashSlots() = default;

  // Adds an entry; hashes must be unique and values non-null.
  void insert(Hash hash, T* value) {
    if ((count_ + 1) * 2 > hashes_.size())
      rehash(std::bit_ceil((count_ + 1) * 2 < 8 ? usize{8} : (count_ + 1) * 2), multiplier_);
    place(hash, value);
    ++count_;
  }

  // Picks the table size (up to 4 slots per entry) and multiplier with the fewest displaced
  // entries; call once after the inserts of a table that is read often.
  void optimize() {
    if (count_ == 0) return;
    const usize small = std::bit_ceil(count_ * 2 < 8 ? usize{8} : count_ * 2);
    u32 best_multiplier = multiplier_;
    usize best_size = hashes_.size();
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

  // An empty slot holds a hash that does not belong there (its home is another slot), so a
  // match in an entry's home slot is the entry: a hit reads one slot and returns. A miss in a
  // probe-free table (the usual case after optimize()) returns too; only tables with displaced
  // entries go on probing.
  T* find(Hash hash) const {
    const u32 i = index(hash);
    if (hash_data_[i] == hash) [[likely]] {
      T* const value = value_data_[i];
      if (value == nullptr) __builtin_unreachable();
      return value;
    }
    if (max_probe_ == 0) return nullptr;
    return find_displaced(hash, i);
  }
  usize size() const { return count_; }
  void clear() {
    std::vector<Hash>().swap(hashes_);
    std::vector<T*>().swap(values_);
    count_ = 0;
    multiplier_ = 0x9E3779B1u;
    shift_ = kEmptyShift;
    mask_ = kEmptyMask;
    max_probe_ = 0;
    point_at_storage();
  }
  usize memory_bytes() const {
    return hashes_.capacity() * sizeof(Hash) + values_.capacity() * sizeof(T*);
  }

 private:
  // Hashes and values in separate arrays (a slot index scales by 4 and 8 in the addressing
  // mode). An empty table reads two static empty slots: index() of a table of two is 0 or 1.
  static constexpr u32 kEmptyShift = 31;
  static constexpr u32 kEmptyMask = 1;
  static constexpr Hash kEmptyHashes[2] = {1, 0};  // homes 1 and 0 with the first multiplier
  static constexpr T* kEmptyValues[2] = {};
  static_assert(((Hash{1} * 0x9E3779B1u) >> kEmptyShift) == 1 &&
                ((Hash{0} * 0x9E3779B1u) >> kEmptyShift) == 0);

  void point_at_storage() {
    hash_data_ = hashes_.empty() ? kEmptyHashes : hashes_.data();
    value_data_ = values_.empty() ? kEmptyValues : values_.data();
  }
  void copy_shape(const HashSlots& other) {
    count_ = other.count_;
    multiplier_ = other.multiplier_;
    shift_ = other.shift_;
    mask_ = other.mask_;
    max_probe_ = other.max_probe_;
    point_at_storage();
  }
  T* find_displaced(Hash hash, u32 i) const {
    for (u32 probe = 0;; ++probe, i = (i + 1) & mask_) {
      if (hash_data_[i] == hash && value_data_[i] != nullptr) return value_data_[i];
      if (probe == max_probe_) return nullptr;
    }
  }
  u32 index(Hash hash) const { return (hash * multiplier_) >> shift_; }
  void rehash(usize size, u32 multiplier) {
    const std::vector<Hash> old_hashes = hashes_;
    const std::vector<T*> old_values = values_;
    hashes_.assign(size, Hash{0});
    values_.assign(size, nullptr);
    shift_ = 32 - static_cast<u32>(std::countr_zero(size));
    mask_ = static_cast<u32>(size - 1);
    multiplier_ = multiplier;
    max_probe_ = 0;
    point_at_storage();
    // Every empty slot gets a hash whose home is the next slot: the multiplier is odd, so it
    // has an inverse modulo 2^32 and (j << shift_) * inverse lands exactly in slot j.
    u32 inverse = multiplier;
    for (int step = 0; step < 5; ++step) inverse *= 2u - multiplier * inverse;
    for (u32 i = 0; i < hashes_.size(); ++i) hashes_[i] = (((i + 1) & mask_) << shift_) * inverse;
    for (usize i = 0; i < old_values.size(); ++i) {
      if (old_values[i] != nullptr) place(old_hashes[i], old_values[i]);
    }
  }
  void place(Hash hash, T* value) {
    u32 i = index(hash);
    u32 probe = 0;
    while (values_[i] != nullptr) {
      i = (i + 1) & mask_;
      ++probe;
    }
    hashes_[i] = hash;
    values_[i] = value;
    if (probe > max_probe_) max_probe_ = probe;
  }

  std::vector<Hash> hashes_;
  std::vector<T*> values_;
  // hashes_.data() and values_.data(), or the static empty slots: find() tests nothing else.
  const Hash* hash_data_ = kEmptyHashes;
  T* const* value_data_ = kEmptyValues;
  usize count_ = 0;
  u32 multiplier_ = 0x9E3779B1u;
  u32 shift_ = kEmptyShift;
  u32 mask_ = kEmptyMask;
  u32 max_probe_ = 0;  // the longest displacement: a lookup reads at most max_probe_ + 1 slots
};

}  // namespace keel::fsm
