// keel::Handle<Tag> and keel::SlotMap<T, Tag>: generational handles to objects in a slot map.
// The engine's one convention for "a weak reference to something that may end": script
// instances, tweens and triggers, and the world's entities and components.
//
// A handle is (index, generation). Every slot has a generation that moves on when the slot's
// object ends, so an old handle reports dead and never reaches the object that reuses the slot.
// A generation is (counter << 8) | salt: the counter is odd while the slot is live and even
// while it is free, so a live test is one compare; the salt (1..255) is the map's own, given at
// construction, so a handle of another map of the same type never matches either (two maps share
// a salt one time in 255) and owns() can tell the mistake apart from a stale handle. The
// default-constructed handle (generation 0) is null: never alive in any map.
//
// Objects live in pages of kPageSize slots that never move: a pointer or reference to an object
// stays valid until its slot is erased, even while other objects are added (the script machine
// relies on this while a command handler starts instances). Every slot holds a constructed T
// (default-constructed when its page is allocated). Freed slots are reused last-in first-out.
// After reserve(n), up to n live objects cost no allocation. Iteration walks live slots in index
// order.
#pragma once

#include "keel/core/assert.h"
#include "keel/core/types.h"

#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

namespace keel {

template <typename Tag>
struct Handle {
  u32 index = 0;
  u32 generation = 0;  // 0: the null handle

  constexpr bool is_null() const { return generation == 0; }
  constexpr explicit operator bool() const { return generation != 0; }
  friend constexpr bool operator==(Handle, Handle) = default;
};

enum class HandleStatus : u8 {
  kAlive,
  kNull,     // default-constructed
  kStale,    // issued by this map; its object has ended
  kForeign,  // issued by another map (or made up)
};
const char* to_string(HandleStatus status);

namespace detail {
u8 next_slot_map_salt();  // 1..255, cycling
}

template <typename T, typename Tag = T, u32 kPageSize = 256>
class SlotMap {
  static_assert(std::is_default_constructible_v<T> && std::is_move_assignable_v<T>);
  static_assert(kPageSize > 0 && (kPageSize & (kPageSize - 1)) == 0, "page size: a power of 2");

 public:
  using HandleType = Handle<Tag>;

  SlotMap() : salt_(detail::next_slot_map_salt()) {}
  SlotMap(const SlotMap&) = delete;
  SlotMap& operator=(const SlotMap&) = delete;
  // Moving keeps the objects where they are and the handles valid (in the new owner).
  SlotMap(SlotMap&& other) noexcept { take(other); }
  SlotMap& operator=(SlotMap&& other) noexcept {
    if (this != &other) take(other);
    return *this;
  }
  ~SlotMap() = default;

  // --- adding and ending -----------------------------------------------------------------------

  // A new live object: T(args...) moved into a free slot.
  template <typename... Args>
  HandleType emplace(Args&&... args) {
    const HandleType handle = acquire();
    slot(handle.index).value = T(std::forward<Args>(args)...);
    return handle;
  }
  HandleType insert(T value) {
    const HandleType handle = acquire();
    slot(handle.index).value = std::move(value);
    return handle;
  }
  // A new live slot whose object is as it was left: default-constructed, reset by erase(), or
  // kept by release() (pooled objects that keep their buffers from one life to the next).
  HandleType acquire();

  // Ends the object: its handles are dead from now on and the slot's object is reset to T{}.
  // The old value is destroyed after the map is consistent (its destructor may use the map).
  // False, and nothing changes, for a handle that is not alive here.
  bool erase(HandleType handle) {
    if (!alive(handle)) return false;
    [[maybe_unused]] T dead = std::move(slot(handle.index).value);
    slot(handle.index).value = T{};
    free_slot(handle.index);
    return true;
  }
  // Ends the object like erase() but leaves the slot's object as it is, for acquire().
  bool release(HandleType handle) {
    if (!alive(handle)) return false;
    free_slot(handle.index);
    return true;
  }
  // Erases every live object; keeps the memory.
  void clear() {
    for (u32 i = 0; i < used_; ++i) {
      if (live_at(i)) erase(handle_at(i));
    }
  }
  // Room for `count` objects without allocating.
  void reserve(usize count) {
    pages_.reserve((count + kPageSize - 1) / kPageSize);
    while (capacity() < count) add_page();
  }

  // --- access ----------------------------------------------------------------------------------

  bool alive(HandleType handle) const {
    return handle.index < used_ && slot(handle.index).generation == handle.generation;
  }
  // The object of a live handle, or null.
  T* find(HandleType handle) { return alive(handle) ? &slot(handle.index).value : nullptr; }
  const T* find(HandleType handle) const {
    return alive(handle) ? &slot(handle.index).value : nullptr;
  }
  // The object of a handle that must be alive (asserts with the reason otherwise).
  T& operator[](HandleType handle) {
    KEEL_ASSERT(alive(handle), "SlotMap: {} handle (index {}, generation {:#x})",
                to_string(status(handle)), handle.index, handle.generation);
    return slot(handle.index).value;
  }
  const T& operator[](HandleType handle) const { return const_cast<SlotMap&>(*this)[handle]; }
  // Whether this map issued the handle (alive or not).
  bool owns(HandleType handle) const {
    return handle.generation != 0 && (handle.generation & 0xFFu) == salt_;
  }
  HandleStatus status(HandleType handle) const {
    if (handle.is_null()) return HandleStatus::kNull;
    if (!owns(handle) || handle.index >= used_ || (handle.generation & 0x100u) == 0)
      return HandleStatus::kForeign;
    return alive(handle) ? HandleStatus::kAlive : HandleStatus::kStale;
  }

  // --- by index (the owner's bookkeeping: loops over every slot) -------------------------------

  // Slots ever used: valid indices are below this.
  u32 slot_count() const { return used_; }
  bool live_at(u32 index) const { return index < used_ && (slot(index).generation & 0x100u) != 0; }
  T& at(u32 index) {
    KEEL_ASSERT(live_at(index), "SlotMap: slot {} is not live", index);
    return slot(index).value;
  }
  const T& at(u32 index) const { return const_cast<SlotMap&>(*this).at(index); }
  // The handle of the slot's current (or, when free, next) object.
  HandleType handle_at(u32 index) const { return HandleType{index, slot(index).generation}; }

  // Calls fn(handle, object) for every live object in index order. fn may erase any object and
  // add new ones (those landing in higher slots are visited in the same walk).
  template <typename Fn>
  void for_each(Fn&& fn) {
    for (u32 i = 0; i < used_; ++i) {
      if (live_at(i)) fn(handle_at(i), slot(i).value);
    }
  }
  template <typename Fn>
  void for_each(Fn&& fn) const {
    for (u32 i = 0; i < used_; ++i) {
      if (live_at(i)) fn(handle_at(i), std::as_const(slot(i).value));
    }
  }

  usize size() const { return live_; }
  bool empty() const { return live_ == 0; }
  usize capacity() const { return pages_.size() * usize{kPageSize}; }

 private:
  static constexpr u32 kNone = ~u32{0};
  static constexpr u32 kStep = 0x100u;  // one counter step above the salt byte
  struct Slot {
    T value{};
    u32 generation = 0;  // (counter << 8) | salt; odd counter: live
    u32 next_free = kNone;
  };

  Slot& slot(u32 index) const { return pages_[index / kPageSize][index % kPageSize]; }
  void add_page() {
    pages_.push_back(std::make_unique<Slot[]>(kPageSize));
    for (u32 i = 0; i < kPageSize; ++i) pages_.back()[i].generation = salt_;
  }
  void free_slot(u32 index) {
    Slot& s = slot(index);
    s.generation += kStep;  // even: free; every handle to it is dead
    s.next_free = free_head_;
    free_head_ = index;
    --live_;
  }
  void take(SlotMap& other) {
    pages_ = std::move(other.pages_);
    salt_ = other.salt_;
    used_ = std::exchange(other.used_, 0);
    live_ = std::exchange(other.live_, 0);
    free_head_ = std::exchange(other.free_head_, kNone);
    other.pages_.clear();
    other.salt_ = detail::next_slot_map_salt();  // its new handles must not pass for ours
  }

  std::vector<std::unique_ptr<Slot[]>> pages_;
  u32 salt_ = 1;
  u32 used_ = 0;
  u32 free_head_ = kNone;
  usize live_ = 0;
};

template <typename T, typename Tag, u32 kPageSize>
auto SlotMap<T, Tag, kPageSize>::acquire() -> HandleType {
  u32 index;
  if (free_head_ != kNone) {
    index = free_head_;
    free_head_ = slot(index).next_free;
  } else {
    KEEL_ASSERT(used_ != kNone, "SlotMap: more than 2^32 - 1 slots");
    if (used_ == capacity()) add_page();
    index = used_++;
  }
  Slot& s = slot(index);
  s.generation += kStep;  // odd: live
  s.next_free = kNone;
  ++live_;
  return HandleType{index, s.generation};
}

}  // namespace keel
