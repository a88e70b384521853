// keel::world::World: the entities of a game, their components (one dense manager per type),
// their properties and their events.
//
//   World world;
//   Entity ship = world.create();
//   world.create<Transform>(ship, Transform{.position = {10, 0}});   // the manager of Transform
//   world.create<Gun>(ship, Gun{.cooldown = 0.2f});
//   world.props(ship)->req<int>("health", 100);                      // keel/props, made lazily
//   for (auto [e, t, gun] : world.view<Transform, Gun>()) { ... }    // systems iterate
//   world.kill(ship);                                                // ends at the next flush()
//   world.flush();                                                   // the frame's safe point
//
// Entities are generational ids (entity.h): a killed entity's id is dead for ever, never the
// entity that reuses its slot; ids of another World report kForeign. Any movable type is a
// component: `create<C>(e, args...)` reaches C's manager through a number given to the type on
// first use — no registration, no string lookup, no virtual call. `get<C>(e)` returns a pointer
// (null when the entity is dead or has no C); `handle<C>(e)` a weak ComponentHandle<C> that dies
// with the component.
//
// Deferred ends: kill(e), remove<C>(e) and done<C>(e) take effect at flush(), so systems may call
// them while iterating and listeners can still read what ends. flush() runs, in this order:
//   1. queued game events (emit), in emission order — events emitted meanwhile come after;
//   2. done signals (done<C>), in signal order: the on_done<C> listeners, component still there;
//   3. kills, in kill order: the on_kill listeners, the entity and its components still there;
//   (steps 1-3 repeat while listeners emit, signal or kill more — until nothing is left)
//   4. the ends, all at once: removed and done components (in request order), then killed
//      entities (every component, the property container, the id).
// Listeners of one kind run in the order they subscribed. Creation is immediate.
//
// Bad input does not crash: null, dead and foreign entities are refused (create<C> on one asserts
// in debug builds, naming the mistake, and returns null); removing what is not there is a no-op.
// Not thread-safe: one thread at a time.
#pragma once

#include "keel/core/assert.h"
#include "keel/core/error.h"
#include "keel/core/slot_map.h"
#include "keel/core/types.h"
#include "keel/world/component_store.h"
#include "keel/world/entity.h"
#include "keel/world/events.h"
#include "keel/world/listeners.h"
#include "keel/world/view.h"

#include <array>
#include <functional>
#include <memory>
#include <span>
#include <vector>

namespace keel::props {
class PropertyContainer;
}
namespace keel::save {
class SaveFile;
}

namespace keel::world {

class World {
 public:
  World();
  ~World();
  World(const World&) = delete;
  World& operator=(const World&) = delete;

  // --- entities ---------------------------------------------------------------------------------

  Entity create();
  // Marks a live entity to end at the next flush(); false for null, dead and foreign ids.
  // Killing twice before the flush is harmless (true, one on_kill).
  bool kill(Entity e);
  bool alive(Entity e) const {
    return e.index < slots_.size() && slots_[e.index].generation == e.generation &&
           (e.generation & kLiveBit) != 0;
  }
  // Killed, ending at the next flush() (still alive until then).
  bool dying(Entity e) const;
  HandleStatus status(Entity e) const;
  usize size() const { return live_; }
  // Room for `count` entities without allocating in the entity table.
  void reserve(usize count);
  // Every live entity in slot order.
  template <typename Fn>
  void for_each_entity(Fn&& fn) const {
    for (u32 i = 0; i < slots_.size(); ++i) {
      if ((slots_[i].generation & kLiveBit) != 0) fn(Entity{i, slots_[i].generation});
    }
  }

  // The entity's property container, made on first use; null for a dead entity.
  props::PropertyContainer* props(Entity e);
  // The container if the entity has one (never makes it).
  const props::PropertyContainer* find_props(Entity e) const;

  // --- components -------------------------------------------------------------------------------

  // Adds C{args...} (or C(args...)) to a live entity, or replaces the C it has (the old one's
  // handles die). Null, with an assertion, for a dead or foreign entity.
  template <typename C, typename... Args>
  C* create(Entity e, Args&&... args) {
    KEEL_ASSERT(alive(e), "World::create<C>: the entity is {} (index {}, generation {:#x})",
                to_string(status(e)), e.index, e.generation);
    if (!alive(e)) return nullptr;
    return &store<C>().emplace(e, std::forward<Args>(args)...);
  }
  template <typename C>
  C* get(Entity e) {
    ComponentStore<C>* s = find_store<C>();
    return s != nullptr ? s->find(e) : nullptr;
  }
  template <typename C>
  const C* get(Entity e) const {
    return const_cast<World*>(this)->get<C>(e);
  }
  template <typename C>
  bool has(Entity e) const {
    return get<C>(e) != nullptr;
  }
  // Ends the entity's C at the next flush(); false (nothing happens) when it has none. The end
  // applies to the C the entity has at the flush (a replacement made meanwhile ends too).
  template <typename C>
  bool remove(Entity e) {
    return end_component(find_store<C>(), e, false);
  }
  // The component has finished its limited life: at the next flush() the on_done<C> listeners
  // run, then it ends. False when the entity has no C.
  template <typename C>
  bool done(Entity e) {
    return end_component(find_store<C>(), e, true);
  }

  // Weak handles: null when the entity has no C; dead once that component ends.
  template <typename C>
  ComponentHandle<C> handle(Entity e) const {
    const ComponentStore<C>* s = find_store<C>();
    return s != nullptr ? s->handle(e) : ComponentHandle<C>{};
  }
  template <typename C>
  C* get(ComponentHandle<C> h) {
    ComponentStore<C>* s = find_store<C>();
    return s != nullptr ? s->find(h) : nullptr;
  }
  template <typename C>
  bool alive(ComponentHandle<C> h) const {
    return const_cast<World*>(this)->get(h) != nullptr;
  }

  // The manager of C (made on first use).
  template <typename C>
  ComponentStore<C>& store() {
    const u32 index = component_type_index<C>();
    if (index < stores_.size() && stores_[index]) [[likely]] {
      return static_cast<ComponentStore<C>&>(*stores_[index]);
    }
    return make_store<C>(index);
  }
  template <typename C>
  ComponentStore<C>* find_store() const {
    const u32 index = component_type_index<C>();
    return index < stores_.size() ? static_cast<ComponentStore<C>*>(stores_[index].get()) : nullptr;
  }

  // --- systems ----------------------------------------------------------------------------------

  // The entities that have all of Cs (view.h).
  template <typename... Cs>
  View<Cs...> view() {
    return View<Cs...>(store<Cs>()...);
  }
  // An owning group: keeps the entities that have all of Cs first, in the same order, in each
  // of their stores, so view<Cs...>() walks parallel arrays. A store belongs to one group at
  // most: false (with an assertion) when one of them is already owned by another group; true
  // when the same group exists. Adding and removing grouped components costs a few swaps more.
  template <typename... Cs>
  bool group() {
    static_assert(sizeof...(Cs) >= 2, "a group owns two component types or more");
    static_assert(detail::kDistinct<Cs...>, "a group names each component type once");
    static_assert(sizeof...(Cs) < 256, "a group owns at most 255 component types");
    std::array<StoreBase*, sizeof...(Cs)> stores{&store<Cs>()...};
    return make_group(stores);
  }

  // --- events -----------------------------------------------------------------------------------

  ListenerId on_kill(std::function<void(World&, Entity)> fn);
  template <typename C>
  ListenerId on_done(std::function<void(World&, Entity, C&)> fn) {
    const ListenerId id = next_listener_id();
    store<C>().done_listeners_.add(id, std::move(fn));
    return id;
  }
  template <typename E>
  ListenerId on(std::function<void(World&, const E&)> fn) {
    const ListenerId id = next_listener_id();
    channel<E>().subscribe(id, std::move(fn));
    return id;
  }
  // Queues a game event for the next flush().
  template <typename E>
  void emit(E event) {
    const u32 i = channel<E>().push(std::move(event));
    event_order_.push_back({event_type_index<E>(), i});
  }
  // False when the id is unknown or already unsubscribed.
  bool unsubscribe(ListenerId id);

  // The frame's safe point: delivers events and ends what was killed, removed or done (above).
  void flush();
  // Ends every entity and component now, with no events; keeps listeners, groups and memory.
  void clear();

  // --- state ------------------------------------------------------------------------------------

  // Component types whose values take part in state_hash(), save() and load(): trivially
  // copyable types (bytes as they are). Transform is tracked from the start. Worlds compare and
  // save alike when they track the same types in the same order.
  template <typename C>
  void track_state() {
    static_assert(std::is_trivially_copyable_v<C> && std::is_default_constructible_v<C>,
                  "World::track_state: trivially copyable, default-constructible types only");
    track_store(store<C>());
  }
  // A hash of the entity table (ids in slot order) and of every tracked component (in entity
  // order): equal for worlds in the same state, whatever the order things were made in.
  u64 state_hash() const;
  // The entity table (ids and generations, so saved ids stay valid) and the tracked components,
  // as client data of a save session (keel/save: put/get between object sets).
  Status save(save::SaveFile& file) const;
  // Replaces this world's entities and tracked components with a saved world (clear() first, no
  // events). On error the world is left empty.
  Status load(save::SaveFile& file);

 private:
  static constexpr u32 kNone = ~u32{0};
  static constexpr u32 kLiveBit = 0x100u;  // odd counter above the salt byte: live
  static constexpr u32 kStep = 0x100u;

  using Slot = detail::EntitySlot;
  struct PendingEnd {
    Entity entity;
    u32 type = 0;
    bool done = false;
  };
  struct QueuedEvent {
    u32 type = 0;
    u32 index = 0;
  };

  template <typename E>
  detail::Channel<E>& channel() {
    const u32 index = event_type_index<E>();
    if (index >= channels_.size()) channels_.resize(index + 1);
    if (!channels_[index]) channels_[index] = std::make_unique<detail::Channel<E>>();
    return static_cast<detail::Channel<E>&>(*channels_[index]);
  }

  // store()'s first use of C, out of line so that store() stays small enough to be inlined
  // wherever components are made (a translation unit at GCC's inlining budget, like the ECS
  // bench's, otherwise makes it a call per create<C>).
  template <typename C>
  [[gnu::noinline]] ComponentStore<C>& make_store(u32 index) {
    if (index >= stores_.size()) stores_.resize(index + 1);
    if (!stores_[index]) stores_[index] = std::make_unique<ComponentStore<C>>();
    return static_cast<ComponentStore<C>&>(*stores_[index]);
  }
  bool end_component(StoreBase* store, Entity e, bool done);
  bool make_group(std::span<StoreBase* const> stores);
  void track_store(StoreBase& store);
  ListenerId next_listener_id() { return ListenerId{++last_listener_id_}; }
  bool deliver_events();
  void destroy_entity(Entity e);
  void destroy_killed();
  void free_slot(u32 index);

  std::vector<Slot> slots_;
  std::vector<std::unique_ptr<props::PropertyContainer>> props_;  // by slot, made lazily
  u32 free_head_ = kNone;
  usize live_ = 0;
  u32 salt_ = 1;

  std::vector<std::unique_ptr<StoreBase>> stores_;  // by component_type_index
  std::vector<std::unique_ptr<Group>> groups_;
  std::vector<StoreBase*> tracked_;

  std::vector<std::unique_ptr<detail::ChannelBase>> channels_;  // by event_type_index
  std::vector<QueuedEvent> event_order_;
  std::vector<PendingEnd> pending_ends_;
  std::vector<Entity> pending_kills_;
  ListenerList<World&, Entity> kill_listeners_;
  u64 last_listener_id_ = 0;
  bool flushing_ = false;
};

}  // namespace keel::world
