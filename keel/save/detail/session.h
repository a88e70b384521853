// SaveFile's state (internal).
#pragma once

#include "keel/save/detail/plan.h"
#include "keel/save/detail/stream.h"
#include "keel/save/save_file.h"

#include <optional>
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
  const SaveSystem::Impl* active;  // the system whose plans read this file (migration)
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
  PrehashedMap<u64, u32> object_index;  // object address (mixed) -> 1-based index
  // Saving.
  usize open_data_at = 0;  // offset of the open client-data section's length; 0 = none
  std::vector<Sorted> sorted;
  usize last_hit = 0;
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
  std::vector<ByteSpan> extra_data;
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
const SaveFile::Impl::Sorted* find_block_for(SaveFile::Impl& s, uintptr_t p);
}  // namespace detail

}  // namespace keel::save
