// A generation-checked slot table: stable small indices for handles, O(1) allocate, free and
// look-up, freed slots reused (their generation moved on so old handles stay dead).
#pragma once

#include "keel/core/assert.h"
#include "keel/core/types.h"
#include "keel/tween/handle.h"

#include <utility>
#include <vector>

namespace keel::tween::detail {

template <typename Tag, typename Payload>
class SlotTable {
 public:
  using HandleType = Handle<Tag>;

  // A new live slot with a default payload.
  HandleType allocate() {
    u32 index;
    if (free_head_ != kNone) {
      index = free_head_;
      free_head_ = slots_[index].next_free;
    } else {
      index = static_cast<u32>(slots_.size());
      slots_.emplace_back();
    }
    Slot& slot = slots_[index];
    slot.live = true;
    slot.next_free = kNone;
    ++live_;
    return HandleType{index, slot.generation};
  }

  // Ends the slot: every handle to it is dead from now on. The payload is reset.
  void free(HandleType handle) {
    KEEL_ASSERT(alive(handle), "freeing a dead slot");
    Slot& slot = slots_[handle.index];
    [[maybe_unused]] Payload dead = std::move(slot.payload);
    slot.payload = Payload{};
    slot.live = false;
    if (++slot.generation == 0) slot.generation = 1;  // 0 is the null handle's
    slot.next_free = free_head_;
    free_head_ = handle.index;
    --live_;
    // `dead` is destroyed on return, once the table is consistent: its destructor (say, a
    // callback's captures) may use the table again.
  }

  bool alive(HandleType handle) const {
    return handle.index < slots_.size() && slots_[handle.index].live &&
           slots_[handle.index].generation == handle.generation;
  }
  // The payload of a live handle, or null.
  Payload* find(HandleType handle) {
    return alive(handle) ? &slots_[handle.index].payload : nullptr;
  }
  const Payload* find(HandleType handle) const {
    return alive(handle) ? &slots_[handle.index].payload : nullptr;
  }
  // By index, for the systems' own bookkeeping (the slot must be live).
  Payload& at(u32 index) {
    KEEL_ASSERT(index < slots_.size() && slots_[index].live, "slot {} is not live", index);
    return slots_[index].payload;
  }
  HandleType handle_at(u32 index) const { return HandleType{index, slots_[index].generation}; }
  bool live_at(u32 index) const { return index < slots_.size() && slots_[index].live; }

  usize live_count() const { return live_; }
  usize capacity() const { return slots_.size(); }
  void reserve(usize n) { slots_.reserve(n); }

 private:
  static constexpr u32 kNone = ~u32{0};
  struct Slot {
    Payload payload{};
    u32 generation = 1;
    u32 next_free = kNone;
    bool live = false;
  };
  std::vector<Slot> slots_;
  u32 free_head_ = kNone;
  usize live_ = 0;
};

}  // namespace keel::tween::detail
