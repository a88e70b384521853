// Small language utilities from Golden Rules chapter 1 ("Embracing C++"), checks C1-03 ... C1-12.
//
//   auto* next = keel::inc_pointer(header, sizeof(ChunkHeader) + header->size);  // bytes, not Ts
//   constexpr usize n = keel::countof(table);          // arrays only: a pointer does not compile
//   #define MY_ERRORS(X) X(kOk) X(kNoFile) X(kBadMagic)
//   KEEL_ENUM_WITH_NAMES(MyError, u8, MY_ERRORS)       // enum class + to_string from one list
//   class Child : public Parent { KEEL_SUPER(Parent); void f() { super::f(); } };
//   keel::Flags<Kind> kinds_;  kinds_.set(Kind::kGoodGuy);  kinds_.has(Kind::kGoodGuy)
//   T* object = keel::construct_in<T>(loaded_bytes, args...);   // placement construction
//   const Language& language = keel::once([] { return detect_language(); });
//   keel::stable_sort(rows, [](const Row& a, const Row& b) { return a.key < b.key; });
#pragma once

#include "keel/core/assert.h"
#include "keel/core/bytes.h"
#include "keel/core/types.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

namespace keel {

// --- C1-03: byte-offset pointer arithmetic ------------------------------------------------------
// `ptr` advanced by `bytes` bytes (the book's IncPointer, with its precedence bug fixed: the
// offset is added to a byte pointer, then cast back). For walking chunked binary data.
template <typename T>
T* inc_pointer(T* ptr, std::ptrdiff_t bytes) {
  using Byte = std::conditional_t<std::is_const_v<T>, const std::byte, std::byte>;
  return reinterpret_cast<T*>(reinterpret_cast<Byte*>(ptr) + bytes);
}

// --- C1-04: the element count of an array, at compile time -----------------------------------
// Only arrays bind to the reference: countof(pointer) does not compile (the C macro silently
// returned sizeof(pointer) / sizeof(element)).
template <typename T, usize N>
consteval usize countof(const T (&)[N]) {
  return N;
}
template <typename T, usize N>
consteval usize countof(const std::array<T, N>&) {
  return N;
}

// --- C1-06: error-text tables with # and ## ----------------------------------------------------
// KEEL_NAME_CASE(code): `case code: return "code";` (# stringizes the whole name).
// KEEL_NAME_CASE_PREFIXED(prefix, name): `case prefixname: return "name";` (## pastes the prefix
// on, # names the rest), for codes that share a prefix such as D3DERR_.
// clang-format off
#define KEEL_NAME_CASE(code) case code: return #code;
#define KEEL_NAME_CASE_PREFIXED(prefix, name) case prefix##name: return #name;
// clang-format on

// X-macro: one list gives the enumerators and their names, so they cannot drift apart. LIST is a
// macro taking a macro: `#define MY_ERRORS(X) X(kOk) X(kNoFile)`. Defines `enum class Enum` and
// `constexpr const char* to_string(Enum)` ("unknown" for a value outside the list).
#define KEEL_DETAIL_ENUM_ENTRY(name) name,
#define KEEL_DETAIL_ENUM_NAME(name) \
  case name:                        \
    return #name;
#define KEEL_ENUM_WITH_NAMES(Enum, Underlying, LIST)             \
  enum class Enum : Underlying { LIST(KEEL_DETAIL_ENUM_ENTRY) }; \
  [[maybe_unused]] constexpr const char* to_string(Enum value) { \
    using enum Enum;                                             \
    switch (value) { LIST(KEEL_DETAIL_ENUM_NAME) }               \
    return "unknown";                                            \
  }

// --- C1-08: the parent alias ------------------------------------------------------------------
// Inside a class body: `KEEL_SUPER(Parent);` declares the protected alias `super`, so calls read
// `super::f()` and survive a class inserted between parent and child (change one line).
// `super::super::f()` reaches the grandparent (protected, so a child sees its parent's alias).
// Leaves protected access on: put it first, then an access specifier.
#define KEEL_SUPER(Parent) \
 protected:                \
  using super = Parent

// --- C1-09: flag sets for type queries without virtual calls ------------------------------------
// A set of enumerators of E (values 0..63) in one integer: base classes keep their "kind" bits
// in one and answer type queries with inline, non-virtual tests; derived constructors set them.
template <typename E>
class Flags {
  static_assert(std::is_enum_v<E>);

 public:
  constexpr Flags() = default;
  constexpr Flags(std::initializer_list<E> flags) {
    for (E f : flags) set(f);
  }
  constexpr bool has(E flag) const { return (bits_ & bit(flag)) != 0; }
  constexpr Flags& set(E flag, bool on = true) {
    bits_ = on ? (bits_ | bit(flag)) : (bits_ & ~bit(flag));
    return *this;
  }
  constexpr Flags& clear(E flag) { return set(flag, false); }
  constexpr bool any() const { return bits_ != 0; }
  constexpr u64 bits() const { return bits_; }
  friend constexpr bool operator==(Flags, Flags) = default;

 private:
  static constexpr u64 bit(E flag) {
    const auto index = static_cast<u64>(std::to_underlying(flag));
    return index < 64 ? u64{1} << index : 0;
  }
  u64 bits_ = 0;
};

// --- C1-11: placement construction in a loaded buffer -------------------------------------------
// Constructs a T (vtable and all) at the start of `buffer` without allocating: for objects
// whose memory comes from a loaded file or an arena. Null (and an assertion) when the buffer is
// too small or misaligned for T. The caller destroys it with std::destroy_at.
template <typename T, typename... Args>
T* construct_in(MutableByteSpan buffer, Args&&... args) {
  const bool fits = buffer.size() >= sizeof(T);
  const bool aligned = reinterpret_cast<std::uintptr_t>(buffer.data()) % alignof(T) == 0;
  KEEL_ASSERT(fits && aligned, "construct_in: {} bytes at {} cannot hold a T (size {}, align {})",
              buffer.size(), static_cast<const void*>(buffer.data()), sizeof(T), alignof(T));
  if (!fits || !aligned) return nullptr;
  return ::new (static_cast<void*>(buffer.data())) T(std::forward<Args>(args)...);
}

// --- C1-12: one-shot static initialisation -------------------------------------------------------
// The value of `make()` computed on the first call from this call site and kept for the program's
// life (every lambda expression has its own type, so every call site its own static); thread-safe
// (C++ initialises function statics once). The book's GetLanguage pattern without the sentinel.
template <typename Make>
const auto& once(Make make) {
  static_assert(std::is_class_v<Make>, "once(): pass a lambda (each has its own static)");
  static const auto value = make();
  return value;
}

// --- stable sorting ------------------------------------------------------------------------------
// Sorts `values` by `less`, equal elements keeping their order, without std::stable_sort: GCC 12's
// library implements it with the deprecated get_temporary_buffer, which clang 19 rejects in C++23
// -Werror builds (the fuzz preset). Positions are sorted with the position as tie-break, then the
// elements are moved into place (one extra array of indices and one of elements).
template <typename T, typename Less>
void stable_sort(std::vector<T>& values, Less less) {
  std::vector<usize> order(values.size());
  for (usize i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](usize a, usize b) {
    if (less(values[a], values[b])) return true;
    if (less(values[b], values[a])) return false;
    return a < b;
  });
  std::vector<T> sorted;
  sorted.reserve(values.size());
  for (const usize i : order) sorted.push_back(std::move(values[i]));
  values = std::move(sorted);
}

}  // namespace keel
