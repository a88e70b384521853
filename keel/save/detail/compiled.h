// Writers generated at compile time from constant save templates (KEEL_SAVE_TEMPLATE is
// `constexpr`). A save whose objects keep the default hooks writes each object as it is found
// (process.cpp, save_set); a class whose template is a constant where it is registered
// (type<T>()) gets straight-line code for that, made from its records: every member's place,
// length and kind is known, so nothing is interpreted per object. The bytes are the plan
// interpreter's (write_fused): the same records in the same order (a class record applies its
// template in place, as flatten() does).
//
// Whether a template is a constant depends on what the translation unit has seen, so the answer
// may differ between units: fused_write<C> is only instantiated where it is yes, and is then the
// same code everywhere. (type<C>() is one function for the linker: a unit where the answer is no
// may end up with the writer another unit made, which writes the same bytes.)
// Everything that needs SaveObject or MarkAccess complete waits for instantiation.
#pragma once

#include "keel/core/types.h"
#include "keel/save/record.h"

#include <cstdint>
#include <cstring>
#include <type_traits>
#include <typeinfo>
#include <utility>

namespace keel::save::detail {

struct MarkAccess;

// What the fused save loop (process.cpp, save_set) lends a writer besides its cursor. The cursor
// (where to write, how many objects the set has) changes with every object, so it travels in
// registers (FusedCursor); these fields change rarely (a slow path) and are read from here.
// (A field stored with one width and read back with another right after stalls the store
// forwarding: a writer never reads here what the loop has just written.)
struct FusedWriter {
  SaveObject** objects = nullptr;  // the set: FusedCursor::count objects, room for `room`
  usize room = 0;
  // The session marks objects and no stale mark can exist: a mark is 0 or this set's index, and
  // targets are found and added inline. Otherwise `add` does (the session's lookup).
  bool marks_only = false;
  // The caller's block the last block pointer fell in, where no other block is innermost:
  // [block_lo, block_hi) lies in block `block_index` (1-based).
  uintptr_t block_lo = 0;
  uintptr_t block_hi = 0;
  u32 block_index = 0;
  // The span of the block pointers resolved so far (finish_fused checks it against the objects).
  uintptr_t pointed_lo = UINTPTR_MAX;
  uintptr_t pointed_hi = 0;
  void* session = nullptr;
  u32 current = 0;  // the object being written (1-based), for messages
  // The slow paths, out of line (`count`: the set's size). `add` returns the target's index,
  // count + 1 when it added it (growing `objects` if need be).
  u32 (*add)(FusedWriter& w, usize count, SaveObject* target) = nullptr;
  void (*grow)(FusedWriter& w, usize count) = nullptr;  // room for one more object
  // A non-null block pointer outside [block_lo, block_hi): its 8 bytes at `at`, now or later.
  void (*pointer)(FusedWriter& w, std::byte* at, const void* target,
                  const Record* record) = nullptr;
};

// The 1-based index of link target `o` in the set, adding it at the end if it is new.
// (Access and Object are parameters so that nothing here needs SaveObject complete.)
template <class Access, class Object>
[[gnu::always_inline]] inline u32 fused_add(FusedWriter& w, FusedCursor& c, Object* o) {
  if (w.marks_only) [[likely]] {
    const u32 mark = Access::index(*o);
    if (mark - 1 < c.count) return mark;  // (0 wraps)
    if (c.count == w.room) [[unlikely]]
      w.grow(w, c.count);
    w.objects[c.count++] = o;
    Access::set(*o, static_cast<u32>(c.count));
    return static_cast<u32>(c.count);
  }
  const u32 index = w.add(w, c.count, o);
  if (index > c.count) c.count = index;
  return index;
}

// A non-null block pointer (8 bytes at c.out): inline when it falls where the last one did.
[[gnu::always_inline]] inline void fused_block_pointer(FusedWriter& w, const FusedCursor& c,
                                                       const void* target, const Record* record) {
  const auto p = reinterpret_cast<uintptr_t>(target);
  const uintptr_t lo = w.block_lo;
  if (p - lo < w.block_hi - lo) [[likely]] {
    const u32 pair[2] = {w.block_index, static_cast<u32>(p - lo)};
    std::memcpy(c.out, pair, 8);
    if (p < w.pointed_lo) w.pointed_lo = p;
    if (p > w.pointed_hi) w.pointed_hi = p;
    return;
  }
  w.pointer(w, c.out, target, record);
}

// A template is addressed by its class and the path of class records leading to it (bases and
// structs applied in place), not by a pointer template argument: clang does not know the bound
// of an array reached through one (`static const Record t[]` in the class, completed by its
// constexpr definition), so it cannot read past the first record at compile time.
template <class C, usize... Path>
constexpr const Record* records_at() {
  const Record* t = C::keel_save_template;
  ((t = t[Path].sub), ...);
  return t;
}

constexpr usize record_count(const Record* t) {
  usize n = 0;
  while (t[n].type != RecordType::kEndOfTemplate) ++n;
  return n;
}

// (Internal: their answers may differ between translation units, see above.)
namespace {

// A template is a constant when its records can be read at compile time (it was defined with
// KEEL_SAVE_TEMPLATE, which is constexpr, in this translation unit before this point).
template <class C, usize... Path>
concept ConstantTemplate = requires {
  typename std::integral_constant<int, static_cast<int>(records_at<C, Path...>()[0].type)>;
};

template <class C, usize... Path>
constexpr bool all_constant();

template <class C, usize I, usize... Path>
constexpr bool record_constant() {
  if constexpr (records_at<C, Path...>()[I].type == RecordType::kClass) {
    return all_constant<C, Path..., I>();
  } else {
    return true;
  }
}

// The template and every template it applies (bases, structs) are constants.
template <class C, usize... Path>
constexpr bool all_constant() {
  if constexpr (!ConstantTemplate<C, Path...>) {
    return false;
  } else {
    return []<usize... I>(std::index_sequence<I...>) {
      return (record_constant<C, I, Path...>() && ...);
    }
    (std::make_index_sequence<record_count(records_at<C, Path...>())>{});
  }
}

}  // namespace

template <class C, usize... Path>
void write_records(FusedWriter& w, FusedCursor& c, std::byte* object);

template <class C, usize I, usize... Path>
[[gnu::always_inline]] inline void write_record(FusedWriter& w, FusedCursor& c, std::byte* object) {
  constexpr const Record& r = records_at<C, Path...>()[I];
  if constexpr (r.type == RecordType::kPassive) {
    std::memcpy(c.out, r.locate(object), r.length);
    c.out += r.length;
  } else if constexpr (r.type == RecordType::kGone) {
    std::memset(c.out, 0, r.length);
    c.out += r.length;
  } else if constexpr (r.type == RecordType::kClass) {
    write_records<C, Path..., I>(w, c, static_cast<std::byte*>(r.locate(object)));
  } else if constexpr (r.type == RecordType::kSaveObject) {
    SaveObject* const target = r.get_object(r.locate(object));
    const u32 index = target == nullptr ? 0 : fused_add<MarkAccess>(w, c, target);
    std::memcpy(c.out, &index, 4);
    c.out += 4;
  } else if constexpr (r.type == RecordType::kPointer) {
    const void* const target = r.get_pointer(r.locate(object));
    if (target == nullptr) {
      std::memset(c.out, 0, 4);
      c.out += 4;
    } else {
      fused_block_pointer(w, c, target, &r);
      c.out += 8;
    }
  }
}

template <class C, usize... Path>
void write_records(FusedWriter& w, FusedCursor& c, std::byte* object) {
  [&]<usize... I>(std::index_sequence<I...>) { (write_record<C, I, Path...>(w, c, object), ...); }
  (std::make_index_sequence<record_count(records_at<C, Path...>())>{});
}

// `object`: a complete C (the fused loop calls a class's writer for objects of exactly that class).
template <class C>
FusedCursor fused_write(FusedWriter& w, std::byte* object, FusedCursor at) {
  write_records<C>(w, at, object);
  return at;
}

// T's compiled writer if T's template and every template it applies are constants here, else
// null (fused_write<T> is instantiated only then).
template <class T>
FusedWrite compiled_writer() {
  if constexpr (all_constant<T>()) {
    return &fused_write<T>;
  } else {
    return nullptr;
  }
}

}  // namespace keel::save::detail
