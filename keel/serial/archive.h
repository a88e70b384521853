// The one-function serialization core: how `ar.io(value)` turns any supported value into calls
// on an archive's few primitives, and the sticky error state every archive shares.
//
// A type describes its layout once and the same code sizes, saves and loads it:
//
//   struct Ship {
//     std::string name;
//     u32 hull = 100;
//     std::vector<Vec3> waypoints;
//     template <class Archive>
//     void serialize(Archive& ar) { ar(name, hull, waypoints); }
//   };
//
// Supported out of the box: bool (one byte, 0 or 1), u8...u64, s8...s64, char, f32, f64 (IEEE
// bits), enums (their underlying type), StringId (its u32 hash), std::string (u32 length + bytes),
// std::vector<T> (u32 count + elements), std::array<T, N> and T[N] (N elements, no count),
// std::optional<T> (a 0/1 byte, then the value), std::pair, std::tuple, and nested objects. A user
// type opts in with
//   - a member   template <class Archive> void serialize(Archive& ar);
//   - a free     template <class Archive> void serialize(Archive& ar, T& value);  (found by ADL)
//   - or, for a type in a namespace you do not own, a specialisation of keel::serial::Adapter<T>
//     with `template <class Archive> static void serialize(Archive& ar, T& value);`.
//
// Archives (sizer.h, buffer_saver.h, buffer_loader.h, file_saver.h, file_loader.h) derive from
// ArchiveBase<Self>. Dispatch is static: every call resolves at compile time, and vectors and
// arrays of scalars are converted in bulk.
//
// Errors are sticky: the first one (overflow, underflow, corrupt or out-of-range data, or the
// user's own `ar.fail(...)`) is recorded with its byte offset and the archive then does nothing
// more. Loaders validate every length field against the bytes remaining and the LoadLimits
// before allocating, so garbage input yields an error, never a crash or a huge allocation.
#pragma once

#include "keel/core/assert.h"
#include "keel/core/bytes.h"
#include "keel/core/error.h"
#include "keel/core/hash.h"
#include "keel/core/types.h"
#include "keel/serial/wire.h"

#include <algorithm>
#include <array>
#include <limits>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace keel::serial {

// Bounds a loader applies to length fields before it allocates anything.
struct LoadLimits {
  u32 max_string_bytes = u32{1} << 28;  // longest accepted string (256 MiB)
  u32 max_elements = u32{1} << 28;      // most elements accepted in one vector
};

// Specialise for types whose namespace you cannot add a free serialize() to:
//   template <> struct keel::serial::Adapter<glm::vec3> {
//     template <class Archive> static void serialize(Archive& ar, glm::vec3& v) { ar(v.x, v.y,
//     v.z); }
//   };
template <class T>
struct Adapter {
  static constexpr bool kPrimary = true;  // marks "no adapter"
};

namespace detail {

template <class T>
inline constexpr bool kAlwaysFalse = false;

template <class T>
struct IsVector : std::false_type {};
template <class T, class A>
struct IsVector<std::vector<T, A>> : std::true_type {};
template <class T>
struct IsStdArray : std::false_type {};
template <class T, usize N>
struct IsStdArray<std::array<T, N>> : std::true_type {};
template <class T>
struct IsOptional : std::false_type {};
template <class T>
struct IsOptional<std::optional<T>> : std::true_type {};
template <class T>
struct IsPair : std::false_type {};
template <class A, class B>
struct IsPair<std::pair<A, B>> : std::true_type {};
template <class T>
struct IsTuple : std::false_type {};
template <class... Ts>
struct IsTuple<std::tuple<Ts...>> : std::true_type {};

// Ordinary lookup of `serialize` from here finds only this deleted overload, so the call below
// sees the user's overloads through ADL alone.
void serialize() = delete;

template <class T, class Ar>
concept HasAdapter = requires(Ar& ar, T& value) {
  Adapter<T>::serialize(ar, value);
};
template <class T, class Ar>
concept HasMemberSerialize = requires(Ar& ar, T& value) {
  value.serialize(ar);
};
template <class T, class Ar>
concept HasFreeSerialize = requires(Ar& ar, T& value) {
  serialize(ar, value);
};

template <class Ar, class T>
void call_free_serialize(Ar& ar, T& value) {
  serialize(ar, value);
}

// The fewest bytes one value of T can take on the wire; loaders check element counts against
// it before allocating. A user type counts as one byte (savers assert that vector elements
// write at least one).
template <class T>
constexpr u64 min_wire_size() {
  if constexpr (std::is_same_v<T, bool>) {
    return 1;
  } else if constexpr (WireScalar<T>) {
    return sizeof(T);
  } else if constexpr (std::is_same_v<T, std::string> || IsVector<T>::value) {
    return 4;
  } else if constexpr (IsOptional<T>::value) {
    return 1;
  } else if constexpr (IsStdArray<T>::value) {
    return std::tuple_size_v<T> * min_wire_size<typename T::value_type>();
  } else if constexpr (std::is_array_v<T>) {
    return std::extent_v<T> * min_wire_size<std::remove_extent_t<T>>();
  } else if constexpr (IsPair<T>::value) {
    return min_wire_size<typename T::first_type>() + min_wire_size<typename T::second_type>();
  } else if constexpr (IsTuple<T>::value) {
    return []<usize... I>(std::index_sequence<I...>) {
      return (u64{0} + ... + min_wire_size<std::tuple_element_t<I, T>>());
    }
    (std::make_index_sequence<std::tuple_size_v<T>>{});
  } else {
    return 1;
  }
}

}  // namespace detail

// The error state shared by all archives (not a template, so its cold paths are compiled once).
class ArchiveState {
 public:
  bool ok() const { return !error_.has_value(); }
  // The first error, with its code, message and byte offset; success while ok().
  Status status() const;
  // Name used in error locations (a file path, or whatever the creator passed).
  const std::string& name() const { return name_; }

 protected:
  ArchiveState() = default;
  explicit ArchiveState(std::string name) : name_(std::move(name)) {}
  ArchiveState(const ArchiveState&) = delete;
  ArchiveState& operator=(const ArchiveState&) = delete;
  ~ArchiveState() = default;

  // Records the first error only; later ones are dropped.
  void record(ErrorCode code, std::string message, u64 offset);
  // For archives that can be rewound and reused.
  void clear_error() { error_.reset(); }
  // A length field that fails validation (the offset is the field's own).
  [[gnu::cold]] void length_error(const char* what, u64 count, u64 limit, u64 remaining,
                                  u64 min_wire, u64 offset);
  [[gnu::cold]] void flag_error(const char* what, u8 byte, u64 offset);
  [[gnu::cold]] void too_long_error(const char* what, u64 count, u64 offset);

 private:
  std::optional<Error> error_;
  std::string name_;
};

// CRTP base: the dispatch from value types to an archive's primitives.
//
// A saving archive (Sizer, BufferSaver, FileSaver) provides
//   template <WireScalar T> void put(T value);
//   void put_bytes(const std::byte* data, usize size);
//   template <WireScalar T> void put_array(const T* data, usize count);
// a loading archive (BufferLoader, FileLoader) provides
//   template <WireScalar T> bool get(T& value);           // false: failed, value unchanged
//   bool get_bytes(std::byte* data, usize size);
//   template <WireScalar T> bool get_array(T* data, usize count);
//   u64 remaining() const;  const LoadLimits& limits() const;
// and both provide `u64 offset() const` (bytes consumed so far) and `void halt()` (stop all
// further I/O after an error), plus `put_block(const Ts&...)` / `get_block(Ts&...)` for a run of
// scalars, which must behave exactly like put/get on each in turn (usually: one bounds check for
// the whole run when it fits, else one by one). The primitives are public for archives built on
// top of these.
template <class Derived>
class ArchiveBase : public ArchiveState {
 public:
  using ArchiveState::ArchiveState;

  // ar(a, b, c) == ar.io(a); ar.io(b); ar.io(c); with one difference in speed only: a run of
  // two or more adjacent scalars (integers, enums, floats) is bounds-checked once as a block.
  template <class... Ts>
  void operator()(Ts&... values) {
    if constexpr (sizeof...(Ts) == 1) {
      (io(values), ...);
    } else {
      std::tuple<Ts&...> refs(values...);
      io_pack<0>(refs);
    }
  }

  // Sizes, saves or loads one value (see the file comment for the supported types). Savers and
  // the sizer accept const values; loaders write into `value`.
  template <class T>
  void io(T& value) {
    if constexpr (std::is_const_v<T>) {
      static_assert(!Derived::kLoading, "a loader cannot load into a const value");
      io(const_cast<std::remove_const_t<T>&>(value));
    } else if constexpr (std::is_same_v<T, bool>) {
      io_bool(value);
    } else if constexpr (WireScalar<T>) {
      if constexpr (Derived::kLoading) {
        self().get(value);
      } else {
        self().put(value);
      }
    } else if constexpr (std::is_same_v<T, std::string>) {
      io_string(value);
    } else if constexpr (std::is_same_v<T, StringId>) {
      self().io(value.value);
    } else if constexpr (detail::IsVector<T>::value) {
      io_vector(value);
    } else if constexpr (detail::IsStdArray<T>::value) {
      io_range(value.data(), value.size());
    } else if constexpr (std::is_array_v<T>) {
      io_range(&value[0], std::extent_v<T>);
    } else if constexpr (detail::IsOptional<T>::value) {
      io_optional(value);
    } else if constexpr (detail::IsPair<T>::value) {
      io(value.first);
      io(value.second);
    } else if constexpr (detail::IsTuple<T>::value) {
      std::apply([&](auto&... element) { (io(element), ...); }, value);
    } else if constexpr (detail::HasAdapter<T, Derived>) {
      Adapter<T>::serialize(self(), value);
    } else if constexpr (detail::HasMemberSerialize<T, Derived>) {
      value.serialize(self());
    } else if constexpr (detail::HasFreeSerialize<T, Derived>) {
      detail::call_free_serialize(self(), value);
    } else {
      static_assert(detail::kAlwaysFalse<T>,
                    "keel::serial: no way to serialize this type; give it a member "
                    "serialize(Archive&), a free serialize(Archive&, T&) found by ADL, or a "
                    "keel::serial::Adapter<T> specialisation");
    }
  }

  // Flags the user's own error (e.g. an enum value out of range) at the current offset. The
  // archive stops; status() reports it unless an earlier error was recorded.
  void fail(ErrorCode code, std::string message) {
    if (!ok()) return;
    record(code, std::move(message), self().offset());
    self().halt();
  }
  // Same, located at an earlier byte offset (e.g. the start of a bad header).
  void fail_at(u64 offset, ErrorCode code, std::string message) {
    if (!ok()) return;
    record(code, std::move(message), offset);
    self().halt();
  }

 private:
  static constexpr u64 kMaxLength = std::numeric_limits<u32>::max();

  Derived& self() { return static_cast<Derived&>(*this); }

  // Length of the run of scalars starting at element I of a tuple of references.
  template <usize I, class Tuple>
  static constexpr usize scalar_run() {
    if constexpr (I < std::tuple_size_v<Tuple>) {
      using T = std::remove_const_t<std::remove_reference_t<std::tuple_element_t<I, Tuple>>>;
      if constexpr (WireScalar<T>) return 1 + scalar_run<I + 1, Tuple>();
    }
    return 0;
  }

  template <usize I, class Tuple>
  void io_pack(Tuple& refs) {
    if constexpr (I < std::tuple_size_v<Tuple>) {
      constexpr usize run = scalar_run<I, Tuple>();
      if constexpr (run >= 2) {
        io_block<I>(refs, std::make_index_sequence<run>{});
        io_pack<I + run>(refs);
      } else {
        io(std::get<I>(refs));
        io_pack<I + 1>(refs);
      }
    }
  }

  template <usize I, class Tuple, usize... K>
  void io_block(Tuple& refs, std::index_sequence<K...>) {
    if constexpr (Derived::kLoading) {
      self().get_block(std::get<I + K>(refs)...);
    } else {
      self().put_block(std::get<I + K>(refs)...);
    }
  }

  void io_bool(bool& value) {
    if constexpr (Derived::kLoading) {
      u8 byte = 0;
      if (!self().get(byte)) return;
      if (byte > 1) [[unlikely]] {
        flag_error("bool", byte, self().offset() - 1);
        self().halt();
        return;
      }
      value = byte != 0;
    } else {
      self().put(static_cast<u8>(value ? 1 : 0));
    }
  }

  // Validates a just-read u32 length field of `count` elements against the limit and the bytes
  // left (each element taking at least `min_wire` bytes).
  bool check_count(u64 count, u64 min_wire, u64 limit, const char* what) {
    const u64 remaining = self().remaining();
    if (count > limit || count * min_wire > remaining) [[unlikely]] {
      length_error(what, count, limit, remaining, min_wire, self().offset() - 4);
      self().halt();
      return false;
    }
    return true;
  }

  bool check_length_fits(usize size, const char* what) {
    if (size > kMaxLength) [[unlikely]] {
      too_long_error(what, size, self().offset());
      self().halt();
      return false;
    }
    return true;
  }

  void io_string(std::string& value) {
    if constexpr (Derived::kLoading) {
      u32 size = 0;
      if (!self().get(size)) return;
      if (!check_count(size, 1, self().limits().max_string_bytes, "string")) return;
      value.resize(size);
      self().get_bytes(as_writable_bytes(std::span<char>(value)).data(), size);
    } else {
      if (!check_length_fits(value.size(), "string")) return;
      self().put(static_cast<u32>(value.size()));
      self().put_bytes(as_bytes(std::string_view(value)).data(), value.size());
    }
  }

  template <class E, class A>
  void io_vector(std::vector<E, A>& value) {
    if constexpr (Derived::kLoading) {
      u32 count = 0;
      if (!self().get(count)) return;
      constexpr u64 min_wire = std::max<u64>(detail::min_wire_size<E>(), 1);
      if (!check_count(count, min_wire, self().limits().max_elements, "vector")) return;
      if constexpr (WireScalar<E>) {
        value.resize(count);
        self().get_array(value.data(), count);
      } else if constexpr (std::is_same_v<E, bool>) {
        value.resize(count);
        for (usize i = 0; i < count && ok(); ++i) {
          bool element = false;
          io_bool(element);
          value[i] = element;
        }
      } else {
        // Reuse the elements already there (their strings and vectors keep their capacity),
        // then grow one element at a time, so memory follows the bytes actually decoded.
        if (value.size() > count) value.erase(value.begin() + count, value.end());
        for (usize i = 0; i < value.size() && ok(); ++i) io(value[i]);
        while (value.size() < count && ok()) {
          value.emplace_back();
          io(value.back());
        }
      }
    } else {
      if (!check_length_fits(value.size(), "vector")) return;
      self().put(static_cast<u32>(value.size()));
      if constexpr (WireScalar<E>) {
        self().put_array(value.data(), value.size());
      } else if constexpr (std::is_same_v<E, bool>) {
        for (usize i = 0; i < value.size(); ++i) self().put(static_cast<u8>(value[i] ? 1 : 0));
      } else {
        [[maybe_unused]] const u64 before = self().offset();
        for (usize i = 0; i < value.size() && ok(); ++i) {
          io(value[i]);
          KEEL_ASSERT(i > 0 || !ok() || self().offset() > before,
                      "keel::serial: vector elements must write at least one byte");
        }
      }
    }
  }

  template <class E>
  void io_range(E* data, usize count) {
    if constexpr (WireScalar<E>) {
      if constexpr (Derived::kLoading) {
        self().get_array(data, count);
      } else {
        self().put_array(data, count);
      }
    } else {
      for (usize i = 0; i < count && ok(); ++i) io(data[i]);
    }
  }

  template <class E>
  void io_optional(std::optional<E>& value) {
    if constexpr (Derived::kLoading) {
      u8 flag = 0;
      if (!self().get(flag)) return;
      if (flag == 0) {
        value.reset();
      } else if (flag == 1) {
        if (!value) value.emplace();
        io(*value);
      } else [[unlikely]] {
        flag_error("optional", flag, self().offset() - 1);
        self().halt();
      }
    } else {
      self().put(static_cast<u8>(value.has_value() ? 1 : 0));
      if (value) io(*value);
    }
  }
};

}  // namespace keel::serial
