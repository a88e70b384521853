// keel::world::ComponentStore<C>: the manager of one component type — dense storage of every C
// in a World, as a sparse set:
//   sparse_[entity index] -> dense index (kNone: the entity has no C);
//   data_[dense], entities_[dense], serials_[dense]: the components, their entities and the
//   serial number each got when it was created (what a ComponentHandle<C> remembers);
//   slots_[dense]: the entity's index alone (4 bytes, not 8), what a sparse view's driver reads.
// Removing swaps the last component into the hole, so the dense arrays stay packed.
// run_: a number of first dense places known to hold consecutive entity indices (slots_[d] ==
// slots_[0] + d), the order of entities made one after the other and given their components in
// that order; a sparse view walks the stretch two stores' runs share with no lookup and no check.
// Adding leaves it alone (a sparse view extends it over the places added since, extend_run());
// anything that moves a component (removal, swap, compaction) cuts it at that place.
//
// ComponentHandle<C> is the weak handle the Citizen blog hands out: (entity, serial). It is alive
// while that entity has the very component it was made for; once the component is removed, its
// entity is killed (after the flush), or another C replaced it, it is dead — never a dangling
// pointer. Resolve it through World::get(handle).
//
// Groups (World::group<A, B>()): a group owns the stores of its types and keeps the entities that
// have all of them at the front of every owned store, in the same order, so a view over exactly
// those types walks parallel dense arrays (the speed of a plain structure-of-arrays loop).
//
// Game code does not use this class directly: World reaches the store of C by type
// (component_type_index<C>(), a number given on first use) without a string lookup or a
// virtual call.
#pragma once

#include "keel/core/assert.h"
#include "keel/core/types.h"
#include "keel/world/detail/entity_slot.h"
#include "keel/world/entity.h"
#include "keel/world/listeners.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

namespace keel::world {

class World;

template <typename C>
struct ComponentHandle {
  Entity entity;
  u32 serial = 0;  // 0: the null handle

  constexpr bool is_null() const { return serial == 0; }
  constexpr explicit operator bool() const { return serial != 0; }
  friend constexpr bool operator==(ComponentHandle, ComponentHandle) = default;
};

namespace detail {
u32 next_component_type_index();
u32 next_event_type_index();
}  // namespace detail

// A small number per component type, given on first use (the same for every World).
template <typename C>
u32 component_type_index() {
  static_assert(std::is_same_v<C, std::remove_cvref_t<C>>, "component types are plain types");
  static const u32 index = detail::next_component_type_index();
  return index;
}

class StoreBase;

// The entities that have every type of a group sit at [0, size) of each owned store.
struct Group {
  std::vector<StoreBase*> stores;
  u32 size = 0;
  u32 next_size = 0;  // World::flush's bulk end: the size once every owned store is compacted
  // Per entity slot, how many of the owned types the entity has: adding a component decides
  // whether the entity completes the group with one counter, not a search of every store.
  std::vector<u8> owned;

  // After a new component of an owned type was added (not a replacement).
  void on_added(u32 entity_index) {
    if (entity_index >= owned.size()) owned.resize(entity_index + 1, 0);
    if (++owned[entity_index] == stores.size()) join(entity_index);
  }
  void on_removing(u32 entity_index);  // before a component of an owned type is removed
  void join(u32 entity_index);         // the entity has every owned type: move it into [0, size)
};

class StoreBase {
 public:
  static constexpr u32 kNone = ~u32{0};

  StoreBase(const StoreBase&) = delete;
  StoreBase& operator=(const StoreBase&) = delete;
  virtual ~StoreBase() = default;

  u32 size() const { return static_cast<u32>(entities_.size()); }
  bool empty() const { return entities_.empty(); }
  // Dense index of the entity slot's component, or kNone.
  u32 dense_index(u32 entity_index) const {
    return entity_index < sparse_.size() ? sparse_[entity_index] : kNone;
  }
  bool contains(Entity e) const {
    const u32 d = dense_index(e.index);
    return d != kNone && entities_[d] == e;
  }
  std::span<const Entity> entities() const { return entities_; }
  const Group* group() const { return group_; }
  u32 type_index() const { return type_index_; }

  // Removes the entity's component now (World::flush calls this; game code uses World::remove).
  virtual void erase(Entity e) = 0;
  // Removes the components of every entity whose slot is dying, in one pass that keeps the
  // order of the others (World::flush, when it ends many entities at once). `group_prefix` is
  // the store's group size before the pass; returns how many of those entities remain.
  virtual u32 erase_dying(std::span<const detail::EntitySlot> slots, u32 group_prefix) = 0;
  // The component's bytes for hashing and saving (trivially copyable types), else empty.
  virtual std::span<const std::byte> bytes_of(u32 dense) const = 0;
  virtual usize component_size() const = 0;
  virtual bool trivially_copyable() const = 0;
  // Adds a component from saved bytes (trivially copyable types only).
  virtual void restore(Entity e, std::span<const std::byte> bytes) = 0;
  virtual void clear() = 0;
  virtual void swap_dense(u32 a, u32 b) = 0;
  // on_done listeners (World::done, World::on_done).
  virtual void notify_done(World& world, Entity e) = 0;
  virtual bool unsubscribe(ListenerId id) = 0;
  virtual void compact_listeners() = 0;

 protected:
  explicit StoreBase(u32 type_index) : type_index_(type_index) {}

  void link(Entity e, u32 dense) {
    if (e.index >= sparse_.size()) sparse_.resize(e.index + 1, kNone);
    sparse_[e.index] = dense;
    ++changes_;
  }
  // run_ over the places added since it was last extended (each place is read once while the
  // run lasts, then one read a call). Tracking it on every add instead cost BM_AddRemoveComponent
  // twice its time (23 -> 45 ns, for one compare and increment: not understood).
  [[gnu::noinline]] u32 extend_run() {
    const u32 n = size();
    u32 r = run_ == 0 && n > 0 ? 1 : run_;
    const u32* s = slots_.data();
    while (r < n && s[r] == s[0] + r) ++r;
    run_ = r;
    return r;
  }

  std::vector<u32> sparse_;
  std::vector<Entity> entities_;
  std::vector<u32> slots_;  // entities_[d].index, 4 bytes a component: what a sparse view reads
  std::vector<u32> serials_;
  u32 next_serial_ = 1;
  u32 type_index_;
  Group* group_ = nullptr;
  // Counts the changes that may move a component or one of the arrays (adds, removals, swaps,
  // compactions, reserve): a sparse view compares it after each call of its function to know
  // whether the places it proved or the addresses it copied still hold.
  u32 changes_ = 0;
  u32 run_ = 0;  // slots_[d] == slots_[0] + d for every d < run_ (above; extend_run)
  friend class World;
  template <typename... Cs>
  friend class View;
};

template <typename C>
class ComponentStore final : public StoreBase {
  static_assert(std::is_move_constructible_v<C> && std::is_move_assignable_v<C>,
                "a component type must be movable");

 public:
  ComponentStore() : StoreBase(component_type_index<C>()) {}

  // Adds C(args...) to a live entity (the caller checked), or replaces the one it has (the old
  // one's handles die). Returns the component, which stays where it is until the next add or
  // removal of a C.
  template <typename... Args>
  C& emplace(Entity e, Args&&... args) {
    u32 d = dense_index(e.index);
    if (d != kNone && entities_[d] == e) {
      data_[d] = C(std::forward<Args>(args)...);
      serials_[d] = take_serial();
      return data_[d];
    }
    d = size();
    if constexpr (std::is_aggregate_v<C>) {
      data_.push_back(C{std::forward<Args>(args)...});
    } else {
      data_.emplace_back(std::forward<Args>(args)...);
    }
    entities_.push_back(e);
    slots_.push_back(e.index);
    serials_.push_back(take_serial());
    link(e, d);
    if (group_ != nullptr) {
      group_->on_added(e.index);
      d = sparse_[e.index];
    }
    return data_[d];
  }

  C* find(Entity e) {
    const u32 d = dense_index(e.index);
    return d != kNone && entities_[d] == e ? &data_[d] : nullptr;
  }
  const C* find(Entity e) const { return const_cast<ComponentStore*>(this)->find(e); }

  ComponentHandle<C> handle(Entity e) const {
    const u32 d = dense_index(e.index);
    if (d == kNone || entities_[d] != e) return {};
    return {e, serials_[d]};
  }
  C* find(ComponentHandle<C> h) {
    if (h.is_null()) return nullptr;
    const u32 d = dense_index(h.entity.index);
    return d != kNone && entities_[d] == h.entity && serials_[d] == h.serial ? &data_[d] : nullptr;
  }

  void erase(Entity e) override {
    u32 d = dense_index(e.index);
    if (d == kNone || entities_[d] != e) return;
    ++changes_;
    if (group_ != nullptr) {
      group_->on_removing(e.index);
      d = sparse_[e.index];
    }
    const u32 last = size() - 1;
    if (d != last) {
      data_[d] = std::move(data_[last]);
      entities_[d] = entities_[last];
      slots_[d] = slots_[last];
      serials_[d] = serials_[last];
      sparse_[entities_[d].index] = d;
    }
    sparse_[e.index] = kNone;
    run_ = std::min(run_, d);
    entities_.pop_back();
    slots_.pop_back();
    serials_.pop_back();
    data_.pop_back();
  }

  u32 erase_dying(std::span<const detail::EntitySlot> slots, u32 group_prefix) override {
    ++changes_;
    const u32 n = size();
    u32 r = 0;
    while (r < n && !slots[entities_[r].index].dying) ++r;  // nothing moves before the first
    run_ = std::min(run_, r);
    u32 w = r;
    u32 kept_prefix = std::min(r, group_prefix);
    for (; r < n; ++r) {
      const Entity e = entities_[r];
      if (slots[e.index].dying) {
        sparse_[e.index] = kNone;
        if (group_ != nullptr) --group_->owned[e.index];
        continue;
      }
      data_[w] = std::move(data_[r]);
      entities_[w] = e;
      slots_[w] = e.index;
      serials_[w] = serials_[r];
      sparse_[e.index] = w;
      ++w;
      if (r < group_prefix) ++kept_prefix;
    }
    data_.erase(data_.begin() + w, data_.end());
    entities_.resize(w);
    slots_.resize(w);
    serials_.resize(w);
    return kept_prefix;
  }

  std::span<const std::byte> bytes_of(u32 dense) const override {
    if constexpr (std::is_trivially_copyable_v<C>) {
      return std::as_bytes(std::span(&data_[dense], 1));
    } else {
      return {};
    }
  }
  usize component_size() const override { return sizeof(C); }
  bool trivially_copyable() const override { return std::is_trivially_copyable_v<C>; }
  void restore(Entity e, std::span<const std::byte> bytes) override {
    if constexpr (std::is_trivially_copyable_v<C> && std::is_default_constructible_v<C>) {
      KEEL_ASSERT(bytes.size() == sizeof(C), "ComponentStore::restore: {} bytes for a {}-byte type",
                  bytes.size(), sizeof(C));
      if (bytes.size() != sizeof(C)) return;
      C value;
      std::memcpy(static_cast<void*>(&value), bytes.data(), sizeof(C));
      emplace(e, std::move(value));
    }
  }
  void clear() override {
    ++changes_;
    run_ = 0;
    for (const Entity e : entities_) {
      sparse_[e.index] = kNone;
      if (group_ != nullptr) --group_->owned[e.index];
    }
    entities_.clear();
    slots_.clear();
    serials_.clear();
    data_.clear();
    if (group_ != nullptr) group_->size = 0;
  }
  void swap_dense(u32 a, u32 b) override {
    if (a == b) return;
    ++changes_;
    run_ = std::min({run_, a, b});
    std::swap(data_[a], data_[b]);
    std::swap(entities_[a], entities_[b]);
    std::swap(slots_[a], slots_[b]);
    std::swap(serials_[a], serials_[b]);
    sparse_[entities_[a].index] = a;
    sparse_[entities_[b].index] = b;
  }

  void notify_done(World& world, Entity e) override {
    if (C* c = find(e)) done_listeners_.call(world, e, *c);
  }
  bool unsubscribe(ListenerId id) override { return done_listeners_.remove(id); }
  void compact_listeners() override { done_listeners_.compact(); }

  // Dense access for systems and views: components in store order.
  std::span<C> components() { return data_; }
  std::span<const C> components() const { return data_; }
  C& at_dense(u32 d) { return data_[d]; }

  void reserve(usize count) {
    ++changes_;
    data_.reserve(count);
    entities_.reserve(count);
    slots_.reserve(count);
    serials_.reserve(count);
  }

 private:
  u32 take_serial() {
    const u32 s = next_serial_++;
    if (next_serial_ == 0) next_serial_ = 1;  // wraps after 2^32 adds; 0 stays the null handle
    return s;
  }

  std::vector<C> data_;
  ListenerList<World&, Entity, C&> done_listeners_;
  friend class World;
  template <typename... Cs>
  friend class View;
};

}  // namespace keel::world
