// A cheap run-time type identity for the values a PropertyContainer holds.
//
// `type_id<T>()` is the address of a per-type constant, so comparing two TypeIds is one pointer
// compare (no RTTI, no string compare). The constant also carries a readable name for messages:
// Keel's fixed-size names for the built-in value types ("s32", "f32", "string", ...) and the
// compiler's spelling of the type otherwise. Ids are unique within one program image (the usual
// caveat of address-based ids applies across shared libraries built without vague linkage).
#pragma once

#include "keel/core/hash.h"
#include "keel/core/types.h"

#include <string>
#include <string_view>
#include <type_traits>

namespace keel::props {

namespace detail {

template <typename T>
constexpr std::string_view compiler_type_name() {
#if defined(__clang__) || defined(__GNUC__)
  // GCC: "... [with T = int; std::string_view = ...]"; clang: "... [T = int]".
  constexpr std::string_view text = __PRETTY_FUNCTION__;
  constexpr usize start = text.find("T = ") + 4;
  constexpr usize end = text.find_first_of(";]", start);
  return text.substr(start, end - start);
#else
  return "unknown type";
#endif
}

template <typename T>
constexpr std::string_view type_display_name() {
  if constexpr (std::is_same_v<T, bool>)
    return "bool";
  else if constexpr (std::is_same_v<T, s8>)
    return "s8";
  else if constexpr (std::is_same_v<T, s16>)
    return "s16";
  else if constexpr (std::is_same_v<T, s32>)
    return "s32";
  else if constexpr (std::is_same_v<T, s64>)
    return "s64";
  else if constexpr (std::is_same_v<T, u8>)
    return "u8";
  else if constexpr (std::is_same_v<T, u16>)
    return "u16";
  else if constexpr (std::is_same_v<T, u32>)
    return "u32";
  else if constexpr (std::is_same_v<T, u64>)
    return "u64";
  else if constexpr (std::is_same_v<T, f32>)
    return "f32";
  else if constexpr (std::is_same_v<T, f64>)
    return "f64";
  else if constexpr (std::is_same_v<T, std::string>)
    return "string";
  else if constexpr (std::is_same_v<T, StringId>)
    return "StringId";
  else
    return compiler_type_name<T>();
}

struct TypeInfo {
  std::string_view name;
};

template <typename T>
inline constexpr TypeInfo kTypeInfo{type_display_name<T>()};

}  // namespace detail

class TypeId;
template <typename T>
constexpr TypeId type_id();

class TypeId {
 public:
  constexpr TypeId() = default;
  constexpr std::string_view name() const { return info_ ? info_->name : "none"; }
  constexpr bool valid() const { return info_ != nullptr; }
  friend constexpr bool operator==(TypeId a, TypeId b) { return a.info_ == b.info_; }

 private:
  template <typename T>
  friend constexpr TypeId type_id();
  constexpr explicit TypeId(const detail::TypeInfo* info) : info_(info) {}
  const detail::TypeInfo* info_ = nullptr;
};

// The id of T with const, volatile and references removed.
template <typename T>
constexpr TypeId type_id() {
  return TypeId(&detail::kTypeInfo<std::remove_cvref_t<T>>);
}

}  // namespace keel::props
