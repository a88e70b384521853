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
// - sparse: otherwise the smallest store drives and each of its entities is looked up in the
//   others (one array read per type), skipping the entities that miss one.
// A view allocates nothing. Dead entities are never visited: killing ends an entity's
// components at World::flush(), and a view does not keep anything between iterations.
//
// While iterating: components may be read and written; removals and kills are deferred to the
// flush, so nothing moves under the loop. Adding a component of one of the types Cs may move
// that type's components (references taken before are then stale; the loop itself re-reads its
// arrays, so it stays safe); entities that get all of Cs during the loop are not visited, and
// adding a component of a grouped type may reorder the entities of an iterating sparse view.
#pragma once

#include "keel/core/types.h"
#include "keel/world/component_store.h"
#include "keel/world/entity.h"

#include <tuple>
#include <type_traits>

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

 public:
  using Stores = std::tuple<ComponentStore<Cs>*...>;

  explicit View(ComponentStore<Cs>&... stores) : stores_(&stores...) {}

  // fn(Entity, Cs&...) or fn(Cs&...) for every matching entity.
  template <typename Fn>
  void each(Fn&& fn) {
    const Walk walk = start();
    if (walk.grouped) {
      for (u32 i = 0; i < walk.count; ++i) {
        call(fn, first()->entities_[i], std::get<ComponentStore<Cs>*>(stores_)->data_[i]...);
      }
    } else {
      for (u32 i = 0; i < walk.count; ++i) {
        const Entity e = walk.driver->entities_[i];
        if (others_contain(stores_, walk.driver, e.index)) {
          call(fn, e, pick<Cs>(stores_, walk.driver, i, e.index)...);
        }
      }
    }
  }

  // Range-for: elements are std::tuple<Entity, Cs&...> (`auto [e, a, b]` binds references).
 private:
  // One walk: the grouped arrays, or the smallest store (the driver) with lookups in the others.
  struct Walk {
    const StoreBase* driver = nullptr;
    u32 count = 0;
    bool grouped = false;
  };

 public:
  struct Sentinel {};
  class Iterator {
   public:
    using value_type = std::tuple<Entity, Cs&...>;
    value_type operator*() const { return View::at(stores_, walk_, index_); }
    Iterator& operator++() {
      ++index_;
      if (!walk_.grouped) View::skip(stores_, walk_, index_);
      return *this;
    }
    bool operator==(Sentinel) const { return index_ >= walk_.count; }

   private:
    friend class View;
    Iterator(const Stores& stores, typename View::Walk walk) : stores_(stores), walk_(walk) {
      if (!walk_.grouped) View::skip(stores_, walk_, index_);
    }
    Stores stores_;  // a copy: the loop keeps it in registers
    typename View::Walk walk_;
    u32 index_ = 0;
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
    const bool grouped = group != nullptr && group->stores.size() == sizeof...(Cs) &&
                         ((std::get<ComponentStore<Cs>*>(stores_)->group_ == group) && ...);
    if (grouped) return {first(), group->size, true};
    const StoreBase* driver = first();
    ((driver = std::get<ComponentStore<Cs>*>(stores_)->size() < driver->size()
                   ? std::get<ComponentStore<Cs>*>(stores_)
                   : driver),
     ...);
    return {driver, driver->size(), false};
  }

  // Whether the stores other than the driver (which holds the entity) have it too.
  static bool others_contain(const Stores& stores, const StoreBase* driver, u32 entity_index) {
    return (
        (std::get<ComponentStore<Cs>*>(stores) == driver ||
         std::get<ComponentStore<Cs>*>(stores)->dense_index(entity_index) != StoreBase::kNone) &&
        ...);
  }
  // The driver's own component is at the walk's index: no lookup.
  template <typename C>
  static C& pick(const Stores& stores, const StoreBase* driver, u32 index, u32 entity_index) {
    ComponentStore<C>* s = std::get<ComponentStore<C>*>(stores);
    return s->data_[s == driver ? index : s->sparse_[entity_index]];
  }
  static void skip(const Stores& stores, const Walk& walk, u32& index) {
    while (index < walk.count &&
           !others_contain(stores, walk.driver, walk.driver->entities_[index].index)) {
      ++index;
    }
  }
  static std::tuple<Entity, Cs&...> at(const Stores& stores, const Walk& walk, u32 index) {
    if (walk.grouped) {
      return {std::get<0>(stores)->entities_[index],
              std::get<ComponentStore<Cs>*>(stores)->data_[index]...};
    }
    const Entity e = walk.driver->entities_[index];
    return {e, pick<Cs>(stores, walk.driver, index, e.index)...};
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
