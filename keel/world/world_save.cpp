// World::save / World::load: the entity table and the tracked components as client data of a
// keel/save session. Layout (native little-endian u32s, then raw component bytes):
//   magic "KWLD", version, salt, slot count, free-list head,
//   generations[slot count], next_free[slot count],
//   tracked type count, then per type: component size, count, count x (index, generation, bytes).
// Loading checks every number against the table it builds (a damaged or hostile file gives an
// error, never a crash) and leaves the world empty on error.
#include "keel/core/bytes.h"
#include "keel/save/save_file.h"
#include "keel/world/world.h"

#include <vector>

namespace keel::world {
namespace {

constexpr u32 kMagic = 0x444c574bu;  // "KWLD"
constexpr u32 kVersion = 1;
constexpr u32 kMaxSlots = 1u << 28;

template <typename T>
Status put_array(save::SaveFile& file, const std::vector<T>& values) {
  return file.put(std::as_bytes(std::span(values)));
}
template <typename T>
Status get_array(save::SaveFile& file, std::vector<T>& values) {
  return file.get(std::as_writable_bytes(std::span(values)));
}

}  // namespace

Status World::save(save::SaveFile& file) const {
  const u32 count = static_cast<u32>(slots_.size());
  std::vector<u32> generations(count);
  std::vector<u32> next_free(count);
  for (u32 i = 0; i < count; ++i) {
    generations[i] = slots_[i].generation;
    next_free[i] = slots_[i].next_free;
  }
  Status st = file.put_value(kMagic);
  if (st) st = file.put_value(kVersion);
  if (st) st = file.put_value(salt_);
  if (st) st = file.put_value(count);
  if (st) st = file.put_value(free_head_);
  if (st) st = put_array(file, generations);
  if (st) st = put_array(file, next_free);
  if (st) st = file.put_value(static_cast<u32>(tracked_.size()));
  for (const StoreBase* s : tracked_) {
    if (!st) break;
    st = file.put_value(static_cast<u32>(s->component_size()));
    if (st) st = file.put_value(s->size());
    for (u32 d = 0; st && d < s->size(); ++d) {
      const Entity e = s->entities()[d];
      st = file.put_value(e.index);
      if (st) st = file.put_value(e.generation);
      if (st) st = file.put(s->bytes_of(d));
    }
  }
  return st;
}

Status World::load(save::SaveFile& file) {
  clear();
  u32 magic = 0, version = 0, salt = 0, count = 0, head = 0;
  Status st = file.get_value(magic);
  if (st) st = file.get_value(version);
  if (st && (magic != kMagic || version != kVersion)) {
    st = fail(ErrorCode::kCorrupt, "world save: not a world table (magic {:#x}, version {})", magic,
              version);
  }
  if (st) st = file.get_value(salt);
  if (st) st = file.get_value(count);
  if (st) st = file.get_value(head);
  if (st && (salt == 0 || salt > 0xFF || count > kMaxSlots || (head >= count && head != kNone) ||
             u64{count} * 8 > file.readable_bound())) {  // 8: a generation and a next-free
    st = fail(ErrorCode::kCorrupt, "world save: bad table (salt {}, {} slots, free head {})", salt,
              count, head);
  }
  if (!st) return st;
  std::vector<u32> generations(count);
  std::vector<u32> next_free(count);
  st = get_array(file, generations);
  if (st) st = get_array(file, next_free);
  if (!st) return st;
  slots_.resize(count);
  usize live = 0;
  for (u32 i = 0; i < count; ++i) {
    const u32 g = generations[i];
    const bool is_live = (g & kLiveBit) != 0;
    if ((g & 0xFFu) != salt || (!is_live && next_free[i] != kNone && next_free[i] >= count) ||
        (is_live && next_free[i] != kNone)) {
      slots_.clear();
      return fail(ErrorCode::kCorrupt, "world save: bad entity slot {}", i);
    }
    slots_[i] = Slot{.generation = g, .next_free = next_free[i]};
    live += is_live ? 1 : 0;
  }
  // The free list must visit each free slot once and nothing else.
  usize free_count = 0;
  for (u32 i = head; i != kNone; i = slots_[i].next_free) {
    if ((slots_[i].generation & kLiveBit) != 0 || ++free_count > count - live) {
      slots_.clear();
      return fail(ErrorCode::kCorrupt, "world save: broken free list at slot {}", i);
    }
  }
  salt_ = salt;
  free_head_ = head;
  live_ = live;

  u32 types = 0;
  st = file.get_value(types);
  if (st && types != tracked_.size()) {
    st = fail(ErrorCode::kCorrupt, "world save: {} tracked component types, this world has {}",
              types, tracked_.size());
  }
  ByteBuffer bytes;
  for (StoreBase* s : tracked_) {
    if (!st) break;
    u32 size = 0, n = 0;
    st = file.get_value(size);
    if (st) st = file.get_value(n);
    if (st && (size != s->component_size() || n > live)) {
      st = fail(ErrorCode::kCorrupt, "world save: {} components of {} bytes (expected {} bytes)", n,
                size, s->component_size());
    }
    if (st) bytes.resize(size);  // the size was checked: never a size read from the file
    for (u32 k = 0; st && k < n; ++k) {
      Entity e;
      st = file.get_value(e.index);
      if (st) st = file.get_value(e.generation);
      if (st) st = file.get(bytes);
      if (st && !alive(e)) {
        st = fail(ErrorCode::kCorrupt, "world save: a component of dead entity {}", e.index);
      }
      if (st) s->restore(e, bytes);
    }
  }
  if (!st) clear();
  return st;
}

}  // namespace keel::world
