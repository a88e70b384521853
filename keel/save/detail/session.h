// SaveFile's state (internal).
#pragma once

#include "keel/save/detail/plan.h"
#include "keel/save/detail/stream.h"
#include "keel/save/save_file.h"

#include <array>
#include <cstring>
#include <optional>
#include <span>
#include <type_traits>
#include <typeinfo>
#include <utility>
#include <vector>
#include "keel/core/prehashed_map.h"

#define KEEL_SAVE_TRY(expr)                        \
  do {                                             \
    if (auto keel_st_ = (expr); !keel_st_) {       \
      return ::keel::Unexpected(keel_st_.error()); \
    }                                              \
  } while (0)

namespace keel::save {

namespace detail {

// std::allocator, except that a new element is left default-initialised (a pointer: not zeroed).
// The fused save loop sizes the object list to the room it may need, then fills it as it finds
// objects: zeroing it first cost a few percent of a 100k-object save.
template <class T>
struct LeftUninitialized : std::allocator<T> {
  using value_type = T;
  LeftUninitialized() = default;
  template <class U>
  explicit LeftUninitialized(const LeftUninitialized<U>& /*other*/) noexcept {}
  template <class U>
  struct rebind {
    using other = LeftUninitialized<U>;
  };
  template <class U>
  void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... A>
  void construct(U* p, A&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<A>(args)...);
  }
};

// The set being saved or loaded, in index order.
using ObjectList = std::vector<SaveObject*, LeftUninitialized<SaveObject*>>;

}  // namespace detail

inline Error usage_error(std::string message) {
  return Error(ErrorCode::kInvalidArgument, std::move(message));
}

// Appends a u32 in the object stream's byte order (the machine's; the header states it).
inline void put32(std::byte*& out, u32 v) {
  std::memcpy(out, &v, 4);
  out += 4;
}

struct SaveFile::Impl {
  enum class Mode : u8 { kIdle, kSaving, kLoading, kDone };
  enum class Phase : u8 { kNone, kPreSave, kSave, kPreLoad, kLoad };
  struct Block {
    const std::byte* base;
    usize length;
  };
  struct Sorted {
    uintptr_t begin;
    uintptr_t end;
    uintptr_t max_end;  // of this and every earlier entry
    u32 index;          // 1-based
  };

  const SaveSystem* system;
  const SaveSystem::Impl* active = nullptr;  // the system whose plans read this file (migration)
  // The system whose spare buffers this session took; they go back to it at the end.
  const SaveSystem::Impl* buffers_from = nullptr;
  const SaveSystem::Upgrade* upgrade = nullptr;
  Mode mode = Mode::kIdle;
  Phase phase = Phase::kNone;
  std::optional<Error> error;
  std::filesystem::path path;
  SaveOptions options;
  ClientHeader header;
  ByteBuffer body;
  ByteBuffer file;
  // Saving without compression: the body starts at `body_at` in `body`, after room for the
  // file's prefix (headers, checksum table; sized from the last save), so end() writes the file
  // around it instead of copying it. If the room fits, `body` becomes `file` (body_in_file).
  usize body_at = 0;
  bool body_in_file = false;
  std::vector<Block> blocks;
  detail::ObjectList objects;
  // Per object (parallel to `objects`, filled when the set is processed): its plan and complete
  // address, found once instead of in every pass; saving also remembers where its object links
  // (the targets pre_save_template found, with their indices) start in `links`.
  struct ObjectInfo {
    const detail::TypePlan* plan;
    std::byte* base;
    u32 links_begin;
    u32 links_count;
    u8 keeps;  // the default hooks it runs inline (plan->keeps when it is exactly plan->type)
  };
  // Loading: each object with its dynamic type, side by side (one cache line per link).
  struct Target {
    SaveObject* object;
    const std::type_info* type;
  };
  std::vector<Target> targets;
  // Loading a set whose classes keep the default hooks (load_fused): each object's class, and
  // the set's objects (0-based) class by class, in file order within a class (the order they
  // are made in).
  std::vector<u8> kinds;
  std::vector<u32> fused_order;
  // Loading: how a SaveObject* of a dynamic type converts to an object record's slot type,
  // learned from the record's checked conversion (direct-mapped, 64 entries).
  struct Cast {
    const Record* record = nullptr;
    const std::type_info* type = nullptr;
    std::ptrdiff_t delta = 0;
  };
  std::array<Cast, 64> casts{};
  struct Link {
    const SaveObject* target;
    u32 index;
  };
  std::vector<ObjectInfo> info;
  std::vector<Link> links;
  // "Seen?" and "index of": saving with `marks` (this session marks objects, see claim_marks())
  // reads the index the set wrote into the object and checks it against `objects`; otherwise
  // (another save session is open) `object_index` maps the object's address (mixed) to its
  // 1-based index.
  bool marks = false;
  // Marks are reset to 0 when a set has been processed, so a mark of 0 is "not in this set" and
  // any other is this set's index, with no check. Only objects declared by a session that ended
  // without processing them keep a mark (the session cannot touch them: they may be gone); from
  // then on (marks_may_be_stale()) sessions check a mark against their object list.
  bool check_marks = false;
  bool marks_reset = false;  // the set's marks were reset already (by its fused loop)
  PrehashedMap<u64, u32> object_index;
  // Dynamic type -> plan of the objects seen so far (direct-mapped; only exact registered types).
  struct TypeSlot {
    const std::type_info* type = nullptr;
    const detail::TypePlan* plan = nullptr;
  };
  std::array<TypeSlot, 16> type_cache{};
  usize out = 0;  // saving: where the save pass writes the next object in `body`
  // Saving a set whose objects all keep the default hooks writes each object as it is found
  // (one visit instead of two); its block pointers wait here until every block is known.
  struct Fixup {
    usize at;  // in `body`: 8 bytes for the block index and offset
    const void* target;
    const Record* record;  // the pointer's, for messages
    u32 object;            // 1-based, for messages
  };
  std::vector<Fixup> fixups;
  // Saving.
  usize open_data_at = 0;  // offset of the open client-data section's length; 0 = none
  // Block lookup: the blocks declared by the caller and objects' hooks (`sorted`), and the
  // objects' own blocks (`sorted_objects`, sorted on the first pointer into their address range).
  std::vector<u8> object_block;  // parallel to `blocks`: 1 = an object's own block
  std::vector<Sorted> sorted;
  std::vector<Sorted> sorted_objects;
  bool objects_sorted = false;
  uintptr_t objects_lo = 0;
  uintptr_t objects_hi = 0;
  usize last_hit = 0;
  usize last_object_hit = 0;
  ByteBuffer extras;
  u32 extras_object = 0;
  usize extras_len_at = 0;
  u32 current = 0;  // 1-based object being processed
  // Loading.
  detail::Reader reader;
  u64 data_left = 0;
  std::vector<std::unique_ptr<SaveObject>> created;
  std::vector<SaveObject*> created_raw;
  std::vector<std::unique_ptr<SaveObject>> loaded;
  struct Extra {
    usize index;  // 1-based object
    ByteSpan data;
  };
  std::vector<Extra> extra_data;  // by increasing object index
  usize extra_next = 0;
  detail::Reader extra_reader;
  u32 objects_done = 0;

  Unexpected fail(Error e) {
    if (!error) error = std::move(e);
    return Unexpected(*error);
  }
  Status check() const {
    if (error) return Unexpected(*error);
    return {};
  }
};

namespace detail {

// Marking is owned by one save session in the process at a time (claimed by begin_save, given
// back by end(), the next begin or the destructor: release_marks()); a session that cannot claim
// it uses the address hash and never reads or writes marks, so two sessions (threads, systems,
// interleaved saves) neither race nor mistake each other's marks.
bool claim_marks();
void release_marks(SaveFile::Impl& s);
bool marks_may_be_stale();
// The end of a set (process_objects): every object of the set gets a mark of 0 again.
void reset_marks(SaveFile::Impl& s);

// Pointers are unique, and multiplying by an odd constant keeps them so: a pre-hashed key.
inline u64 object_key(const void* p) {
  return static_cast<u64>(reinterpret_cast<uintptr_t>(p)) * 0x9E3779B97F4A7C15ull;
}

struct SessionBuffers {
  ObjectList objects;
  std::vector<SaveFile::Impl::ObjectInfo> info;
  std::vector<SaveFile::Impl::Link> links;
  std::vector<SaveFile::Impl::Block> blocks;
  std::vector<u8> object_block;
  PrehashedMap<u64, u32> object_index;
  std::vector<SaveFile::Impl::Target> targets;
  std::vector<SaveObject*> created_raw;
  ByteBuffer body;
  ByteBuffer file;
};

// begin_save()/begin_load(): the spare buffers of the session's system (if any) become the
// session's (a load leaves the body: it gets the decoded file's).
void take_buffers(SaveFile::Impl& s, bool body);
// A save session's buffers go back to its system (the session ends or starts another).
void give_buffers(SaveFile::Impl& s);

const SaveFile::Impl::Sorted* find_block_for(SaveFile::Impl& s, uintptr_t p);

// The index `o` is marked with in `set` (the set being saved, as found so far); else 0. A mark
// is 0 or this set's (check_marks: it counts only if `set` holds `o` there).
inline u32 marked_index(const SaveFile::Impl& s, std::span<SaveObject* const> set,
                        const SaveObject* o) {
  const u32 mark = MarkAccess::index(*o);
  if (mark - 1 >= set.size()) return 0;  // (0 wraps)
  return !s.check_marks || set[mark - 1] == o ? mark : 0;
}

// The 1-based index of `o` in `set` if it is there; else 0, and `o` is given the index
// set.size() + 1 (marked, or entered in the address hash): the caller appends it to the set.
// (add_object's and the fused save loop's slow path's lookup.)
inline u32 find_or_claim(SaveFile::Impl& s, std::span<SaveObject* const> set, SaveObject* o) {
  const auto next = static_cast<u32>(set.size() + 1);
  if (s.marks) {
    if (const u32 found = marked_index(s, set, o); found != 0) return found;
    MarkAccess::set(*o, next);
    return 0;
  }
  auto [index, added] = s.object_index.insert(object_key(o), next);
  return added ? 0 : *index;
}

// The 1-based index of `o` in the set being saved, adding it at the end if it is new.
inline u32 add_object(SaveFile::Impl& s, SaveObject* o) {
  if (const u32 found = find_or_claim(s, s.objects, o); found != 0) return found;
  s.objects.push_back(o);
  return static_cast<u32>(s.objects.size());
}

// The 1-based index of `o` in the set being saved; 0 if it was not declared or found.
inline u32 index_of(const SaveFile::Impl& s, const SaveObject* o) {
  if (s.marks) return marked_index(s, s.objects, o);
  const u32* found = s.object_index.find(object_key(o));
  return found == nullptr ? 0 : *found;
}

// Stores object `index` (1-based, 0 = null) in an object record's slot. The record's checked
// conversion (a dynamic_cast) runs once per slot type and target type; later targets of the same
// type reuse the pointer adjustment it made, without touching the target.
inline bool set_target(SaveFile::Impl& s, const Op& op, std::byte* slot, SaveObject* target,
                       const std::type_info* type) {
  const auto key = reinterpret_cast<uintptr_t>(op.record) ^ reinterpret_cast<uintptr_t>(type);
  SaveFile::Impl::Cast& cast = s.casts[(key >> 4) % s.casts.size()];
  auto* from = reinterpret_cast<std::byte*>(target);
  if (cast.record == op.record && cast.type == type) {
    std::byte* to = from + cast.delta;
    std::memcpy(slot, &to, sizeof to);
    return true;
  }
  if (!op.record->set_object(slot, target)) return false;
  std::byte* stored = nullptr;
  std::memcpy(&stored, slot, sizeof stored);
  cast = {op.record, type, stored - from};
  return true;
}
inline bool set_target(SaveFile::Impl& s, const Op& op, std::byte* slot, u32 index) {
  if (index == 0) return op.record->set_object(slot, nullptr);
  const auto [target, type] = s.targets[index - 1];
  return set_target(s, op, slot, target, type);
}

// Saving: records every target of the object's KEEL_SAVEPOBJ members (adding new ones to the set)
// and remembers their indices for the save pass (info.links_*).
void discover(SaveFile::Impl& s, SaveFile::Impl::ObjectInfo& info);
// The template passes' stream code: writes one object through its plan (room for
// plan.max_bytes at `out`), reads one back.
// With `defer`, a non-null block pointer is left as 8 bytes to fill and recorded there.
Status write_object(SaveFile::Impl& s, const TypePlan& plan, const std::byte* base,
                    const SaveFile::Impl::ObjectInfo* info, std::byte*& out,
                    std::vector<SaveFile::Impl::Fixup>* defer = nullptr);
Status read_object(SaveFile::Impl& s, const TypePlan& plan, std::byte* base);
}  // namespace detail

}  // namespace keel::save
