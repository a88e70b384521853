// SaveFile's state (internal).
#pragma once

#include "keel/save/detail/plan.h"
#include "keel/save/detail/stream.h"
#include "keel/save/save_file.h"

#include <array>
#include <optional>
#include <typeinfo>
#include "keel/core/prehashed_map.h"

#define KEEL_SAVE_TRY(expr)                        \
  do {                                             \
    if (auto keel_st_ = (expr); !keel_st_) {       \
      return ::keel::Unexpected(keel_st_.error()); \
    }                                              \
  } while (0)

namespace keel::save {

inline Error usage_error(std::string message) {
  return Error(ErrorCode::kInvalidArgument, std::move(message));
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
  std::vector<Block> blocks;
  std::vector<SaveObject*> objects;
  // Per object (parallel to `objects`, filled when the set is processed): its plan and complete
  // address, found once instead of in every pass; saving also remembers where its object links
  // (the targets pre_save_template found, with their indices) start in `links`.
  struct ObjectInfo {
    const detail::TypePlan* plan;
    std::byte* base;
    u32 links_begin;
    u32 links_count;
  };
  // Loading: each object with its dynamic type, side by side (one cache line per link).
  struct Target {
    SaveObject* object;
    const std::type_info* type;
  };
  std::vector<Target> targets;
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
  PrehashedMap<u64, u32> object_index;  // object address (mixed) -> 1-based index
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

// Pointers are unique, and multiplying by an odd constant keeps them so: a pre-hashed key.
inline u64 object_key(const void* p) {
  return static_cast<u64>(reinterpret_cast<uintptr_t>(p)) * 0x9E3779B97F4A7C15ull;
}

struct SessionBuffers {
  std::vector<SaveObject*> objects;
  std::vector<SaveFile::Impl::ObjectInfo> info;
  std::vector<SaveFile::Impl::Link> links;
  std::vector<SaveFile::Impl::Block> blocks;
  std::vector<u8> object_block;
  PrehashedMap<u64, u32> object_index;
  std::vector<SaveFile::Impl::Target> targets;
  std::vector<SaveObject*> created_raw;
  ByteBuffer body;
};

// begin_save()/begin_load(): the spare buffers of the session's system (if any) become the
// session's (a load leaves the body: it gets the decoded file's).
void take_buffers(SaveFile::Impl& s, bool body);
// A save session's buffers go back to its system (the session ends or starts another).
void give_buffers(SaveFile::Impl& s);

const SaveFile::Impl::Sorted* find_block_for(SaveFile::Impl& s, uintptr_t p);
}  // namespace detail

}  // namespace keel::save
