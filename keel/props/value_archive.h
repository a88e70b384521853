// The archive a registered user type sees when a PropertyContainer is serialized.
//
// The container's `serialize(Archive&)` is a template over keel::serial's archives, but the
// values it holds are type-erased, so the per-type code cannot be a template over the archive.
// It is instantiated instead for three small erased archives, ValueLoader, ValueSaver and
// ValueSizer, which have the same surface as serial's archives (`io`, `operator()`, `ok`, `fail`,
// `kLoading`/`kSaving`/`kSizing`) and forward every primitive to the real archive through
// ArchiveAdapter. A user type written once as
//   template <class Archive> void serialize(Archive& ar) { ar(x, y, name); }
// therefore works both with keel::serial directly and inside a property container.
//
// Primitives (bool, u8..u64, s8..s64, f32, f64, std::string, StringId) go to the real archive's
// own `io`. Composites are spelled out here in terms of primitives: enums as their underlying
// type, std::array as its elements, std::optional as a bool then the value, std::vector as a u32
// count then the elements (the count-first rule of the serialization spec). A loaded vector grows
// one element at a time, so a corrupt count cannot make it allocate more than the data holds.
#pragma once

#include "keel/core/error.h"
#include "keel/core/hash.h"
#include "keel/core/types.h"

#include <array>
#include <concepts>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace keel::props {

class ValueArchive {
 public:
  virtual ~ValueArchive() = default;

  void io(bool& v) { do_io(v); }
  void io(u8& v) { do_io(v); }
  void io(u16& v) { do_io(v); }
  void io(u32& v) { do_io(v); }
  void io(u64& v) { do_io(v); }
  void io(s8& v) { do_io(v); }
  void io(s16& v) { do_io(v); }
  void io(s32& v) { do_io(v); }
  void io(s64& v) { do_io(v); }
  void io(f32& v) { do_io(v); }
  void io(f64& v) { do_io(v); }
  void io(std::string& v) { do_io(v); }
  void io(StringId& v) { do_io(v.value); }

  bool ok() const { return do_ok(); }
  // Flags an error in the underlying archive (sticky there).
  void fail(ErrorCode code, std::string_view message) { do_fail(code, message); }

 protected:
  ValueArchive() = default;
  ValueArchive(const ValueArchive&) = default;
  ValueArchive& operator=(const ValueArchive&) = default;

  virtual void do_io(bool& v) = 0;
  virtual void do_io(u8& v) = 0;
  virtual void do_io(u16& v) = 0;
  virtual void do_io(u32& v) = 0;
  virtual void do_io(u64& v) = 0;
  virtual void do_io(s8& v) = 0;
  virtual void do_io(s16& v) = 0;
  virtual void do_io(s32& v) = 0;
  virtual void do_io(s64& v) = 0;
  virtual void do_io(f32& v) = 0;
  virtual void do_io(f64& v) = 0;
  virtual void do_io(std::string& v) = 0;
  virtual bool do_ok() const = 0;
  virtual void do_fail(ErrorCode code, std::string_view message) = 0;
};

namespace detail {
template <typename T, typename A>
concept HasMemberSerialize = requires(T& value, A& ar) {
  value.serialize(ar);
};
template <typename T, typename A>
concept HasFreeSerialize = requires(T& value, A& ar) {
  serialize(ar, value);
};
}  // namespace detail

// Largest element count a loaded std::vector may announce (a corrupt count fails early).
inline constexpr u32 kMaxLoadedElements = 1u << 24;

// The composite io shared by the three erased archives; `Self` is the archive user code sees.
template <typename Self, bool Loading, bool Sizing>
class ValueArchiveOps : public ValueArchive {
 public:
  static constexpr bool kLoading = Loading;
  static constexpr bool kSizing = Sizing;
  static constexpr bool kSaving = !Loading && !Sizing;

  using ValueArchive::io;

  template <typename E>
  requires std::is_enum_v<E>
  void io(E& value) {
    auto raw = static_cast<std::underlying_type_t<E>>(value);
    io(raw);
    if constexpr (kLoading) value = static_cast<E>(raw);
  }

  template <typename T, usize N>
  void io(std::array<T, N>& values) {
    for (T& v : values) io(v);
  }

  template <typename T>
  void io(std::optional<T>& value) {
    bool present = value.has_value();
    io(present);
    if constexpr (kLoading) {
      if (!ok()) return;
      if (!present) {
        value.reset();
        return;
      }
      value.emplace();
    }
    if (present) io(*value);
  }

  template <typename T>
  void io(std::vector<T>& values) {
    if constexpr (kLoading) {
      u32 count = 0;
      io(count);
      values.clear();
      if (!ok()) return;
      if (count > kMaxLoadedElements) {
        fail(ErrorCode::kCorrupt, "vector element count too large");
        return;
      }
      for (u32 i = 0; i < count && ok(); ++i) {
        T element{};
        io(element);
        values.push_back(std::move(element));
      }
      if (!ok()) values.clear();
    } else {
      if (values.size() > std::numeric_limits<u32>::max()) {
        fail(ErrorCode::kOutOfRange, "vector too long to serialize");
        return;
      }
      u32 count = static_cast<u32>(values.size());
      io(count);
      if constexpr (std::is_same_v<T, bool>) {
        for (usize i = 0; i < values.size(); ++i) {
          bool b = values[i];
          io(b);
        }
      } else {
        for (T& v : values) io(v);
      }
    }
  }

  // Nested user objects: a member `serialize(ar)` or a free `serialize(ar, value)` found by ADL.
  template <typename T>
  requires detail::HasMemberSerialize<T, Self>
  void io(T& value) { value.serialize(self()); }

  template <typename T>
  requires(!detail::HasMemberSerialize<T, Self> &&
           detail::HasFreeSerialize<T, Self>) void io(T& value) {
    serialize(self(), value);
  }

  template <typename... Ts>
  void operator()(Ts&... values) {
    (io(values), ...);
  }

 private:
  Self& self() { return static_cast<Self&>(*this); }
};

class ValueLoader : public ValueArchiveOps<ValueLoader, true, false> {};
class ValueSaver : public ValueArchiveOps<ValueSaver, false, false> {};
class ValueSizer : public ValueArchiveOps<ValueSizer, false, true> {};

namespace detail {

template <typename Archive>
using ValueArchiveFor =
    std::conditional_t<Archive::kLoading, ValueLoader,
                       std::conditional_t<Archive::kSizing, ValueSizer, ValueSaver>>;

// Forwards the erased primitives to a real archive (keel::serial's, or any with the same API).
template <typename Archive>
class ArchiveAdapter final : public ValueArchiveFor<Archive> {
 public:
  explicit ArchiveAdapter(Archive& ar) : ar_(ar) {}

 protected:
  void do_io(bool& v) override { ar_.io(v); }
  void do_io(u8& v) override { ar_.io(v); }
  void do_io(u16& v) override { ar_.io(v); }
  void do_io(u32& v) override { ar_.io(v); }
  void do_io(u64& v) override { ar_.io(v); }
  void do_io(s8& v) override { ar_.io(v); }
  void do_io(s16& v) override { ar_.io(v); }
  void do_io(s32& v) override { ar_.io(v); }
  void do_io(s64& v) override { ar_.io(v); }
  void do_io(f32& v) override { ar_.io(v); }
  void do_io(f64& v) override { ar_.io(v); }
  void do_io(std::string& v) override { ar_.io(v); }
  bool do_ok() const override { return ar_.ok(); }
  void do_fail(ErrorCode code, std::string_view message) override {
    ar_.fail(code, std::string(message));
  }

 private:
  Archive& ar_;
};

}  // namespace detail
}  // namespace keel::props
