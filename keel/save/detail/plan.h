// Per-class plans built once by SaveSystem: the template flattened into stream operations with
// measured offsets (contiguous passive members merged), and the schema written into saves.
#pragma once

#include "keel/core/bytes.h"
#include "keel/core/prehashed_map.h"
#include "keel/save/system.h"

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <typeinfo>
#include <unordered_map>
#include <vector>

namespace keel::save {

namespace detail {

enum class OpKind : u8 { kPassive = 1, kPointer = 2, kObject = 3, kGone = 4 };

struct Op {
  OpKind kind = OpKind::kPassive;
  u32 offset = 0;  // from the complete object
  u32 length = 0;
  const Record* record = nullptr;
};

struct Field {
  OpKind kind = OpKind::kPassive;
  u32 length = 0;
  std::string name;
};

struct TypePlan {
  u32 save_id = 0;
  std::string name;
  u32 size = 0;
  std::vector<Op> ops;        // merged, for the stream
  u32 max_bytes = 0;          // the most one object writes to the stream
  std::vector<Field> fields;  // one per stream record, for the schema and dumps
  std::unique_ptr<SaveObject> (*create)() = nullptr;
  // The registered class itself (measured on the factory's sample): an object whose dynamic
  // type is exactly `type` starts `object_at` bytes before its SaveObject base, and the hooks
  // it keeps (kKeeps*) run inline, without a virtual call.
  const std::type_info* type = nullptr;
  std::ptrdiff_t object_at = 0;
  u8 keeps = 0;
  std::vector<Op> links;  // the kObject ops of `ops`, for discovery
  // The class's compiled writer (detail/compiled.h), for objects of exactly
  // `type`; null: the plan is interpreted.
  FusedWrite write = nullptr;
};

// The buffers of a finished save session, kept by the SaveSystem for the next one (session.h).
struct SessionBuffers;
void delete_buffers(SessionBuffers* buffers);

// Schema: u32 type count, then per type: u32 save id, string name, u32 size, u32 field count,
// fields (u8 kind, u32 length, string name).
void write_schema(ByteBuffer& out, const std::vector<const TypePlan*>& plans);

}  // namespace detail

struct SaveSystem::Impl {
  std::vector<detail::TypePlan> plans;
  PrehashedMap<u32, u32> by_id;  // save id (mixed) -> index in plans
  std::vector<std::string> problems;
  u32 checked = 0;
  u64 version = 0;
  ByteBuffer schema;
  struct Migration {
    const SaveSystem* previous;
    Upgrade upgrade;
  };
  std::vector<Migration> migrations;
  // Sizes of the last completed save through this system: the next save reserves them up front
  // (games save worlds of about the same size again and again; growing the object list, the
  // object index and the body by doubling cost a fifth of a 100k-object save, mostly in page
  // faults). Hints only: any value is safe.
  struct SizeHint {
    std::atomic<u64> objects{0};
    std::atomic<u64> links{0};
    std::atomic<u64> body{0};
    std::atomic<u64> prefix{0};  // an uncompressed file's bytes before the body
  };
  mutable SizeHint last_save;
  // The buffers of the last finished save session, taken by the next begin_save(): fresh
  // buffers of a 100k-object save are 15 MB, a page fault per 4 KiB when first written (a
  // quarter of the save's time), and a game saves about the same world again and again.
  mutable std::mutex spare_mutex;
  mutable std::unique_ptr<detail::SessionBuffers, void (*)(detail::SessionBuffers*)> spare{
      nullptr, &detail::delete_buffers};

  const detail::TypePlan* find(u32 save_id) const {
    const u32* at = by_id.find(save_id * 0x9E3779B1u);
    return at == nullptr ? nullptr : &plans[*at];
  }
};

}  // namespace keel::save
