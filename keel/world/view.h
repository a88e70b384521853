// keel::world::View<Cs...>: the entities that have every one of the component types Cs, for
// systems that iterate.
//
//   for (auto [e, t, v] : world.view<Transform, Velocity>()) t.position += v.value * dt;
//   world.view<Transform, Velocity>().each([&](Entity e, Transform& t, Velocity& v) { ... });
//   world.view<Transform, Velocity>().each([&](Transform& t, Velocity& v) { ... });
//
// Two walks, chosen when the iteration starts:
// - grouped: when one group (World::group) owns exactly the types Cs, the matching entities are
//   [0, group size) of every owned store, in the same order: the loop walks parallel dense
//   arrays with no lookup and no test (the speed of a plain structure-of-arrays loop);
// - sparse: otherwise the smallest store drives. each() walks it in blocks of kBlock places; a
//   block whose entities sit in the same order at consecutive places of every other store is
//   walked as parallel arrays (no lookup, vectorised by GCC), any other block looks each entity
//   up in the others (one sparse-array read per type, skipping the entities that miss one). The
//   order of a block is proved without reading anything when it lies in the stores' runs of
//   consecutive entity indices (StoreBase::run_: entities made one after the other), else by
//   comparing the block's entity indices with the other store's (4 + 4 bytes an entity, with no
//   early exit, so vectorised). Either way the entities visited and their order (the driver's)
//   are the same. each() has one loop per possible driver (chosen at compile time); range-for
//   looks every entity up.
// A view allocates nothing. Dead entities are never visited: killing ends an entity's
// components at World::flush(), and a view does not keep anything between iterations.
//
// While iterating: components may be read and written; removals and kills are deferred to the
// flush, so nothing moves under the loop. Adding a component of one of the types Cs may move
// that type's components (references taken before are then stale; the loop keeps copies of the
// arrays' addresses but compares them (range-for) or the stores' change counts (each) with the
// stores' after every step and reloads them, so it stays safe); entities that get all of Cs during
// the loop are not visited, and adding a component of a grouped type may reorder the entities of an
// iterating sparse view.
#pragma once

#include "keel/core/types.h"
#include "keel/world/component_store.h"
#include "keel/world/entity.h"

#include <array>
#include <tuple>
#include <type_traits>
#include <utility>

namespace keel::world {

namespace detail {
template <typename T, typename... Rest>
constexpr bool kDistinct = (!std::is_same_v<T, Rest> && ...) && kDistinct<Rest...>;
template <typename T>
constexpr bool kDistinct<T> = true;
}  // namespace detail

template <typename... Cs>
class View {
  static_assert(sizeof...(Cs) >= 1, "a view needs at least one component type");
  static_assert(detail::kDistinct<Cs...>, "a view names each component type once");
  static constexpr usize N = sizeof...(Cs);
  using Indices = std::index_sequence_for<Cs...>;
  using Dense = std::array<u32, N>;  // where the current entity's components are, per type

 public:
  using Stores = std::tuple<ComponentStore<Cs>*...>;

  explicit View(ComponentStore<Cs>&... stores) : stores_(&stores...) {}

  // The sparse each()'s block, in driver places (above). 128 measured slower (more per-block
  // work), 512 and 1024 no faster.
  static constexpr u32 kBlock = 256;

  // fn(Entity, Cs&...) or fn(Cs&...) for every matching entity.
  template <typename Fn>
  void each(Fn&& fn) {
    const Walk walk = start();
    if (walk.grouped) {
      for (u32 i = 0; i < walk.count; ++i) {
        call(fn, first()->entities_[i], std::get<ComponentStore<Cs>*>(stores_)->data_[i]...);
      }
    } else {
      each_sparse(fn, walk, Indices{});
    }
  }

  // Range-for: elements are std::tuple<Entity, Cs&...> (`auto [e, a, b]` binds references).
 private:
  // One walk: the grouped arrays, or the smallest store (the driver) with lookups in the others.
  struct Walk {
    const StoreBase* driver = nullptr;
    u32 count = 0;
    u32 driver_slot = 0;  // the driver's position in Cs
    bool grouped = false;
  };

 public:
  struct Sentinel {};
  class Iterator {
   public:
    using value_type = std::tuple<Entity, Cs&...>;
    value_type operator*() const { return deref(Indices{}); }
    Iterator& operator++() {
      ++index_;
      if (moved(Indices{})) [[unlikely]]
        load(Indices{});
      if (!walk_.grouped) skip();
      return *this;
    }
    bool operator==(Sentinel) const { return index_ >= walk_.count; }

   private:
    friend class View;
    Iterator(const Stores& stores, typename View::Walk walk) : stores_(stores), walk_(walk) {
      load(Indices{});
      if (!walk_.grouped) skip();
    }
    // The next entity (from index_ on) that every store holds; fills dense_ on the way.
    void skip() {
      for (; index_ < walk_.count; ++index_) {
        if (View::find_all(stores_, walk_, index_, dense_)) return;
      }
    }
    // Reads through the iterator's copies of the arrays' addresses (load()), which ++ compares
    // with the stores' (moved()) and reloads if the loop's body grew a store. Reading the stores'
    // vectors here instead kept GCC from vectorising the grouped loop (the loads stayed in it).
    template <usize... Is>
    value_type deref(std::index_sequence<Is...>) const {
      return {ents_[index_], std::get<Is>(bases_)[walk_.grouped ? index_ : dense_[Is]]...};
    }
    template <usize... Is>
    bool moved(std::index_sequence<Is...>) const {
      return ents_ != walk_.driver->entities_.data() ||
             ((std::get<Is>(bases_) != std::get<Is>(stores_)->data_.data()) || ...);
    }
    template <usize... Is>
    void load(std::index_sequence<Is...>) {
      ents_ = walk_.driver->entities_.data();
      ((std::get<Is>(bases_) = std::get<Is>(stores_)->data_.data()), ...);
    }

    Stores stores_;  // a copy: the loop keeps it in registers
    typename View::Walk walk_;
    u32 index_ = 0;
    Dense dense_{};                 // the sparse walk's places of the current entity (find_all)
    const Entity* ents_ = nullptr;  // the driver's entities
    std::tuple<Cs*...> bases_;      // each store's components
  };
  Iterator begin() { return Iterator(stores_, start()); }
  Sentinel end() const { return {}; }

  // Entities visited by a walk starting now (counts a sparse walk: O(driver size)).
  usize size() {
    usize n = 0;
    each([&n](Entity, Cs&...) { ++n; });
    return n;
  }

 private:
  using First = std::tuple_element_t<0, std::tuple<ComponentStore<Cs>...>>;
  First* first() const { return std::get<0>(stores_); }

  Walk start() const {
    const Group* group = first()->group_;
    const bool grouped = group != nullptr && group->stores.size() == N &&
                         ((std::get<ComponentStore<Cs>*>(stores_)->group_ == group) && ...);
    if (grouped) return {first(), group->size, 0, true};
    return smallest(Indices{});
  }
  template <usize... Is>
  Walk smallest(std::index_sequence<Is...>) const {
    Walk w{first(), first()->size(), 0, false};
    ((std::get<Is>(stores_)->size() < w.count
          ? void(w = Walk{std::get<Is>(stores_), std::get<Is>(stores_)->size(), u32(Is), false})
          : void()),
     ...);
    return w;
  }

  // Whether every store holds the entity at the driver's position `index`; fills `dense` with
  // where (the driver's own is `index`): one sparse-array read per other store, and the
  // component references come from it with no second search.
  static bool find_all(const Stores& stores, const Walk& walk, u32 index, Dense& dense) {
    const u32 entity_index = walk.driver->entities_[index].index;
    return find_all_impl(stores, walk.driver_slot, index, entity_index, dense, Indices{});
  }
  template <usize... Is>
  static bool find_all_impl(const Stores& stores, u32 driver_slot, u32 index, u32 entity_index,
                            Dense& dense, std::index_sequence<Is...>) {
    return (
        (dense[Is] = Is == driver_slot ? index : std::get<Is>(stores)->dense_index(entity_index),
         dense[Is] != StoreBase::kNone) &&
        ...);
  }

  // The sparse walk, with the driver chosen at compile time: one instantiation per possible
  // driver, so the loop tests only the other stores and takes the driver's component directly.
  template <typename Fn, usize... Is>
  void each_sparse(Fn& fn, const Walk& walk, std::index_sequence<Is...>) {
    ((walk.driver_slot == Is ? each_driven_by<Is>(fn, walk.count) : void()), ...);
  }
  // The arrays a sparse walk reads, copied out of the stores so the loop keeps them in registers
  // (GCC does not reload them per entity), with each store's change count (StoreBase::changes_).
  // fn may add components, which may move arrays or, through a group, swap components: after
  // each call the counts are compared with the stores' and everything is reloaded if one changed
  // (with fn inlined and not touching the stores, GCC moves the comparison out of the loop).
  struct Arrays {
    const Entity* entities = nullptr;  // the driver's
    const u32* slots = nullptr;        // the driver's entity indices
    std::tuple<Cs*...> data;
    std::array<const u32*, N> sparse{};
    std::array<u32, N> sparse_size{};
    std::array<const u32*, N> store_slots{};  // every store's entity indices, in dense order
    std::array<u32, N> size{};
    std::array<u32, N> changes{};
    std::array<u32, N> run{};    // StoreBase::run_
    std::array<u32, N> first{};  // the entity index at dense place 0 (when run > 0)
  };
  template <usize K, usize... Is>
  Arrays arrays(std::index_sequence<Is...>) const {
    Arrays a;
    a.entities = std::get<K>(stores_)->entities_.data();
    a.slots = std::get<K>(stores_)->slots_.data();
    ((std::get<Is>(a.data) = std::get<Is>(stores_)->data_.data(),
      a.sparse[Is] = std::get<Is>(stores_)->sparse_.data(),
      a.sparse_size[Is] = u32(std::get<Is>(stores_)->sparse_.size()),
      a.store_slots[Is] = std::get<Is>(stores_)->slots_.data(),
      a.size[Is] = std::get<Is>(stores_)->size(), a.changes[Is] = std::get<Is>(stores_)->changes_,
      a.run[Is] = std::get<Is>(stores_)->run_,
      a.first[Is] = a.run[Is] > 0 ? std::get<Is>(stores_)->slots_[0] : 0),
     ...);
    return a;
  }
  template <usize... Is>
  bool changed(const Arrays& a, std::index_sequence<Is...>) const {
    return ((a.changes[Is] != std::get<Is>(stores_)->changes_) || ...);
  }

  template <usize K, typename Fn>
  void each_driven_by(Fn& fn, u32 count) {
    (std::get<ComponentStore<Cs>*>(stores_)->extend_run(), ...);
    Arrays a = arrays<K>(Indices{});
    u32 i = 0;
    while (i < count) {
      const u32 end = count - i > kBlock ? i + kBlock : count;
      Dense first;
      i = in_order<K>(a, i, end - i, first, Indices{})
              ? walk_in_order(fn, a, i, end, first, Indices{})
              : walk_looked_up<K>(fn, a, i, end);
      if (changed(a, Indices{})) [[unlikely]]
        a = arrays<K>(Indices{});  // one place (inlined arrays() are big): GCC's unit growth
    }
  }
  // Driver positions [begin, end), each entity looked up in the other stores. Returns end, or
  // the position after a call that changed a store.
  template <usize K, typename Fn>
  u32 walk_looked_up(Fn& fn, const Arrays& a, u32 begin, u32 end) {
    for (u32 i = begin; i < end; ++i) {
      Dense dense;
      if (find_others<K>(a, a.slots[i], i, dense, Indices{})) {
        visit(fn, a, i, dense, Indices{});
        if (changed(a, Indices{})) [[unlikely]]
          return i + 1;
      }
    }
    return end;
  }

  // Whether the driver's entities at [begin, begin + n) are, in that order, at [first[s],
  // first[s] + n) of every other store s (the driver's own first is begin).
  template <usize K, usize... Is>
  static bool in_order(const Arrays& a, u32 begin, u32 n, Dense& first,
                       std::index_sequence<Is...>) {
    const u32* mine = a.slots + begin;
    // Inside the driver's run, the block's entities are a.first[K] + begin + [0, n): where the
    // other store's run holds all of them, their places are known with no read.
    const bool in_run = begin + n <= a.run[K];
    const u32 entity = a.first[K] + begin;
    return ((Is == K ? (first[Is] = begin, true)
             : (in_run && entity >= a.first[Is] && a.run[Is] >= n &&
                entity - a.first[Is] <= a.run[Is] - n)
                 ? (first[Is] = entity - a.first[Is], true)
                 : (first[Is] = same_run(mine, n, a.sparse[Is], a.sparse_size[Is],
                                         a.store_slots[Is], a.size[Is])) != StoreBase::kNone) &&
            ...);
  }
  // Where the driver's entities mine[0, n) sit in a store, in that order and consecutive; kNone
  // if they do not. Out of line: called once a block per store, and inlined into every driver's
  // loop it made GCC stop inlining elsewhere in the bench's translation unit (its unit growth
  // limit: World::create's vector appends became calls). Returns its answer rather than writing
  // through a reference, which would let the block's places escape and keep GCC from
  // vectorising walk_in_order.
  [[gnu::noinline]] static u32 same_run(const u32* mine, u32 n, const u32* sparse, u32 sparse_size,
                                        const u32* theirs, u32 their_size) {
    const u32 first = mine[0] < sparse_size ? sparse[mine[0]] : StoreBase::kNone;
    if (first >= their_size || their_size - first < n) return StoreBase::kNone;
    theirs += first;
    if (theirs[n - 1] != mine[n - 1]) return StoreBase::kNone;  // most such blocks fail here
    // No early exit, so GCC vectorises the comparison.
    u32 diff = 0;
    for (u32 j = 0; j < n; ++j) diff |= theirs[j] ^ mine[j];
    return diff == 0 ? first : StoreBase::kNone;
  }

  // fn over driver positions [begin, end), whose components are at first[s] + (position -
  // begin) of every store s. Returns end, or the position after a call that changed a store.
  template <typename Fn, usize... Is>
  u32 walk_in_order(Fn& fn, const Arrays& a, u32 begin, u32 end, const Dense& first,
                    std::index_sequence<Is...>) {
    const Entity* entities = a.entities + begin;
    const std::tuple<Cs*...> base{std::get<Is>(a.data) + first[Is]...};
    const usize n = end - begin;
    for (usize j = 0; j < n; ++j) {
      call(fn, entities[j], std::get<Is>(base)[j]...);
      if (changed(a, Indices{})) [[unlikely]]
        return begin + u32(j) + 1;
    }
    return end;
  }

  template <usize K, usize... Is>
  static bool find_others(const Arrays& a, u32 entity_index, u32 index, Dense& dense,
                          std::index_sequence<Is...>) {
    return ((dense[Is] = Is == K                            ? index
                         : entity_index < a.sparse_size[Is] ? a.sparse[Is][entity_index]
                                                            : StoreBase::kNone,
             Is == K || dense[Is] != StoreBase::kNone) &&
            ...);
  }
  template <typename Fn, usize... Is>
  static void visit(Fn& fn, const Arrays& a, u32 index, const Dense& dense,
                    std::index_sequence<Is...>) {
    call(fn, a.entities[index], std::get<Is>(a.data)[dense[Is]]...);
  }

  template <typename Fn>
  static void call(Fn& fn, Entity e, Cs&... cs) {
    if constexpr (std::is_invocable_v<Fn&, Entity, Cs&...>) {
      fn(e, cs...);
    } else {
      static_assert(std::is_invocable_v<Fn&, Cs&...>,
                    "View::each: fn takes (Entity, Cs&...) or (Cs&...)");
      fn(cs...);
    }
  }

  Stores stores_;
};

}  // namespace keel::world
