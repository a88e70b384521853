// PropertyContainer: named values of any copyable type, with typed access and change listeners.
//
//   using namespace keel::props::literals;
//   keel::props::PropertyContainer props;
//   props.req<int>("health", 100);                 // declare: creates only if missing
//   auto hp = props.get<int>("health");            // Result<int>: kNotFound / kTypeMismatch
//   auto sub = props.subscribe<int>("health", [](const int& old_hp, const int& new_hp) {...});
//   props.set<int>("health", 90);                  // listeners get (100, 90) after the write
//
// Keys are compile-time string ids that keep their names (key.h). Values live in typed slots, so
// get/set never allocate and a type check is one pointer compare (type_id.h). A property's type
// is fixed when it is created: `set` or `req` with another type is a kTypeMismatch error, never a
// silent re-typing. Errors are values; misuse that cannot be a data error (destroying or moving a
// container from inside one of its own listeners) is a KEEL_ASSERT.
//
// Listeners: any number per property, called in the order they were added, after the write, with
// (old value, new value). A listener may be held by an owner (a weak_ptr, or the Subscription
// token `subscribe` returns): once the owner is gone the listener is skipped and removed. Inside a
// listener it is safe to set, req, remove or clear properties and to add or remove listeners,
// including the one running: removed entries stay alive until the notification ends, listeners
// added during a notification are first called on the next write, and when the property itself is
// removed the remaining listeners of that write are not called.
//
// Iteration visits properties in creation order; do not create or remove properties while
// iterating. A container is movable (not from inside its own listeners) and not copyable;
// `copy_values()` makes a listener-free copy. Not thread-safe: one thread at a time.
#pragma once

#include "keel/core/error.h"
#include "keel/core/hash.h"
#include "keel/core/prehashed_map.h"
#include "keel/core/types.h"
#include "keel/props/key.h"
#include "keel/props/slot.h"
#include "keel/props/type_id.h"
#include "keel/props/type_registry.h"

#include <concepts>
#include <cstddef>
#include <iterator>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace keel::props {

// The type a value is stored as: the decayed type, except that C strings and string views are
// stored as std::string (a stored pointer into a caller's buffer would dangle).
template <typename T>
struct StoredType {
  using type = std::remove_cvref_t<T>;
};
template <>
struct StoredType<const char*> {
  using type = std::string;
};
template <>
struct StoredType<char*> {
  using type = std::string;
};
template <>
struct StoredType<std::string_view> {
  using type = std::string;
};
template <typename T>
using Stored = typename StoredType<std::remove_cvref_t<T>>::type;

// A value type a container can hold.
template <typename T>
concept PropertyValue = std::same_as<T, std::remove_cvref_t<T>> && std::copy_constructible<T> &&
    std::is_copy_assignable_v<T> && !std::is_array_v<T>;

template <typename F, typename T>
concept Listener = std::invocable<F&, const T&, const T&>;

// Keeps a listener registered by `subscribe` alive; destroying or resetting it unsubscribes
// (the container drops the entry at the property's next write or listener change). Move-only.
class Subscription {
 public:
  Subscription() = default;
  Subscription(Subscription&&) noexcept = default;
  Subscription& operator=(Subscription&&) noexcept = default;
  Subscription(const Subscription&) = delete;
  Subscription& operator=(const Subscription&) = delete;

  bool active() const { return token_ != nullptr; }
  ListenerId id() const { return id_; }
  void reset() { token_.reset(); }

 private:
  friend class PropertyContainer;
  Subscription(std::shared_ptr<const void> token, ListenerId id)
      : token_(std::move(token)), id_(id) {}
  std::shared_ptr<const void> token_;
  ListenerId id_ = 0;
};

// Read-only view of one property, as iteration yields it.
class PropertyView {
 public:
  std::string_view name() const { return slot_->name(); }
  StringId id() const { return slot_->id(); }
  TypeId type() const { return slot_->type(); }
  usize listener_count() const { return slot_->listeners.size(); }
  template <typename T>
  bool holds() const {
    return slot_->type() == type_id<T>();
  }
  // The value if it is a T, else nullptr.
  template <typename T>
  const T* as() const {
    if (!holds<T>()) return nullptr;
    return &static_cast<const detail::TypedSlot<T>*>(slot_)->value;
  }

 private:
  friend class PropertyContainer;
  explicit PropertyView(const detail::SlotBase* slot) : slot_(slot) {}
  const detail::SlotBase* slot_;
};

// A listener that copies each new value into `target` (the seed's copy callback).
template <typename T>
auto copy_into(T& target) {
  return [&target](const T& /*old_value*/, const T& new_value) { target = new_value; };
}

class PropertyContainer {
  using SlotList = std::vector<std::unique_ptr<detail::SlotBase>>;

 public:
  // `registry` decides which types serialize(); it must outlive the container.
  explicit PropertyContainer(const TypeRegistry& registry = TypeRegistry::builtin())
      : registry_(&registry) {}
  ~PropertyContainer();
  PropertyContainer(PropertyContainer&& other) noexcept;
  PropertyContainer& operator=(PropertyContainer&& other) noexcept;
  PropertyContainer(const PropertyContainer&) = delete;
  PropertyContainer& operator=(const PropertyContainer&) = delete;

  // A copy of every name and value (same registry), without listeners.
  PropertyContainer copy_values() const;

  // --- values -----------------------------------------------------------------------------

  // Creates the property or overwrites it, then calls its listeners with (old, new).
  // Errors: kTypeMismatch (the property holds another type), kAlreadyExists (key collision).
  template <typename T>
  Status set(Key key, T value) {
    using V = Stored<T>;
    static_assert(PropertyValue<V>, "property values must be copyable");
    auto found = lookup(key);
    if (!found) return Unexpected(std::move(found.error()));
    detail::SlotBase* slot = *found;
    if (slot == nullptr) {
      adopt(key, std::make_unique<detail::TypedSlot<V>>(V(std::move(value))));
      return {};
    }
    if (slot->type() != type_id<V>()) [[unlikely]] {
      return Unexpected(mismatch_error(*slot, type_id<V>(), "set"));
    }
    auto& typed = static_cast<detail::TypedSlot<V>&>(*slot);
    if (slot->listeners.empty()) {
      typed.value = V(std::move(value));
      return {};
    }
    V fresh(std::move(value));
    V old = std::exchange(typed.value, fresh);
    notify(*slot, &old, &fresh);
    return {};
  }

  // Declares the property: creates it with `initial` if it is missing, otherwise leaves the
  // value alone. Errors: kTypeMismatch (it exists with another type), kAlreadyExists (collision).
  template <typename T>
  Status req(Key key, T initial) {
    using V = Stored<T>;
    static_assert(PropertyValue<V>, "property values must be copyable");
    auto found = lookup(key);
    if (!found) return Unexpected(std::move(found.error()));
    detail::SlotBase* slot = *found;
    if (slot == nullptr) {
      adopt(key, std::make_unique<detail::TypedSlot<V>>(V(std::move(initial))));
      return {};
    }
    if (slot->type() != type_id<V>()) return Unexpected(mismatch_error(*slot, type_id<V>(), "req"));
    return {};
  }

  // A copy of the value. Errors: kNotFound, kTypeMismatch, kAlreadyExists (collision).
  template <typename T>
  Result<T> get(Key key) const {
    static_assert(std::same_as<T, Stored<T>>, "get<std::string>, not a pointer or view type");
    const detail::SlotBase* slot = index_.get(key.id().value);
    if (slot != nullptr && slot->type() == type_id<T>() && slot->named(key)) [[likely]] {
      return static_cast<const detail::TypedSlot<T>*>(slot)->value;
    }
    return Unexpected(access_error(key, slot, type_id<T>(), "get"));
  }

  // The stored value without a copy, or nullptr when get<T> would fail. The pointer is valid
  // until the property is removed or the container is destroyed.
  template <typename T>
  const T* find(Key key) const noexcept {
    static_assert(std::same_as<T, Stored<T>>, "find<std::string>, not a pointer or view type");
    const detail::SlotBase* slot = index_.get(key.id().value);
    if (slot != nullptr && slot->type() == type_id<T>() && slot->named(key)) [[likely]] {
      return &static_cast<const detail::TypedSlot<T>*>(slot)->value;
    }
    return nullptr;
  }

  bool has(Key key) const;
  template <typename T>
  bool holds(Key key) const {
    return find<T>(key) != nullptr;
  }
  // The type of the property. Errors: kNotFound, kAlreadyExists (collision).
  Result<TypeId> type_of(Key key) const;

  // Removes the property and its listeners. Returns false if it did not exist.
  bool remove(Key key);
  void clear();
  usize size() const { return slots_.size(); }
  bool empty() const { return slots_.empty(); }

  // --- listeners --------------------------------------------------------------------------

  // fn(const T& old, const T& new) after every write, until unlisten() or remove().
  template <typename T, typename F>
  requires Listener<F, T> Result<ListenerId> listen(Key key, F&& fn) {
    return add_listener<T>(key, {}, false, std::forward<F>(fn));
  }
  // Same, while `owner` lives; after it died the listener is skipped and removed.
  template <typename T, typename F>
  requires Listener<F, T> Result<ListenerId> listen(Key key, std::weak_ptr<const void> owner,
                                                    F&& fn) {
    return add_listener<T>(key, std::move(owner), true, std::forward<F>(fn));
  }
  // The seed's model: the callable object itself is held weakly.
  template <typename T, typename C>
  requires Listener<C, T> Result<ListenerId> listen(Key key, std::weak_ptr<C> callback) {
    std::weak_ptr<const void> owner = callback;
    return add_listener<T>(key, std::move(owner), true,
                           [cb = std::move(callback)](const T& old_value, const T& new_value) {
                             if (auto locked = cb.lock()) (*locked)(old_value, new_value);
                           });
  }
  // Same as listen(), owned by the returned token.
  template <typename T, typename F>
  requires Listener<F, T> Result<Subscription> subscribe(Key key, F&& fn) {
    auto token = std::make_shared<const char>('\0');
    auto id = add_listener<T>(key, token, true, std::forward<F>(fn));
    if (!id) return Unexpected(std::move(id.error()));
    return Subscription(std::move(token), *id);
  }

  // Removes one listener; safe from inside any listener. Errors: kNotFound.
  Status unlisten(Key key, ListenerId id);
  // Listener entries currently stored for the property (0 if it does not exist). Entries of
  // dead owners count until the next write or listener change of the property drops them.
  usize listener_count(Key key) const;

  // --- iteration --------------------------------------------------------------------------

  class const_iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = PropertyView;
    using difference_type = std::ptrdiff_t;
    using reference = PropertyView;
    using pointer = void;

    const_iterator() = default;
    PropertyView operator*() const { return PropertyView(it_->get()); }
    const_iterator& operator++() {
      ++it_;
      return *this;
    }
    const_iterator operator++(int) {
      const_iterator old = *this;
      ++it_;
      return old;
    }
    friend bool operator==(const const_iterator&, const const_iterator&) = default;

   private:
    friend class PropertyContainer;
    explicit const_iterator(SlotList::const_iterator it) : it_(it) {}
    SlotList::const_iterator it_;
  };
  const_iterator begin() const { return const_iterator(slots_.begin()); }
  const_iterator end() const { return const_iterator(slots_.end()); }

  // --- serialization ----------------------------------------------------------------------

  // One function for keel::serial's sizer, savers and loaders. Format: u8 version (1), u32 count,
  // then per property its name (string), its type tag (u32, from the registry) and its value.
  // Saving fails (kUnsupported) on a property whose type the registry does not know. Loading is
  // all-or-nothing: the whole input is read and checked first (unknown tag → kCorrupt, duplicate
  // or colliding names → kCorrupt, a type differing from an existing property → kTypeMismatch),
  // then each property is created or written as by set(), listeners included. Properties absent
  // from the data are kept.
  // The archive is one of keel::serial's: Sizer, BufferSaver, GrowingSaver, FileSaver,
  // BufferLoader, FileLoader.
  template <typename Archive>
  void serialize(Archive& ar) {
    static_assert(detail::SerialArchive<Archive>,
                  "a PropertyContainer serializes through keel::serial's archives (Sizer, "
                  "BufferSaver, GrowingSaver, FileSaver, BufferLoader, FileLoader)");
    if constexpr (Archive::kLoading) {
      load_values(ar);
    } else {
      save_values(ar);
    }
  }
  static constexpr u8 kFormatVersion = 1;

  const TypeRegistry& registry() const { return *registry_; }
  void set_registry(const TypeRegistry& registry) { registry_ = &registry; }

 private:
  Result<detail::SlotBase*> lookup(Key key) const {
    detail::SlotBase* slot = index_.get(key.id().value);
    if (slot != nullptr && !slot->named(key)) [[unlikely]] {
      return Unexpected(collision_error(*slot, key.name()));
    }
    return slot;
  }

  template <typename T, typename F>
  Result<ListenerId> add_listener(Key key, std::weak_ptr<const void> owner, bool has_owner,
                                  F&& fn) {
    static_assert(std::same_as<T, Stored<T>>, "listen<std::string>, not a pointer or view type");
    auto found = lookup(key);
    if (!found) return Unexpected(std::move(found.error()));
    detail::SlotBase* slot = *found;
    if (slot == nullptr || slot->type() != type_id<T>()) {
      return Unexpected(access_error(key, slot, type_id<T>(), "listen to"));
    }
    auto entry = std::make_unique<detail::ListenerEntry>();
    entry->owner = std::move(owner);
    entry->has_owner = has_owner;
    entry->call = [f = std::forward<F>(fn)](const void* old_value, const void* new_value) mutable {
      f(*static_cast<const T*>(old_value), *static_cast<const T*>(new_value));
    };
    return attach(*slot, std::move(entry));
  }

  void adopt(Key key, std::unique_ptr<detail::SlotBase> slot);
  ListenerId attach(detail::SlotBase& slot, std::unique_ptr<detail::ListenerEntry> entry);
  void notify(detail::SlotBase& slot, const void* old_value, const void* new_value);
  void sweep(detail::SlotBase& slot);
  void write_from(detail::SlotBase& target, const detail::SlotBase& source);
  void retire(std::unique_ptr<detail::SlotBase> slot);

  static Error collision_error(const detail::SlotBase& slot, std::string_view other_name);
  static Error mismatch_error(const detail::SlotBase& slot, TypeId wanted, std::string_view op);
  static Error access_error(Key key, const detail::SlotBase* slot, TypeId wanted,
                            std::string_view op);

  // Defined in container_serial.cpp for each keel::serial archive.
  template <typename Loader>
  void load_values(Loader& ar);
  template <typename Saver>
  void save_values(Saver& ar);

  const TypeRegistry* registry_;
  SlotList slots_;  // owners, in creation order
  // id -> slot: core's table for pre-hashed keys (a hit in the home slot is one compare).
  PrehashedMap<u32, detail::SlotBase*> index_;
  SlotList graveyard_;  // removed during a notification; freed when the outermost one ends
  u32 notify_depth_ = 0;
  ListenerId next_listener_id_ = 0;
};

}  // namespace keel::props
