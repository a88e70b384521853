// keel::PrehashedMap<Key, Value>: an open-addressing hash table whose keys already are hashes
// (u32 or u64: string hashes, path hashes, ids). The engine's one table of this kind: the FSM's
// handler, state and string lookups, the property container's id -> slot index and the build
// database's file cache all use it.
//
// Layout and lookup. Entries {key, value} in one array of a power-of-two size, at most half full;
// one multiply and a shift pick the home slot (Fibonacci hashing, so keys whose low bits repeat
// still spread), linear probing after it. An empty slot is not marked by a flag or a reserved
// key: it holds a key whose home is the NEXT slot. A key homed at slot h is found in h .. h + d
// (d: the longest displacement in the table, at most size - 1 < capacity - 1), which never
// contains the slot h - 1 whose marker could equal it, so a lookup compares keys only - no
// emptiness test, no reserved key (0 is a key like any other) - and stops after d + 1 slots.
// A hit in its home slot (the usual case) reads one entry. optimize() searches for a multiplier
// that puts every entry home, so that even a miss reads one slot (tables built once, read often).
//
// Erase shifts later entries of the probe run back (no tombstones). An empty map reads a static
// two-slot table: no allocation and no test of emptiness in find(). After reserve(n), inserting up
// to n entries and erasing any never allocates.
//
// Values must be default-constructible in constant expressions (pointers, numbers, aggregates of
// them): empty slots hold Value{}. Pointer values must not be null, so that get() returning null
// means "absent".
#pragma once

#include "keel/core/assert.h"
#include "keel/core/types.h"

#include <bit>
#include <concepts>
#include <type_traits>
#include <utility>
#include <vector>

namespace keel {

template <typename Key, typename Value>
class PrehashedMap {
  static_assert(std::is_same_v<Key, u32> || std::is_same_v<Key, u64>,
                "PrehashedMap keys are 32- or 64-bit hashes");
  static_assert(std::is_default_constructible_v<Value> && std::is_move_assignable_v<Value>);

 public:
  struct Entry {
    Key key;
    Value value;
  };

  PrehashedMap() = default;
  PrehashedMap(const PrehashedMap& other) { *this = other; }
  PrehashedMap(PrehashedMap&& other) noexcept { *this = std::move(other); }
  PrehashedMap& operator=(const PrehashedMap& other) {
    if (this != &other) {
      entries_ = other.entries_;
      copy_shape(other);
    }
    return *this;
  }
  PrehashedMap& operator=(PrehashedMap&& other) noexcept {
    if (this != &other) {
      entries_ = std::move(other.entries_);
      copy_shape(other);
      other.entries_.clear();
      other.reset_shape();
    }
    return *this;
  }
  ~PrehashedMap() = default;

  // --- lookups -------------------------------------------------------------------------------

  // The value stored under `key`, or null.
  const Value* find(Key key) const noexcept {
    u32 i = home(key);
    if (data_[i].key == key) [[likely]]
      return &data_[i].value;
    if (max_probe_ == 0) return nullptr;
    return find_displaced(key, i);
  }
  Value* find(Key key) noexcept { return const_cast<Value*>(std::as_const(*this).find(key)); }

  // The value stored under `key`, or Value{} when absent. For pointer values (never null) this
  // is the fastest lookup: a hit in the home slot is one compare, and the caller's null test
  // folds into it.
  Value get(Key key) const noexcept {
    u32 i = home(key);
    if (data_[i].key == key) [[likely]] {
      Value value = data_[i].value;
      if constexpr (std::is_pointer_v<Value>) {
        if (value == nullptr) __builtin_unreachable();
      }
      return value;
    }
    if (max_probe_ == 0) return Value{};
    const Value* found = find_displaced(key, i);
    return found != nullptr ? *found : Value{};
  }

  bool contains(Key key) const noexcept { return find(key) != nullptr; }

  // --- changes -------------------------------------------------------------------------------

  // Inserts `value` under `key` when absent. Returns the stored value and whether it was added
  // (false: `key` was present and keeps its old value).
  std::pair<Value*, bool> insert(Key key, Value value) {
    if (Value* present = find(key)) return {present, false};
    return {place_new(key, std::move(value)), true};
  }
  // Inserts or replaces.
  Value& insert_or_assign(Key key, Value value) {
    if (Value* present = find(key)) {
      *present = std::move(value);
      return *present;
    }
    return *place_new(key, std::move(value));
  }
  // Removes `key`; false when it was absent. Never allocates.
  bool erase(Key key) noexcept;

  // Room for `count` entries without growing.
  void reserve(usize count) {
    const usize want = slots_for(count);
    if (want > entries_.size()) rehash(want, multiplier_);
  }
  // Removes every entry and keeps the memory.
  void clear() noexcept;
  // Removes every entry and frees the memory.
  void reset() noexcept {
    std::vector<Entry>().swap(entries_);
    reset_shape();
  }

  // Searches table sizes (2x to 4x the entry count) and multipliers for the layout with the
  // shortest displacement, ideally none, so every lookup reads one slot. For tables built once
  // and read often; allocates, and may change capacity().
  void optimize();

  // --- inspection ----------------------------------------------------------------------------

  usize size() const noexcept { return size_; }
  bool empty() const noexcept { return size_ == 0; }
  usize capacity() const noexcept { return entries_.size() / 2; }  // entries without growing
  usize slot_count() const noexcept { return entries_.size(); }
  // The longest displacement (an upper bound after erases): lookups read at most this + 1 slots.
  u32 max_probe() const noexcept { return max_probe_; }
  usize memory_bytes() const noexcept { return entries_.capacity() * sizeof(Entry); }

  // Calls fn(key, value) for every entry, in slot order (not sorted, not insertion order). The
  // function must not insert or erase.
  template <typename Fn>
  void for_each(Fn&& fn) const {
    for (u32 i = 0; i < entries_.size(); ++i) {
      if (!is_empty(i)) fn(entries_[i].key, std::as_const(entries_[i].value));
    }
  }
  template <typename Fn>
  void for_each(Fn&& fn) {
    for (u32 i = 0; i < entries_.size(); ++i) {
      if (!is_empty(i)) fn(entries_[i].key, entries_[i].value);
    }
  }

 private:
  static constexpr u32 kKeyBits = sizeof(Key) * 8;
  static constexpr Key kGolden = sizeof(Key) == 4 ? Key(0x9E3779B1u) : Key(0x9E3779B97F4A7C15ull);
  // The empty map: two slots, shift kKeyBits - 1, so home() is the top bit of key * kGolden.
  // Slot 0 holds 1 (homed at 1), slot 1 holds 0 (homed at 0): every lookup misses.
  static constexpr Entry kEmpty[2] = {{Key{1}, Value{}}, {Key{0}, Value{}}};
  static_assert(((Key{1} * kGolden) >> (kKeyBits - 1)) == 1);

  // The inverse of an odd multiplier modulo 2^kKeyBits (Newton's iteration).
  static constexpr Key inverse_of(Key multiplier) {
    Key inverse = multiplier;
    for (int step = 0; step < 6; ++step) inverse *= static_cast<Key>(Key{2} - multiplier * inverse);
    return inverse;
  }
  static usize slots_for(usize count) {
    return std::bit_ceil(count * 2 < 8 ? usize{8} : count * 2);
  }
  u32 home(Key key) const noexcept { return static_cast<u32>((key * multiplier_) >> shift_); }
  // The marker of empty slot i: a key whose home is slot i + 1.
  Key marker(u32 i) const noexcept {
    return static_cast<Key>(Key{(i + 1) & mask_} << shift_) * inverse_;
  }
  bool is_empty(u32 i) const noexcept { return home(entries_[i].key) == ((i + 1) & mask_); }

  const Value* find_displaced(Key key, u32 i) const noexcept {
    for (u32 probe = 0; probe < max_probe_; ++probe) {
      i = (i + 1) & mask_;
      if (data_[i].key == key) return &data_[i].value;
    }
    return nullptr;
  }
  Value* place_new(Key key, Value value) {
    if constexpr (std::is_pointer_v<Value>) {
      KEEL_ASSERT(value != nullptr, "PrehashedMap: null pointer stored under key {:#x}", key);
    }
    if ((size_ + 1) * 2 > entries_.size()) rehash(slots_for(size_ + 1), multiplier_);
    ++size_;
    return place(key, std::move(value));
  }
  Value* place(Key key, Value&& value) noexcept {
    u32 i = home(key);
    u32 probe = 0;
    while (!is_empty(i)) {
      i = (i + 1) & mask_;
      ++probe;
    }
    entries_[i].key = key;
    entries_[i].value = std::move(value);
    if (probe > max_probe_) max_probe_ = probe;
    return &entries_[i].value;
  }
  void rehash(usize slots, Key multiplier);
  void set_shape(usize slots, Key multiplier) noexcept {
    multiplier_ = multiplier;
    shift_ = kKeyBits - static_cast<u32>(std::countr_zero(slots));
    mask_ = static_cast<u32>(slots - 1);
    inverse_ = inverse_of(multiplier);
    max_probe_ = 0;
  }
  void reset_shape() noexcept {
    size_ = 0;
    set_shape(2, kGolden);
    data_ = entries_.empty() ? kEmpty : entries_.data();
  }
  void copy_shape(const PrehashedMap& other) noexcept {
    size_ = other.size_;
    multiplier_ = other.multiplier_;
    inverse_ = other.inverse_;
    shift_ = other.shift_;
    mask_ = other.mask_;
    max_probe_ = other.max_probe_;
    data_ = entries_.empty() ? kEmpty : entries_.data();
  }

  std::vector<Entry> entries_;
  const Entry* data_ = kEmpty;  // entries_.data() or kEmpty: lookups test nothing else
  usize size_ = 0;
  Key multiplier_ = kGolden;
  Key inverse_ = inverse_of(kGolden);
  u32 shift_ = kKeyBits - 1;
  u32 mask_ = 1;
  u32 max_probe_ = 0;
};

template <typename Key, typename Value>
bool PrehashedMap<Key, Value>::erase(Key key) noexcept {
  if (size_ == 0) return false;
  u32 hole = home(key);
  for (u32 probe = 0;; ++probe, hole = (hole + 1) & mask_) {
    if (entries_[hole].key == key) break;
    if (probe == max_probe_) return false;
  }
  // Backward shift: pull later entries of the run into the hole when their home does not lie
  // (cyclically) after the hole. Displacements only shrink, so max_probe_ stays a bound.
  u32 next = hole;
  for (;;) {
    next = (next + 1) & mask_;
    if (is_empty(next)) break;
    const u32 want = home(entries_[next].key);
    if (((hole - want) & mask_) <= ((next - want) & mask_)) {
      entries_[hole].key = entries_[next].key;
      entries_[hole].value = std::move(entries_[next].value);
      hole = next;
    }
  }
  entries_[hole].key = marker(hole);
  entries_[hole].value = Value{};
  if (--size_ == 0) max_probe_ = 0;
  return true;
}

template <typename Key, typename Value>
void PrehashedMap<Key, Value>::clear() noexcept {
  for (u32 i = 0; i < entries_.size(); ++i) {
    entries_[i].key = marker(i);
    entries_[i].value = Value{};
  }
  size_ = 0;
  max_probe_ = 0;
}

template <typename Key, typename Value>
void PrehashedMap<Key, Value>::rehash(usize slots, Key multiplier) {
  KEEL_ASSERT(std::has_single_bit(slots) && slots >= 2 && slots <= (usize{1} << 31),
              "PrehashedMap: bad table size {}", slots);
  std::vector<Entry> old(slots);
  old.swap(entries_);
  // `old` holds the previous entries; their emptiness is judged with the previous shape.
  const Key old_multiplier = multiplier_;
  const u32 old_shift = shift_;
  const u32 old_mask = mask_;
  set_shape(slots, multiplier);
  for (u32 i = 0; i < slots; ++i) entries_[i].key = marker(i);
  data_ = entries_.data();
  for (u32 i = 0; i < old.size(); ++i) {
    const u32 old_home = static_cast<u32>((old[i].key * old_multiplier) >> old_shift);
    if (old_home != ((i + 1) & old_mask)) place(old[i].key, std::move(old[i].value));
  }
}

template <typename Key, typename Value>
void PrehashedMap<Key, Value>::optimize() {
  if (size_ == 0) return;
  const usize small = slots_for(size_);
  Key best_multiplier = multiplier_;
  usize best_slots = entries_.size();
  u32 best_probe = max_probe_;
  Key m = kGolden;
  for (usize slots = small; slots <= small * 2 && best_probe > 0; slots *= 2) {
    for (int attempt = 0; attempt < 48 && best_probe > 0; ++attempt) {
      m = static_cast<Key>(m * Key{0x2C1B3C6Du} + Key{0x297A2D39u});  // candidate multipliers
      const Key candidate = m | Key{1};
      rehash(slots, candidate);
      if (max_probe_ < best_probe) {
        best_probe = max_probe_;
        best_multiplier = candidate;
        best_slots = slots;
      }
    }
  }
  if (best_multiplier != multiplier_ || best_slots != entries_.size())
    rehash(best_slots, best_multiplier);
}

}  // namespace keel
