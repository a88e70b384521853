#include "keel/props/container.h"

#include "keel/core/assert.h"

#include <algorithm>

namespace keel::props {

namespace {

// Keeps the notification counters right even if a listener throws.
class NotifyScope {
 public:
  NotifyScope(u32& depth, u32& slot_depth) : depth_(depth), slot_depth_(slot_depth) {
    ++depth_;
    ++slot_depth_;
  }
  ~NotifyScope() {
    --slot_depth_;
    --depth_;
  }
  NotifyScope(const NotifyScope&) = delete;
  NotifyScope& operator=(const NotifyScope&) = delete;

 private:
  u32& depth_;
  u32& slot_depth_;
};

}  // namespace

PropertyContainer::~PropertyContainer() {
  KEEL_ASSERT(notify_depth_ == 0, "property container destroyed from inside its own listener");
}

PropertyContainer::PropertyContainer(PropertyContainer&& other) noexcept
    : registry_(other.registry_),
      slots_(std::move(other.slots_)),
      index_(std::move(other.index_)),
      next_listener_id_(other.next_listener_id_) {
  KEEL_ASSERT(other.notify_depth_ == 0, "property container moved from inside its own listener");
  other.slots_.clear();
  other.index_.reset();
}

PropertyContainer& PropertyContainer::operator=(PropertyContainer&& other) noexcept {
  KEEL_ASSERT(notify_depth_ == 0 && other.notify_depth_ == 0,
              "property container moved from inside its own listener");
  if (this != &other) {
    registry_ = other.registry_;
    slots_ = std::move(other.slots_);
    index_ = std::move(other.index_);
    next_listener_id_ = std::max(next_listener_id_, other.next_listener_id_);
    other.slots_.clear();
    other.index_.reset();
  }
  return *this;
}

PropertyContainer PropertyContainer::copy_values() const {
  PropertyContainer copy(*registry_);
  for (const auto& slot : slots_) {
    std::unique_ptr<detail::SlotBase> clone = slot->clone_value();
    clone->copy_key_from(*slot);
    copy.index_.insert(clone->id().value, clone.get());
    copy.slots_.push_back(std::move(clone));
  }
  return copy;
}

bool PropertyContainer::has(Key key) const {
  const detail::SlotBase* slot = index_.get(key.id().value);
  return slot != nullptr && slot->named(key);
}

Result<TypeId> PropertyContainer::type_of(Key key) const {
  auto found = lookup(key);
  if (!found) return Unexpected(std::move(found.error()));
  if (*found == nullptr) return Unexpected(access_error(key, nullptr, TypeId(), "query"));
  return (*found)->type();
}

bool PropertyContainer::remove(Key key) {
  detail::SlotBase* slot = index_.get(key.id().value);
  if (slot == nullptr || !slot->named(key)) return false;
  index_.erase(key.id().value);
  auto it = std::find_if(slots_.begin(), slots_.end(),
                         [slot](const auto& owned) { return owned.get() == slot; });
  KEEL_ASSERT(it != slots_.end());
  std::unique_ptr<detail::SlotBase> owned = std::move(*it);
  slots_.erase(it);
  retire(std::move(owned));
  return true;
}

void PropertyContainer::clear() {
  index_.clear();
  SlotList old = std::move(slots_);
  slots_.clear();
  for (auto& slot : old) retire(std::move(slot));
}

void PropertyContainer::retire(std::unique_ptr<detail::SlotBase> slot) {
  slot->removed = true;
  // A listener of this container is running: it (or an outer one) may be this slot's own
  // listener, so the slot and its entries must outlive the notification.
  if (notify_depth_ > 0) graveyard_.push_back(std::move(slot));
}

Status PropertyContainer::unlisten(Key key, ListenerId id) {
  auto found = lookup(key);
  if (!found) return Unexpected(std::move(found.error()));
  detail::SlotBase* slot = *found;
  if (slot == nullptr) return Unexpected(access_error(key, nullptr, TypeId(), "unlisten from"));
  for (auto it = slot->listeners.begin(); it != slot->listeners.end(); ++it) {
    detail::ListenerEntry& entry = **it;
    if (entry.id != id || entry.dead) continue;
    if (slot->notifying > 0) {
      entry.dead = true;  // possibly the running callback: erase after the notification
      ++slot->dead_listeners;
    } else {
      slot->listeners.erase(it);
    }
    return ok();
  }
  return fail(ErrorCode::kNotFound, "property '{}' has no listener {}", slot->name(), id);
}

usize PropertyContainer::listener_count(Key key) const {
  const detail::SlotBase* slot = index_.get(key.id().value);
  if (slot == nullptr || !slot->named(key)) return 0;
  return slot->listeners.size();
}

void PropertyContainer::adopt(Key key, std::unique_ptr<detail::SlotBase> slot) {
  slot->set_key(key);
  index_.insert(key.id().value, slot.get());
  slots_.push_back(std::move(slot));
}

ListenerId PropertyContainer::attach(detail::SlotBase& slot,
                                     std::unique_ptr<detail::ListenerEntry> entry) {
  // Housekeeping: drop entries whose owner died since the last write.
  if (slot.notifying == 0) {
    for (auto& e : slot.listeners) {
      if (!e->dead && e->has_owner && e->owner.expired()) {
        e->dead = true;
        ++slot.dead_listeners;
      }
    }
    if (slot.dead_listeners > 0) sweep(slot);
  }
  entry->id = ++next_listener_id_;
  const ListenerId id = entry->id;
  slot.listeners.push_back(std::move(entry));
  return id;
}

void PropertyContainer::notify(detail::SlotBase& slot, const void* old_value,
                               const void* new_value) {
  {
    NotifyScope scope(notify_depth_, slot.notifying);
    // Listeners added by a callback are first called on the next write.
    const usize count = slot.listeners.size();
    for (usize i = 0; i < count && !slot.removed; ++i) {
      // Entries are heap objects: the vector may grow during a callback, the entry does not move.
      detail::ListenerEntry& entry = *slot.listeners[i];
      if (entry.dead) continue;
      std::shared_ptr<const void> pin;
      if (entry.has_owner) {
        pin = entry.owner.lock();  // keeps the owner alive during its callback
        if (pin == nullptr) {
          entry.dead = true;
          ++slot.dead_listeners;
          continue;
        }
      }
      entry.call(old_value, new_value);
    }
  }
  if (slot.notifying == 0 && slot.dead_listeners > 0) sweep(slot);
  if (notify_depth_ == 0) graveyard_.clear();
}

void PropertyContainer::sweep(detail::SlotBase& slot) {
  KEEL_ASSERT(slot.notifying == 0);
  std::erase_if(slot.listeners, [](const auto& entry) { return entry->dead; });
  slot.dead_listeners = 0;
}

void PropertyContainer::write_from(detail::SlotBase& target, const detail::SlotBase& source) {
  KEEL_ASSERT(target.type() == source.type());
  if (target.listeners.empty()) {
    target.copy_value_from(source);
    return;
  }
  std::unique_ptr<detail::SlotBase> old = target.clone_value();
  target.copy_value_from(source);
  notify(target, old->value_ptr(), source.value_ptr());
}

Error PropertyContainer::collision_error(const detail::SlotBase& slot,
                                         std::string_view other_name) {
  return Error(ErrorCode::kAlreadyExists,
               fmt::format("property name '{}' collides with property '{}' (both have id {:#010x})",
                           other_name, slot.name(), slot.id().value));
}

Error PropertyContainer::mismatch_error(const detail::SlotBase& slot, TypeId wanted,
                                        std::string_view op) {
  return Error(ErrorCode::kTypeMismatch,
               fmt::format("cannot {} property '{}' as {}: it holds {}", op, slot.name(),
                           wanted.name(), slot.type().name()));
}

Error PropertyContainer::access_error(Key key, const detail::SlotBase* slot, TypeId wanted,
                                      std::string_view op) {
  if (slot == nullptr) {
    return Error(ErrorCode::kNotFound,
                 fmt::format("cannot {} property '{}': it does not exist", op, key.name()));
  }
  if (!slot->named(key)) return collision_error(*slot, key.name());
  return mismatch_error(*slot, wanted, op);
}

}  // namespace keel::props
