// Internal storage of one property: its name, its typed value and its listeners.
// Not part of the public API (PropertyContainer and PropertyView are); kept in its own header so
// the container, the type registry and the serializer share one definition.
#pragma once

#include "keel/core/hash.h"
#include "keel/core/types.h"
#include "keel/props/key.h"
#include "keel/props/type_id.h"

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace keel::props {

// Identifies one listener within a container (never reused by that container).
using ListenerId = u64;

namespace detail {

struct ListenerEntry {
  ListenerId id = 0;
  bool has_owner = false;  // an empty weak_ptr cannot tell "no owner" from "owner died"
  bool dead = false;       // unlistened or owner gone; erased once no notification runs
  std::weak_ptr<const void> owner;
  std::move_only_function<void(const void* old_value, const void* new_value)> call;
};

class SlotBase {
 public:
  explicit SlotBase(TypeId type) : type_(type) {}
  virtual ~SlotBase() = default;
  SlotBase(const SlotBase&) = delete;
  SlotBase& operator=(const SlotBase&) = delete;

  TypeId type() const { return type_; }
  StringId id() const { return id_; }
  std::string_view name() const { return name_; }

  void set_key(Key key) {
    id_ = key.id();
    if (key.has_static_name()) {
      name_ = key.name();
    } else {
      owned_name_.assign(key.name());
      name_ = owned_name_;
    }
  }
  // The same key as `other` (sharing a static name, copying an owned one).
  void copy_key_from(const SlotBase& other) {
    id_ = other.id_;
    if (other.name_.data() == other.owned_name_.data()) {
      owned_name_ = other.owned_name_;
      name_ = owned_name_;
    } else {
      name_ = other.name_;
    }
  }
  // Pointer compare first: the same literal key is the common case.
  bool named(Key key) const {
    const std::string_view other = key.name();
    return (other.data() == name_.data() && other.size() == name_.size()) || other == name_;
  }

  virtual const void* value_ptr() const = 0;
  virtual void* value_ptr() = 0;
  // A new slot holding a copy of this value (no key, no listeners).
  virtual std::unique_ptr<SlotBase> clone_value() const = 0;
  // Copies the value of `from`, which must hold the same type.
  virtual void copy_value_from(const SlotBase& from) = 0;

  std::vector<std::unique_ptr<ListenerEntry>> listeners;  // stable entries: safe re-entrancy
  u32 notifying = 0;       // notifications of this slot in progress (re-entrant writes nest)
  u32 dead_listeners = 0;  // entries marked dead, erased when notifying drops to 0
  bool removed = false;    // unlinked from its container while a notification ran

 private:
  TypeId type_;
  StringId id_;
  std::string_view name_;
  std::string owned_name_;
};

template <typename T>
class TypedSlot final : public SlotBase {
 public:
  TypedSlot() : SlotBase(type_id<T>()) {}
  explicit TypedSlot(T initial) : SlotBase(type_id<T>()), value(std::move(initial)) {}

  const void* value_ptr() const override { return &value; }
  void* value_ptr() override { return &value; }
  std::unique_ptr<SlotBase> clone_value() const override {
    return std::make_unique<TypedSlot<T>>(value);
  }
  void copy_value_from(const SlotBase& from) override {
    value = static_cast<const TypedSlot<T>&>(from).value;
  }

  T value{};
};

}  // namespace detail
}  // namespace keel::props
