// Property keys: a compile-time string id plus the name it was made from.
//
// A Key is what every PropertyContainer operation takes. Made from a string literal
// (`Key("health")`, `"health"_key`, or implicitly where a Key parameter is expected) its id is
// hashed at compile time and its name points at the literal, so a lookup costs no hashing and no
// string copy. `Key::runtime(name)` makes a key from a name only known at run time (loaded data,
// a console); the container copies such a name the first time it stores it.
//
// The id is keel's StringId (`string_hash`, the rotate-left-7 hash), so `Key("health").id() ==
// "health"_id`. The name is kept so that messages name the property and so that two different
// names that hash to the same id are detected (the container reports it on the first use of the
// second name) instead of silently sharing a value.
#pragma once

#include "keel/core/hash.h"
#include "keel/core/types.h"

#include <string_view>

namespace keel::props {

class Key {
 public:
  // From a string literal (or any constant expression): hashed at compile time.
  consteval Key(const char* name)  // NOLINT(google-explicit-constructor): literals read naturally
      : Key(std::string_view(name), true) {}
  consteval Key(std::string_view name) : Key(name, true) {}  // NOLINT(google-explicit-constructor)

  // From a name known only at run time. The name must stay valid for the duration of the call
  // the key is passed to; the container copies it when it creates a property.
  static constexpr Key runtime(std::string_view name) { return Key(name, false); }

  constexpr StringId id() const { return StringId{id_}; }
  constexpr std::string_view name() const { return std::string_view(name_, size_ & kSizeMask); }
  // True when the name points at storage that lives as long as the program (a literal).
  constexpr bool has_static_name() const { return (size_ & kStaticFlag) != 0; }

  // Same id and same name.
  friend constexpr bool operator==(const Key& a, const Key& b) {
    return a.id_ == b.id_ && a.name() == b.name();
  }

 private:
  static constexpr u32 kStaticFlag = 0x80000000u;
  static constexpr u32 kSizeMask = 0x7FFFFFFFu;

  constexpr Key(std::string_view name, bool static_name)
      : name_(name.data()),
        id_(string_hash(name)),
        size_(static_cast<u32>(name.size() & kSizeMask) | (static_name ? kStaticFlag : 0u)) {}

  // 16 bytes, so a Key travels in two registers.
  const char* name_;
  u32 id_;
  u32 size_;  // name length (names are identifiers, far below 2 GiB), plus kStaticFlag
};
static_assert(sizeof(Key) == 16);

inline namespace literals {
consteval Key operator""_key(const char* text, usize size) {
  return Key(std::string_view(text, size));
}
}  // namespace literals

}  // namespace keel::props
