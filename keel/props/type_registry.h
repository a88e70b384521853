// Which value types a PropertyContainer can serialize, and under which tag.
//
// Every serialized property carries a 32-bit type tag, the string hash of a type name
// ("s32", "string", "vec2", ...), so the data says what it holds and a loader can rebuild the
// typed value. A TypeRegistry maps tags to codecs and back. Every registry starts with the
// built-in types: bool, u8, u16, u32, u64, s8, s16, s32, s64, f32, f64, std::string
// ("string") and StringId ("string_id"). A game adds its own:
//
//   keel::props::TypeRegistry types;
//   types.add<Vec2>("vec2");              // anything keel::serial can serialize
//   keel::props::PropertyContainer props(types);
//
// `TypeRegistry::builtin()` is a shared, immutable registry of the built-ins only, the default of
// every container. A registry must outlive the containers that use it; it is not modified while
// they serialize (registration is a set-up step, not thread-safe against use).
#pragma once

#include "keel/core/error.h"
#include "keel/core/hash.h"
#include "keel/core/types.h"
#include "keel/props/archives.h"
#include "keel/props/slot.h"
#include "keel/props/type_id.h"

#include <concepts>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace keel::props {

// How one type is stored in serialized data.
struct TypeCodec {
  u32 tag = 0;                                            // string_hash(name): the wire identifier
  TypeId type;                                            // the C++ type
  std::string name;                                       // the registered name, for messages
  std::unique_ptr<detail::SlotBase> (*make)() = nullptr;  // a default-valued slot to load into
  detail::ValueIoTable io{};  // the value's io, one entry per keel::serial archive
};

// A type a registered codec can carry: default-constructible (to load into) and copyable (to live
// in a container). It must also be serializable by keel::serial (a member or free
// `serialize(Archive&)`, an Adapter, or a built-in type); keel::serial's own static_assert says so
// when it is not.
template <typename T>
concept SerializableValue = std::default_initializable<T> && std::copy_constructible<T>;

class TypeRegistry {
 public:
  TypeRegistry();  // holds the built-in types
  TypeRegistry(const TypeRegistry&) = delete;
  TypeRegistry& operator=(const TypeRegistry&) = delete;

  // The shared registry of built-in types only.
  static const TypeRegistry& builtin();

  // Registers T under `name`. Fails with kAlreadyExists if T is registered already or if the
  // name (or another name with the same hash) is taken.
  template <SerializableValue T>
  Status add(std::string_view name) {
    static_assert(std::is_same_v<T, std::remove_cvref_t<T>>, "register the plain type");
    TypeCodec codec;
    codec.tag = string_hash(name);
    codec.type = type_id<T>();
    codec.name.assign(name);
    codec.make = []() -> std::unique_ptr<detail::SlotBase> {
      return std::make_unique<detail::TypedSlot<T>>();
    };
    codec.io = detail::value_io_table<T>();
    return add_codec(std::move(codec));
  }

  const TypeCodec* find_tag(u32 tag) const;
  const TypeCodec* find_type(TypeId type) const;
  template <typename T>
  bool contains() const {
    return find_type(type_id<T>()) != nullptr;
  }
  usize size() const { return codecs_.size(); }

 private:
  Status add_codec(TypeCodec codec);
  std::vector<TypeCodec> codecs_;  // a handful of entries: linear search beats hashing
};

}  // namespace keel::props
