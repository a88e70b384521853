#include "keel/world/world.h"

#include "keel/core/hash.h"
#include "keel/props/container.h"
#include "keel/world/transform.h"

#include <algorithm>
#include <atomic>

namespace keel::world {

namespace detail {
u32 next_component_type_index() {
  static std::atomic<u32> next{0};
  return next.fetch_add(1, std::memory_order_relaxed);
}
u32 next_event_type_index() {
  static std::atomic<u32> next{0};
  return next.fetch_add(1, std::memory_order_relaxed);
}
}  // namespace detail

// --- groups -------------------------------------------------------------------------------------

void Group::join(u32 entity_index) {
  if (stores.front()->dense_index(entity_index) < size) return;  // already in
  for (StoreBase* s : stores) {
    const u32 d = s->dense_index(entity_index);
    if (d != size) s->swap_dense(d, size);  // a new entity that completes the group: none
  }
  ++size;
}

void Group::on_removing(u32 entity_index) {
  const bool member = owned[entity_index] == stores.size();
  --owned[entity_index];
  if (!member) return;
  --size;
  for (StoreBase* s : stores) {
    const u32 di = s->dense_index(entity_index);
    if (di != size) s->swap_dense(di, size);
  }
}

// --- entities -----------------------------------------------------------------------------------

World::World() : salt_(keel::detail::next_slot_map_salt()) { track_state<Transform>(); }

World::~World() = default;

Entity World::create() {
  u32 index;
  if (free_head_ != kNone) {
    index = free_head_;
    free_head_ = slots_[index].next_free;
  } else {
    KEEL_ASSERT(slots_.size() < kNone, "World: more than 2^32 - 1 entity slots");
    index = static_cast<u32>(slots_.size());
    slots_.push_back(Slot{.generation = salt_});
  }
  Slot& slot = slots_[index];
  slot.generation += kStep;  // odd counter: live
  slot.next_free = kNone;
  slot.dying = false;
  ++live_;
  return Entity{index, slot.generation};
}

bool World::dying(Entity e) const { return alive(e) && slots_[e.index].dying; }

HandleStatus World::status(Entity e) const {
  if (e.is_null()) return HandleStatus::kNull;
  if ((e.generation & 0xFFu) != salt_ || e.index >= slots_.size() ||
      (e.generation & kLiveBit) == 0) {
    return HandleStatus::kForeign;
  }
  return alive(e) ? HandleStatus::kAlive : HandleStatus::kStale;
}

bool World::kill(Entity e) {
  if (!alive(e)) return false;
  Slot& slot = slots_[e.index];
  if (!slot.dying) {
    slot.dying = true;
    pending_kills_.push_back(e);
  }
  return true;
}

void World::reserve(usize count) {
  slots_.reserve(count);
  pending_kills_.reserve(count);
}

props::PropertyContainer* World::props(Entity e) {
  if (!alive(e)) return nullptr;
  if (e.index >= props_.size()) props_.resize(slots_.size());
  auto& p = props_[e.index];
  if (!p) p = std::make_unique<props::PropertyContainer>();
  return p.get();
}

const props::PropertyContainer* World::find_props(Entity e) const {
  if (!alive(e) || e.index >= props_.size()) return nullptr;
  return props_[e.index].get();
}

void World::free_slot(u32 index) {
  Slot& slot = slots_[index];
  slot.generation += kStep;  // even counter: free; every id of it is dead
  slot.dying = false;
  slot.next_free = free_head_;
  free_head_ = index;
  --live_;
}

void World::destroy_entity(Entity e) {
  if (!alive(e)) return;
  for (const auto& s : stores_) {
    if (s) s->erase(e);
  }
  if (e.index < props_.size()) props_[e.index].reset();
  free_slot(e.index);
}

// Ends the killed entities (flush step 4, after the removed and done components). A few kills
// are cheapest one by one (swap-remove in each store, a group swaps its member out first); when
// they are many (a quarter of the live entities or more), every store is compacted in a single
// pass over its dense arrays instead — no per-entity search of the stores, no group swaps.
void World::destroy_killed() {
  if (pending_kills_.empty()) return;
  if (pending_kills_.size() * 4 < live_) {
    for (const Entity e : pending_kills_) destroy_entity(e);
    return;
  }
  for (const auto& g : groups_) g->next_size = g->size;
  for (const auto& s : stores_) {
    if (!s || s->empty()) continue;
    Group* g = s->group_;
    const u32 kept = s->erase_dying(slots_, g != nullptr ? g->size : 0);
    if (g != nullptr) g->next_size = kept;  // the same in every owned store
  }
  for (const auto& g : groups_) g->size = g->next_size;
  for (const Entity e : pending_kills_) {
    if (e.index < props_.size()) props_[e.index].reset();
    free_slot(e.index);
  }
}

// --- components and groups ----------------------------------------------------------------------

bool World::end_component(StoreBase* store, Entity e, bool done) {
  if (store == nullptr || !store->contains(e)) return false;
  pending_ends_.push_back({e, store->type_index(), done});
  return true;
}

bool World::make_group(std::span<StoreBase* const> stores) {
  Group* existing = stores.front()->group_;
  if (existing != nullptr && existing->stores.size() == stores.size() &&
      std::ranges::all_of(stores, [&](const StoreBase* s) { return s->group_ == existing; })) {
    return true;
  }
  const bool free = std::ranges::all_of(stores, [](const StoreBase* s) { return !s->group_; });
  KEEL_ASSERT(free, "World::group: a component type already belongs to another group");
  if (!free) return false;
  auto group = std::make_unique<Group>();
  group->stores.assign(stores.begin(), stores.end());
  const StoreBase* driver = stores.front();
  for (StoreBase* s : stores) {
    s->group_ = group.get();
    if (s->size() < driver->size()) driver = s;
    for (const Entity e : s->entities_) {
      if (e.index >= group->owned.size()) group->owned.resize(e.index + 1, 0);
      ++group->owned[e.index];
    }
  }
  // Walking the driver while swapping is safe: an entity joins at `size`, which is never past
  // the position being visited, and what it displaces was visited already.
  for (u32 i = 0; i < driver->size(); ++i) {
    const u32 index = driver->entities_[i].index;
    if (group->owned[index] == stores.size()) group->join(index);
  }
  groups_.push_back(std::move(group));
  return true;
}

// --- events and the flush -----------------------------------------------------------------------

ListenerId World::on_kill(std::function<void(World&, Entity)> fn) {
  const ListenerId id = next_listener_id();
  kill_listeners_.add(id, std::move(fn));
  return id;
}

bool World::unsubscribe(ListenerId id) {
  if (!id) return false;
  if (kill_listeners_.remove(id)) return true;
  for (const auto& c : channels_) {
    if (c && c->unsubscribe(id)) return true;
  }
  for (const auto& s : stores_) {
    if (s && s->unsubscribe(id)) return true;
  }
  return false;
}

bool World::deliver_events() {
  if (event_order_.empty()) return false;
  // Listeners may emit: the queue grows while it is walked (by index, never by reference).
  for (usize i = 0; i < event_order_.size(); ++i) {
    const QueuedEvent q = event_order_[i];
    channels_[q.type]->deliver(*this, q.index);
  }
  event_order_.clear();
  for (const auto& c : channels_) {
    if (c) c->clear();
  }
  return true;
}

void World::flush() {
  KEEL_ASSERT(!flushing_, "World::flush: called from inside a flush (a listener)");
  if (flushing_) return;
  flushing_ = true;
  usize done_cursor = 0;
  usize kill_cursor = 0;
  for (bool work = true; work;) {
    work = deliver_events();
    for (; done_cursor < pending_ends_.size(); ++done_cursor) {
      const PendingEnd p = pending_ends_[done_cursor];
      if (p.done) stores_[p.type]->notify_done(*this, p.entity);
      work = true;
    }
    for (; kill_cursor < pending_kills_.size(); ++kill_cursor) {
      const Entity e = pending_kills_[kill_cursor];  // listeners may kill: the vector grows
      kill_listeners_.call(*this, e);
      work = true;
    }
  }
  for (const PendingEnd& p : pending_ends_) stores_[p.type]->erase(p.entity);
  destroy_killed();
  pending_ends_.clear();
  pending_kills_.clear();
  kill_listeners_.compact();
  for (const auto& s : stores_) {
    if (s) s->compact_listeners();
  }
  flushing_ = false;
}

void World::clear() {
  KEEL_ASSERT(!flushing_, "World::clear: called from inside a flush (a listener)");
  for (const auto& s : stores_) {
    if (s) s->clear();
  }
  for (u32 i = 0; i < slots_.size(); ++i) {
    if ((slots_[i].generation & kLiveBit) != 0) free_slot(i);
  }
  props_.clear();
  pending_ends_.clear();
  pending_kills_.clear();
  event_order_.clear();
  for (const auto& c : channels_) {
    if (c) c->clear();
  }
}

// --- state --------------------------------------------------------------------------------------

void World::track_store(StoreBase& store) {
  if (std::ranges::find(tracked_, &store) == tracked_.end()) tracked_.push_back(&store);
}

u64 World::state_hash() const {
  u64 h = hash64(&live_, sizeof(live_), 0x6b65656c776f726cull);
  for (u32 i = 0; i < slots_.size(); ++i) {
    if ((slots_[i].generation & kLiveBit) == 0) continue;
    const std::array<u32, 2> id{i, slots_[i].generation >> 8};  // not the world's own salt
    h = hash64(id.data(), sizeof(id), h);
  }
  for (const StoreBase* s : tracked_) {
    const u64 type_size = s->component_size();
    h = hash64(&type_size, sizeof(type_size), h);
    for (u32 i = 0; i < slots_.size(); ++i) {
      const u32 d = s->dense_index(i);
      if (d == StoreBase::kNone) continue;
      const std::span<const std::byte> bytes = s->bytes_of(d);
      h = hash64(&i, sizeof(i), h);
      h = hash64(bytes.data(), bytes.size(), h);
    }
  }
  return h;
}

}  // namespace keel::world
