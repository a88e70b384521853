// ProcessObjects (Golden Rules ch. 8.8) and the template passes (8.9).
#include "keel/core/hash.h"
#include "keel/save/detail/session.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cstring>
#include <memory>
#include <span>
#include <utility>

namespace keel::save {

using Mode = SaveFile::Impl::Mode;
using Phase = SaveFile::Impl::Phase;
using detail::MarkAccess;
using detail::OpKind;

namespace {

constexpr u8 kSetSection = 'S';
constexpr u64 kMaxObjects = u64{1} << 26;

std::byte* complete_address(SaveObject& object) {
  return static_cast<std::byte*>(dynamic_cast<void*>(&object));
}

// The blocks' order and sizes, as the loader must declare them again. An object's own block is
// left out: its size is its class's (in the versioned schema) and its place in the order is
// fixed by the other blocks' indices, so hashing 100,000 objects' blocks would add nothing.
// `with_objects`: the hash of saves written before this rule (every block), still accepted on
// load, so a save whose classes kept their sizes loads as before.
u32 block_hash(const SaveFile::Impl& s, bool with_objects = false) {
  u64 h = 0x5AFEB10C;
  for (usize i = 0; i < s.blocks.size(); ++i) {
    if (s.object_block[i] != 0 && !with_objects) continue;
    const u64 pair[2] = {i + 1, s.blocks[i].length};
    h = hash64(pair, sizeof pair, h);
  }
  return static_cast<u32>(h ^ (h >> 32));
}

// Objects are visited in index order, each one cache miss away: fetch a few ahead (the first
// two lines, where the vtable pointer and the first members live).
constexpr usize kAhead = 8;
constexpr usize kFusedAhead = 8;  // the fused save loop's (save_set)
constexpr usize kSaveAhead = 32;  // the save pass: a long body per object, misses overlap only here
void prefetch(const void* object) {
  __builtin_prefetch(object);
  __builtin_prefetch(static_cast<const char*>(object) + 64);
}

Error corrupt(const SaveFile::Impl& s, std::string why) {
  return Error(ErrorCode::kCorrupt,
               fmt::format("save data corrupt at body byte {}: {}", s.reader.pos(), why));
}

using Sorted = SaveFile::Impl::Sorted;

void finish_sorted(std::vector<Sorted>& sorted) {
  auto by_address = [](const auto& a, const auto& b) {
    return a.begin != b.begin ? a.begin < b.begin : a.index < b.index;
  };
  // Objects allocated one after another are often declared in address order already.
  if (!std::is_sorted(sorted.begin(), sorted.end(), by_address)) {
    std::sort(sorted.begin(), sorted.end(), by_address);
  }
  uintptr_t max_end = 0;
  for (auto& e : sorted) {
    max_end = std::max(max_end, e.end);
    e.max_end = max_end;
  }
}

// Sorts the caller's blocks now; the objects' own blocks only when a pointer falls in their
// address range (pointers into level data never pay for sorting every object).
void build_sorted(SaveFile::Impl& s) {
  s.sorted.clear();
  s.sorted_objects.clear();
  s.objects_sorted = false;
  s.objects_lo = UINTPTR_MAX;
  s.objects_hi = 0;
  for (usize i = 0; i < s.blocks.size(); ++i) {
    const auto begin = reinterpret_cast<uintptr_t>(s.blocks[i].base);
    const uintptr_t end = begin + s.blocks[i].length;
    if (s.object_block[i] != 0) {
      s.objects_lo = std::min(s.objects_lo, begin);
      s.objects_hi = std::max(s.objects_hi, end);
      continue;
    }
    s.sorted.push_back({begin, end, 0, static_cast<u32>(i + 1)});
  }
  finish_sorted(s.sorted);
  s.last_hit = 0;
  s.last_object_hit = 0;
}

void sort_object_blocks(SaveFile::Impl& s) {
  s.sorted_objects.reserve(s.blocks.size() - s.sorted.size());
  for (usize i = 0; i < s.blocks.size(); ++i) {
    if (s.object_block[i] == 0) continue;
    const auto begin = reinterpret_cast<uintptr_t>(s.blocks[i].base);
    s.sorted_objects.push_back({begin, begin + s.blocks[i].length, 0, static_cast<u32>(i + 1)});
  }
  finish_sorted(s.sorted_objects);
  s.objects_sorted = true;
}

// The innermost block of `sorted` containing `p` (greatest base; first declared on ties).
const Sorted* find_in(const std::vector<Sorted>& sorted, usize& last_hit, uintptr_t p) {
  if (sorted.empty()) return nullptr;
  const auto& hit = sorted[last_hit];
  if (p >= hit.begin && p < hit.end &&
      (last_hit + 1 == sorted.size() || sorted[last_hit + 1].begin > p)) {
    return &hit;
  }
  auto it = std::upper_bound(sorted.begin(), sorted.end(), p,
                             [](uintptr_t v, const auto& e) { return v < e.begin; });
  while (it != sorted.begin()) {
    --it;
    if (it->max_end <= p) return nullptr;
    if (p < it->end) {
      // Among blocks with this same base, the first declared.
      while (it != sorted.begin() && (it - 1)->begin == it->begin && p < (it - 1)->end) --it;
      last_hit = static_cast<usize>(it - sorted.begin());
      return &*it;
    }
  }
  return nullptr;
}

// The innermost declared block containing `p` (greatest base; first declared on ties).
const Sorted* find_block(SaveFile::Impl& s, uintptr_t p) {
  const Sorted* a = find_in(s.sorted, s.last_hit, p);
  if (p < s.objects_lo || p >= s.objects_hi) return a;
  if (!s.objects_sorted) sort_object_blocks(s);
  const Sorted* b = find_in(s.sorted_objects, s.last_object_hit, p);
  if (a == nullptr || b == nullptr) return a == nullptr ? b : a;
  if (a->begin != b->begin) return a->begin > b->begin ? a : b;
  return a->index < b->index ? a : b;
}

const detail::TypePlan* plan_of(SaveFile::Impl& s, const SaveObject& object) {
  return s.active->find(object.save_id());
}

// An object's plan and complete address, and the default hooks it may run inline: through the
// type cache when its dynamic type is exactly a registered class (no virtual call, no
// dynamic_cast), else through its save id.
struct Typed {
  const detail::TypePlan* plan;
  std::byte* base;
  u8 keeps;
};
Typed type_of_slow(SaveFile::Impl& s, SaveObject& object, const std::type_info* type);

// (The cache hit inline, the rest out of line.)
inline Typed type_of(SaveFile::Impl& s, SaveObject& object) {
  const std::type_info* type = &typeid(object);
  auto& slot = s.type_cache[(reinterpret_cast<uintptr_t>(type) >> 4) % s.type_cache.size()];
  if (slot.type == type) [[likely]] {
    return {slot.plan, reinterpret_cast<std::byte*>(&object) - slot.plan->object_at,
            slot.plan->keeps};
  }
  return type_of_slow(s, object, type);
}

Typed type_of_slow(SaveFile::Impl& s, SaveObject& object, const std::type_info* type) {
  auto& slot = s.type_cache[(reinterpret_cast<uintptr_t>(type) >> 4) % s.type_cache.size()];
  const detail::TypePlan* plan = plan_of(s, object);
  if (plan == nullptr) return {nullptr, nullptr, 0};
  if (plan->type != nullptr && *plan->type == *type) {
    slot = {type, plan};
    return {plan, reinterpret_cast<std::byte*>(&object) - plan->object_at, plan->keeps};
  }
  return {plan, complete_address(object), 0};
}

// Discovery reads the mark of every target: a cache miss when the target lies elsewhere in
// memory. Objects `kAhead` ahead have been prefetched; their targets are prefetched from there
// (registered types only, through the type cache), so the marks are in cache when read.
void prefetch_targets(const SaveFile::Impl& s, const SaveObject* object) {
  const std::type_info* type = &typeid(*object);
  const auto& slot = s.type_cache[(reinterpret_cast<uintptr_t>(type) >> 4) % s.type_cache.size()];
  if (slot.type != type) return;
  const std::byte* base = reinterpret_cast<const std::byte*>(object) - slot.plan->object_at;
  // The slot's raw address, not get_object(): a hint needs no conversion (a SaveObject that is
  // not the target class's first base is a line or so off) and no call.
  for (const detail::Op& op : slot.plan->links) {
    const char* target = nullptr;
    std::memcpy(&target, base + op.offset, sizeof target);
    if (target != nullptr) __builtin_prefetch(target + 8);
  }
}

// An object's own block, declared right before its pre_save/pre_load (declare_block's checks
// hold: a registered class has an address and a size).
void push_object_block(SaveFile::Impl& s, const std::byte* base, u32 size) {
  s.blocks.push_back(SaveFile::Impl::Block{base, size});
  s.object_block.push_back(1);
}

constexpr usize kSetHeader = 1 + 4 + 4 + 8;  // tag, count, block hash, data length (+ 4 per id)

// Writes the set header at `header_at` (room for it: kSetHeader + 4 per object) and builds the
// blocks' lookup table; returns where the object data starts.
// `ids_written`: discovery already wrote the save ids in place.
usize write_set_header(SaveFile::Impl& s, usize header_at, bool ids_written) {
  std::byte* out = s.body.data() + header_at;
  *out++ = static_cast<std::byte>(kSetSection);
  put32(out, static_cast<u32>(s.objects.size()));
  if (ids_written) {
    out += 4 * s.objects.size();
  } else {
    for (const auto& info : s.info) put32(out, info.plan->save_id);
  }
  put32(out, block_hash(s));
  build_sorted(s);
  return static_cast<usize>(out - s.body.data()) + 8;
}

// Ends the object data at s.out: its length before it, the custom data table after.
void finish_set(SaveFile::Impl& s, usize data_at) {
  s.body.resize(s.out);
  const u64 length = s.out - data_at;
  std::memcpy(s.body.data() + data_at - 8, &length, 8);
  detail::Writer w(s.body);
  w.u64v(s.extras.size());
  w.bytes(s.extras.data(), s.extras.size());
}

Status save_pass(SaveFile& file, SaveFile::Impl& s, usize header_at, bool ids_written) {
  const u32 count = static_cast<u32>(s.objects.size());
  usize most = 0;
  for (const auto& info : s.info) most += info.plan->max_bytes;
  // The set's header and every object's stream are written through a cursor into room sized
  // from the plans; the body is cut to what was written at the end.
  s.body.resize(header_at + kSetHeader + usize{count} * 4 + most);
  const usize data_at = write_set_header(s, header_at, ids_written);
  s.out = data_at;
  s.extras.clear();
  s.extras_object = 0;
  s.phase = Phase::kSave;
  for (usize i = 0; i < count; ++i) {
    if (i + kSaveAhead < count) prefetch(s.info[i + kSaveAhead].base);
    s.current = static_cast<u32>(i + 1);
    const auto& info = s.info[i];
    if ((info.keeps & detail::kKeepsSave) != 0) {
      std::byte* at = s.body.data() + s.out;  // room for max_bytes: reserved above
      KEEL_SAVE_TRY(detail::write_object(s, *info.plan, info.base, &info, at));
      s.out = static_cast<usize>(at - s.body.data());
    } else {
      KEEL_SAVE_TRY(s.objects[i]->save(file));
      KEEL_SAVE_TRY(s.check());
    }
  }
  finish_set(s, data_at);
  return {};
}

// The info and own blocks of objects [from, to) that the fused loop did not record (it needs
// neither): a hook ended it, or a block pointer may point into an object.
void record_objects(SaveFile::Impl& s, usize from, usize to, bool info, bool blocks) {
  for (usize j = from; j < to; ++j) {
    const Typed t = type_of(s, *s.objects[j]);
    if (info) s.info.push_back({t.plan, t.base, static_cast<u32>(s.links.size()), 0, t.keeps});
    if (blocks) push_object_block(s, t.base, t.plan->size);
  }
}

// What the fused loop knows about the set's addresses: the objects' span [lo, hi) and that of
// the block pointers it resolved into the caller's blocks as it wrote them [pointed_lo,
// pointed_hi].
struct AddressSpan {
  uintptr_t lo = UINTPTR_MAX;
  uintptr_t hi = 0;
  uintptr_t pointed_lo = UINTPTR_MAX;
  uintptr_t pointed_hi = 0;
};

// The end of a fused loop that wrote every object: one pass over the set resets the objects'
// marks (when this session marks them; process_objects() then has none to reset) and finds
// where the objects may lie (each one exactly of its registered class): from the lowest
// SaveObject address less the most any class has before its SaveObject, to the highest plus the
// most any class has from there on. That is a little wider than the objects' own span, which
// only costs finish_fused a needless check in rare cases (measured: taking each object's own
// extent inside the loop cost far more than this pass).
AddressSpan end_fused_set(SaveFile::Impl& s) {
  const usize count = s.objects.size();
  // (Four of each: independent chains of compares, four times the throughput of one.)
  std::array<uintptr_t, 4> low{UINTPTR_MAX, UINTPTR_MAX, UINTPTR_MAX, UINTPTR_MAX};
  std::array<uintptr_t, 4> high{};
  const bool reset = s.marks;
  usize j = 0;
  for (; j + 4 <= count; j += 4) {
    if (reset && j + 2 * kAhead < count) __builtin_prefetch(s.objects[j + 2 * kAhead], 1);
    for (usize k = 0; k < 4; ++k) {
      SaveObject* o = s.objects[j + k];
      if (reset) MarkAccess::set(*o, 0);
      const auto p = reinterpret_cast<uintptr_t>(o);
      low[k] = std::min(low[k], p);
      high[k] = std::max(high[k], p);
    }
  }
  for (; j < count; ++j) {
    SaveObject* o = s.objects[j];
    if (reset) MarkAccess::set(*o, 0);
    const auto p = reinterpret_cast<uintptr_t>(o);
    low[0] = std::min(low[0], p);
    high[0] = std::max(high[0], p);
  }
  s.marks_reset = reset;
  const uintptr_t lo = std::min(std::min(low[0], low[1]), std::min(low[2], low[3]));
  const uintptr_t hi = std::max(std::max(high[0], high[1]), std::max(high[2], high[3]));
  uintptr_t before = 0;
  uintptr_t after = 0;
  for (const detail::TypePlan& plan : s.active->plans) {
    before = std::max<uintptr_t>(before, static_cast<uintptr_t>(plan.object_at));
    after = std::max<uintptr_t>(after, plan.size - static_cast<uintptr_t>(plan.object_at));
  }
  AddressSpan span;
  if (count > 0) {
    span.lo = lo >= before ? lo - before : 0;
    span.hi = hi <= UINTPTR_MAX - after ? hi + after : UINTPTR_MAX;
  }
  return span;
}

// The rare case of finish_fused: a block pointer resolved while writing points into the objects'
// span, where an object's own block (declared later, innermost) may hold it. Every block pointer
// of the set is resolved again now that every block is known (the objects are as they were
// written: no hook ran). Pointers into no caller block were deferred (s.fixups): left alone.
void resolve_block_pointers_again(SaveFile::Impl& s, usize data_at) {
  std::byte* out = s.body.data() + data_at;
  for (SaveObject* o : s.objects) {
    const Typed t = type_of(s, *o);
    for (const detail::Op& op : t.plan->ops) {
      switch (op.kind) {
        case OpKind::kPassive:
        case OpKind::kGone: out += op.length; break;
        case OpKind::kObject: out += 4; break;
        case OpKind::kPointer: {
          const auto p = reinterpret_cast<uintptr_t>(op.record->get_pointer(t.base + op.offset));
          if (p == 0) {
            out += 4;
            break;
          }
          if (const Sorted* block = find_block(s, p); block != nullptr) {
            const u32 pair[2] = {block->index, static_cast<u32>(p - block->begin)};
            std::memcpy(out, pair, 8);
          }
          out += 8;
          break;
        }
      }
    }
  }
}

// The set was written by the fused loop (every object kept the default hooks): the header goes
// in front of the data (moved if the object count differs from the room left for it), then the
// block pointers it could not resolve are filled in now that every block is known. The objects'
// own blocks were not recorded: they are, only if a block pointer falls in the objects' span.
Status finish_fused(SaveFile::Impl& s, usize header_at, usize written_at, usize expected,
                    const AddressSpan& span) {
  const uintptr_t lo = span.lo;
  const uintptr_t hi = span.hi;
  const usize count = s.objects.size();
  const usize data_at = header_at + kSetHeader + 4 * count;
  const usize length = s.out - written_at;
  if (data_at != written_at) {
    if (s.body.size() < data_at + length) s.body.resize(data_at + length);
    std::memmove(s.body.data() + data_at, s.body.data() + written_at, length);
    for (auto& f : s.fixups) f.at = f.at - written_at + data_at;
    s.out = data_at + length;
  }
  // The ids of objects past the room the loop had for them (found beyond the last count).
  for (usize j = expected; j < count; ++j) {
    const u32 id = type_of(s, *s.objects[j]).plan->save_id;
    std::memcpy(s.body.data() + header_at + 5 + 4 * j, &id, 4);
  }
  const bool again = span.pointed_lo < hi && span.pointed_hi >= lo;
  bool inside = again;
  for (const auto& f : s.fixups) {
    const auto p = reinterpret_cast<uintptr_t>(f.target);
    inside |= p >= lo && p < hi;
  }
  if (inside) record_objects(s, 0, count, false, true);
  write_set_header(s, header_at, true);
  if (again) resolve_block_pointers_again(s, data_at);
  s.phase = Phase::kSave;
  for (const auto& f : s.fixups) {
    const auto p = reinterpret_cast<uintptr_t>(f.target);
    const auto* block = detail::find_block_for(s, p);
    if (block == nullptr) {
      s.current = f.object;
      return s.fail(Error(
          ErrorCode::kInvalidArgument,
          fmt::format("object {} ({}): pointer '{}' points into no declared "
                      "memory block",
                      f.object, type_of(s, *s.objects[f.object - 1]).plan->name, f.record->name)));
    }
    const u32 pair[2] = {block->index, static_cast<u32>(p - block->begin)};
    std::memcpy(s.body.data() + f.at, pair, 8);
  }
  s.extras.clear();
  s.extras_object = 0;
  finish_set(s, data_at);
  return {};
}

// The session behind a fused loop's writer (detail::FusedWriter::session).
SaveFile::Impl& session_of(detail::FusedWriter& w) {
  return *static_cast<SaveFile::Impl*>(w.session);
}

// The writer's set lives in s.objects, sized to its room while the loop runs.
void fused_grow(detail::FusedWriter& w, usize count) {
  auto& objects = session_of(w).objects;
  objects.resize(std::max<usize>(2 * count, 1024));
  w.objects = objects.data();
  w.room = objects.size();
}

// add_object() for a session that cannot trust marks alone (stale marks, or the address hash),
// on the writer's set.
u32 fused_add_slow(detail::FusedWriter& w, usize count, SaveObject* o) {
  const std::span<SaveObject* const> set(w.objects, count);
  if (const u32 found = detail::find_or_claim(session_of(w), set, o); found != 0) return found;
  if (count == w.room) fused_grow(w, count);
  w.objects[count] = o;
  return static_cast<u32>(count + 1);
}

// A non-null block pointer that did not fall where the last one did. In a caller's block (sorted
// before the loop) it is final unless an object's own block, declared later, lies inside that
// block and holds it (finish_fused checks the span); else it waits in s.fixups.
void fused_pointer(detail::FusedWriter& w, std::byte* at, const void* target,
                   const Record* record) {
  SaveFile::Impl& s = session_of(w);
  const auto p = reinterpret_cast<uintptr_t>(target);
  if (const Sorted* block = find_in(s.sorted, s.last_hit, p); block != nullptr) {
    const u32 pair[2] = {block->index, static_cast<u32>(p - block->begin)};
    std::memcpy(at, pair, 8);
    w.pointed_lo = std::min(w.pointed_lo, p);
    w.pointed_hi = std::max(w.pointed_hi, p);
    // Where the next pointers resolve inline: up to where the next block in the order starts
    // (a later block starting inside this one is innermost there; one with the same base, never).
    const usize k = static_cast<usize>(block - s.sorted.data());
    const uintptr_t next = k + 1 < s.sorted.size() ? s.sorted[k + 1].begin : UINTPTR_MAX;
    w.block_lo = block->begin;
    w.block_hi = std::max(block->begin, std::min(block->end, next));
    w.block_index = block->index;
  } else {
    s.fixups.push_back({static_cast<usize>(at - s.body.data()), target, record, w.current});
  }
}

// The fused loop's interpreter, for classes without a compiled writer: one object's stream
// through its plan (room for plan.max_bytes at c.out), each link target found (added to the set,
// marked) as it is written, block pointers into the caller's blocks resolved at once, others left
// as 8 bytes to fill in finish_fused. The same bytes and the same discovery order as discover()
// then write_object(): a plan's links are its kObject ops, in order.
detail::FusedCursor write_fused(detail::FusedWriter& w, const detail::TypePlan& plan,
                                const std::byte* base, detail::FusedCursor c) {
  for (const detail::Op& op : plan.ops) {
    const std::byte* slot = base + op.offset;
    switch (op.kind) {
      case OpKind::kPassive:
        detail::copy_bytes(c.out, slot, op.length);
        c.out += op.length;
        break;
      case OpKind::kPointer: {
        // get_pointer() reads the slot as it lies (a T* as a void*): read it without the call.
        const void* target = nullptr;
        std::memcpy(&target, slot, sizeof target);
        if (target == nullptr) {
          put32(c.out, 0);
        } else {
          detail::fused_block_pointer(w, c, target, op.record);
          c.out += 8;
        }
        break;
      }
      case OpKind::kObject: {
        // A null slot needs no conversion to SaveObject* (get_object() adjusts the pointer).
        const void* raw = nullptr;
        std::memcpy(&raw, slot, sizeof raw);
        SaveObject* target = raw == nullptr ? nullptr : op.record->get_object(slot);
        put32(c.out, target == nullptr ? 0 : detail::fused_add<MarkAccess>(w, c, target));
        break;
      }
      case OpKind::kGone:
        std::memset(c.out, 0, op.length);
        c.out += op.length;
        break;
    }
  }
  return c;
}

Status save_set(SaveFile& file, SaveFile::Impl& s) {
  s.open_data_at = 0;
  s.phase = Phase::kPreSave;
  // While no object has a hook of its own, each one is written as soon as it is found: no hook
  // can change an object or declare a block before the save pass would have run, so the bytes
  // are the same. The data goes after room for the set header sized from the last save's object
  // count (moved once if that was wrong). This loop records nothing per object but its save id
  // (no info, links or own block: record_objects() makes them if a hook ends it).
  const usize header_at = s.body.size();
  const usize expected = std::max<usize>(
      s.objects.size(),
      static_cast<usize>(s.active->last_save.objects.load(std::memory_order_relaxed)));
  const usize written_at = header_at + kSetHeader + 4 * expected;
  if (s.body.size() < written_at) s.body.resize(written_at);
  s.fixups.clear();
  constexpr u8 kHookless = detail::kKeepsPreSave | detail::kKeepsSave;
  build_sorted(s);  // the caller's blocks: no object's own block is recorded in this loop
  // Each object is written by its class's compiled writer (detail/compiled.h) or else the
  // interpreter above; both share the writer and the cursor. The set grows in s.objects, sized
  // to its room until the loop ends. Objects are prefetched a few turns ahead; their targets'
  // marks are not (typing an object early to find its links cost more than the misses saved).
  detail::FusedWriter w;
  detail::FusedCursor c{s.body.data() + written_at, s.objects.size()};
  s.objects.resize(std::max<usize>(expected + 64, c.count + 1024));
  w.objects = s.objects.data();
  w.room = s.objects.size();
  w.marks_only = s.marks && !s.check_marks;
  w.session = &s;
  w.add = &fused_add_slow;
  w.grow = &fused_grow;
  w.pointer = &fused_pointer;
  usize i = 0;
  // (The body's ids and end as locals: the writers' stores may alias s.body's own fields.)
  std::byte* ids = s.body.data() + header_at + 5;
  std::byte* end = s.body.data() + s.body.size();
  for (; i < c.count; ++i) {
    if (i + 2 * kFusedAhead < c.count) prefetch(w.objects[i + 2 * kFusedAhead]);
    SaveObject* o = w.objects[i];
    const Typed t = type_of(s, *o);
    if (t.plan == nullptr || (t.keeps & kHookless) != kHookless) break;
    w.current = static_cast<u32>(i + 1);
    if (i < expected) std::memcpy(ids + 4 * i, &t.plan->save_id, 4);
    if (static_cast<usize>(end - c.out) < t.plan->max_bytes) {
      // Room in steps (resize zero-fills what it adds): up to the capacity the last save's size
      // reserved, then doubling.
      const usize used = static_cast<usize>(c.out - s.body.data());
      const usize need = used + t.plan->max_bytes;
      const usize step = std::max<usize>(need, s.body.size() + 256 * 1024);
      s.body.resize(std::max(need, step <= s.body.capacity() ? step : 2 * s.body.size()));
      c.out = s.body.data() + used;
      ids = s.body.data() + header_at + 5;
      end = s.body.data() + s.body.size();
    }
    // (t.keeps: the object is exactly the plan's class, which a compiled writer assumes.)
    c = t.plan->write != nullptr ? t.plan->write(w, t.base, c) : write_fused(w, *t.plan, t.base, c);
  }
  s.out = static_cast<usize>(c.out - s.body.data());
  s.objects.resize(c.count);
  if (i == c.count) {  // every object written
    AddressSpan span = end_fused_set(s);
    span.pointed_lo = w.pointed_lo;
    span.pointed_hi = w.pointed_hi;
    return finish_fused(s, header_at, written_at, expected, span);
  }
  // An object with a hook (or an unknown one): what was written is dropped, the objects found so
  // far get what the book's passes need, and they run from here.
  record_objects(s, 0, i, true, true);
  // Pre-save by index: objects found through templates are appended and pre-saved in turn. Each
  // object's block is declared right before its pre_save, as the load side does.
  for (; i < s.objects.size(); ++i) {
    if (i + 2 * kAhead < s.objects.size()) prefetch(s.objects[i + 2 * kAhead]);
    if (i + kAhead < s.objects.size()) prefetch_targets(s, s.objects[i + kAhead]);
    SaveObject* o = s.objects[i];
    const Typed t = type_of(s, *o);
    if (t.plan == nullptr) {
      return s.fail(Error(ErrorCode::kNotFound,
                          fmt::format("object {} has save id {}, which is not registered with "
                                      "the SaveSystem",
                                      i + 1, o->save_id())));
    }
    s.current = static_cast<u32>(i + 1);
    s.info.push_back({t.plan, t.base, static_cast<u32>(s.links.size()), 0, t.keeps});
    push_object_block(s, t.base, t.plan->size);
    if ((t.keeps & detail::kKeepsPreSave) != 0) {
      detail::discover(s, s.info.back());
    } else {
      KEEL_SAVE_TRY(o->pre_save(file));
      KEEL_SAVE_TRY(s.check());
    }
  }
  return save_pass(file, s, header_at, false);
}

Status read_extras(SaveFile::Impl& s, u64 object_data_end) {
  detail::Reader r(s.reader.data());
  r.seek(static_cast<usize>(object_data_end));
  u64 size = 0;
  if (!r.value(size) || size > r.remaining()) return s.fail(corrupt(s, "custom data is cut"));
  const usize end = r.pos() + static_cast<usize>(size);
  s.extra_data.clear();
  s.extra_next = 0;
  u32 last = 0;
  while (r.pos() < end) {
    u32 index = 0;
    u32 len = 0;
    // (The index and length may themselves run past the table: check before subtracting.)
    if (!r.value(index) || !r.value(len) || r.pos() > end || len > end - r.pos() || index <= last ||
        index > s.objects.size()) {
      return s.fail(corrupt(s, "custom data table is malformed"));
    }
    s.extra_data.push_back({index, r.data().subspan(r.pos(), len)});
    r.skip(len);
    last = index;
  }
  return {};
}

Status create_objects(SaveFile& file, SaveFile::Impl& s, u32 count) {
  s.created.reserve(s.created.size() + count);
  // Save id -> plan, direct-mapped (a set mixes a few classes).
  std::array<const detail::TypePlan*, 16> by_id{};
  for (u32 i = 0; i < count; ++i) {
    u32 id = 0;
    s.reader.value(id);
    const detail::TypePlan*& cached = by_id[id % by_id.size()];
    const detail::TypePlan* plan =
        cached != nullptr && cached->save_id == id ? cached : s.active->find(id);
    if (plan == nullptr) {
      return s.fail(corrupt(s, fmt::format("object {} has unknown save id {}", i + 1, id)));
    }
    cached = plan;
    std::unique_ptr<SaveObject> object = plan->create();
    if (!object) {
      return s.fail(Error(ErrorCode::kRefused,
                          fmt::format("the factory for save id {} made no such object", id)));
    }
    SaveObject* raw = object.get();
    const std::type_info* type = &typeid(*raw);
    // Exactly the class the plan was measured on (the factory's usual object): its save id,
    // address and hooks are known.
    const bool exact = type == plan->type;
    if (!exact && raw->save_id() != id) {
      return s.fail(Error(ErrorCode::kRefused,
                          fmt::format("the factory for save id {} made no such object", id)));
    }
    s.created.push_back(std::move(object));
    s.objects.push_back(raw);
    s.current = i + 1;
    std::byte* base =
        exact ? reinterpret_cast<std::byte*>(raw) - plan->object_at : complete_address(*raw);
    const u8 keeps = exact ? plan->keeps : 0;
    s.info.push_back({plan, base, 0, 0, keeps});
    s.targets.push_back({raw, type});
    push_object_block(s, base, plan->size);
    if ((keeps & detail::kKeepsPreLoad) == 0) {
      KEEL_SAVE_TRY(raw->pre_load(file));
      KEEL_SAVE_TRY(s.check());
    }
  }
  return {};
}

// Loading reads each link's target from `targets`, at random: a cache miss. A scout cursor walks
// the stream kAhead objects ahead of the load pass (prefetch only: it checks nothing and stops
// at anything odd) and prefetches the entries those objects' links will read.
const std::byte* scout_object(const SaveFile::Impl& s, const detail::TypePlan& plan,
                              const std::byte* p, const std::byte* end) {
  for (const detail::Op& op : plan.ops) {
    if (op.kind == OpKind::kPassive || op.kind == OpKind::kGone) {
      if (static_cast<usize>(end - p) < op.length) return end;
      p += op.length;
      continue;
    }
    if (end - p < 4) return end;
    u32 index = 0;
    std::memcpy(&index, p, 4);
    p += 4;
    if (op.kind == OpKind::kPointer) {
      if (index != 0) {
        if (end - p < 4) return end;
        p += 4;
      }
    } else if (index != 0 && index <= s.targets.size()) {
      __builtin_prefetch(&s.targets[index - 1]);
    }
  }
  return p;
}

u32 load32(const std::byte* p) {
  u32 v = 0;
  std::memcpy(&v, p, 4);
  return v;
}

// One op of a class's plan as load_fused's data pass reads it (plan.ops[k], compacted: the
// record is only needed to learn a cast and name a member in a message).
struct FusedOp {
  u32 offset;  // the slot, from the complete object
  u32 arg;     // passive, gone: length; pointer: alignment - 1; object: its row in `casts`
  OpKind kind;
};

// The classes of a set loaded by load_fused: each object's class is a one-byte index into them.
struct FusedClass {
  const detail::TypePlan* plan;
  u32 min_bytes = 0;             // the least one object's stream holds (null links)
  u32 max_bytes = 0;             // plan->max_bytes
  std::ptrdiff_t object_at = 0;  // plan->object_at
  std::vector<FusedOp> ops;
  u32 op_count = 0;  // ops.size()
  // Per object link (its kObject ops, in stream order) and target class: the adjustment from the
  // target's SaveObject to the slot's type, learned from the record's checked conversion on the
  // first such target (kUnknown until then; kWrongClass when it refused).
  std::vector<std::ptrdiff_t> casts;
  u32 objects = 0;     // in the set (load_fused counts them)
  u32 first_half = 0;  // of them, in the set's first half
};
constexpr std::ptrdiff_t kUnknown = PTRDIFF_MIN;
constexpr std::ptrdiff_t kWrongClass = PTRDIFF_MIN + 1;

// What load_fused's data pass reads besides the stream: the set's objects (all created) and
// their classes, and the caller's blocks.
struct FusedSet {
  const FusedClass* classes;
  const u8* kinds;
  SaveObject* const* objects;
  u32 count;
  const SaveFile::Impl::Block* blocks;
  usize caller_blocks;
};

// Reads one object's stream into the object at `base` (load_fused's data pass): passive bytes in
// place, each link straight to its target (every object of the set exists), checked as the
// book's passes check it: object indices in range and of the slot's class, block indices in
// range, offsets inside their block and aligned for the slot's type. Returns why it failed (`in`
// at the failed op, `failed` its index), else null; a slot is only ever written with a pointer
// that passed its checks, so a failed load leaves no bad pointer for a destructor. `kRoom`: the
// stream holds the class's most bytes (plan.max_bytes) from `in`, so no op checks the end.
template <bool kRoom>
const char* read_linked(const FusedSet set, FusedClass& c, std::byte* base, const std::byte*& in,
                        const std::byte* end, usize& failed) {
  // (Locals, not loads through `c`: the slots written are bytes, which may alias anything.)
  const std::byte* p = in;
  const char* why = nullptr;
  const FusedOp* const ops = c.ops.data();
  const usize n = c.op_count;
  std::ptrdiff_t* const casts = c.casts.data();
  usize k = 0;
  for (; k < n; ++k) {
    const FusedOp op = ops[k];
    std::byte* const slot = base + op.offset;
    // (Object links first: plans hold most of them; each common case takes few branches.)
    if (op.kind != OpKind::kObject) {
      if (op.kind == OpKind::kPassive) {
        if (!kRoom && static_cast<usize>(end - p) < op.arg) {
          why = "data ends early";
          break;
        }
        detail::copy_bytes(slot, p, op.arg);
        p += op.arg;
        continue;
      }
      if (op.kind == OpKind::kGone) [[unlikely]] {
        if (!kRoom && static_cast<usize>(end - p) < op.arg) {
          why = "data ends early";
          break;
        }
        p += op.arg;
        continue;
      }
    }
    if (!kRoom && end - p < 4) {
      why = "data ends early";
      break;
    }
    const u32 index = load32(p);
    std::byte* to = nullptr;
    if (op.kind == OpKind::kObject) {
      if (index - 1 < set.count) [[likely]] {  // (0, null, wraps)
        SaveObject* const target = set.objects[index - 1];
        std::ptrdiff_t& slot_cast = casts[op.arg + set.kinds[index - 1]];
        std::ptrdiff_t cast = slot_cast;
        if (cast <= kWrongClass) [[unlikely]] {  // not learned yet, or refused
          if (cast == kUnknown) {
            const Record* record = c.plan->ops[k].record;
            if (record->set_object(slot, target)) {
              std::byte* stored = nullptr;
              std::memcpy(&stored, slot, sizeof stored);
              cast = stored - reinterpret_cast<std::byte*>(target);
            } else {
              cast = kWrongClass;
            }
            slot_cast = cast;
          }
          if (cast == kWrongClass) {
            why = "points to an object of the wrong class";
            break;
          }
        }
        to = reinterpret_cast<std::byte*>(target) + cast;
      } else if (index != 0) {
        why = "object index out of range";
        break;
      }
      p += 4;
    } else if (index != 0) {
      if (!kRoom && end - p < 8) {
        p += 4;
        why = "data ends early";
        break;
      }
      if (index > set.caller_blocks + u64{set.count}) {
        why = "block index out of range";
        break;
      }
      const u32 offset = load32(p + 4);
      // The caller's blocks, then one per object of the set (its complete object).
      const std::byte* block_base = nullptr;
      usize block_length = 0;
      if (index <= set.caller_blocks) {
        block_base = set.blocks[index - 1].base;
        block_length = set.blocks[index - 1].length;
      } else {
        const usize o = index - set.caller_blocks - 1;
        const FusedClass& of = set.classes[set.kinds[o]];
        block_base = reinterpret_cast<const std::byte*>(set.objects[o]) - of.object_at;
        block_length = of.plan->size;
      }
      to = const_cast<std::byte*>(block_base) + offset;
      // Alignments are powers of two.
      if (offset >= block_length) {
        why = "offset beyond its block";
        break;
      }
      if ((reinterpret_cast<uintptr_t>(to) & op.arg) != 0) {
        why = "pointer is misaligned for its type";
        break;
      }
      p += 8;
    } else {
      p += 4;
    }
    // (What the records' set_object / set_pointer store: a T* made from a complete object's
    // address plus the learned adjustment, or from a void*, has its bits.)
    std::memcpy(slot, &to, sizeof to);
  }
  in = p;
  failed = k;
  return why;
}

// load_fused's data pass: reads every object's stream (read_linked). Returns why one failed
// (`failed_object`, `failed_op`; `in` at the failed op), else null.
[[gnu::noinline]] const char* read_objects(const FusedSet& set, const std::byte*& in,
                                           const std::byte* end, u32& failed_object,
                                           usize& failed_op) {
  const FusedSet local = set;  // (in registers: see read_linked)
  const u8* const kinds = local.kinds;
  SaveObject* const* const objects = local.objects;
  FusedClass* const classes = const_cast<FusedClass*>(local.classes);
  const u32 count = local.count;
  const std::byte* at = in;
  for (u32 i = 0; i < count; ++i) {
    FusedClass& c = classes[kinds[i]];
    std::byte* const base = reinterpret_cast<std::byte*>(objects[i]) - c.object_at;
    usize op = 0;
    const char* why = static_cast<usize>(end - at) >= c.max_bytes
                          ? read_linked<true>(local, c, base, at, end, op)
                          : read_linked<false>(local, c, base, at, end, op);
    if (why != nullptr) {
      in = at;
      failed_object = i;
      failed_op = op;
      return why;
    }
  }
  in = at;
  return nullptr;
}

// A set whose classes all keep the default pre_load and load hooks (no game code runs between
// creating the objects and reading them, and none declares a block) loads in the book's order
// without its hooks: the save ids precede the data, so every object is created first (class by
// class, see below: the allocations), then one pass over the stream reads each object with
// every link resolved at once, its target already existing. The per-object
// bookkeeping is the object list and one byte (its class); objects' own blocks are found from
// the object list (with no hook, block i of the set's objects follows the caller's blocks).
// Every check of the book's passes is made as the link is read; on a failure the session drops
// the objects it created (end()), and no slot holds anything but a checked pointer or its
// constructor's value. Returns false, having changed nothing, when the set needs the book's
// passes (a hook of its own, an unknown save id, a factory making another class, blocks or
// custom data other than a hook-less save writes): they run and report any error as before.
bool load_fused(SaveFile::Impl& s, u32 count, Status& result) {
  const ByteSpan data = s.reader.data();
  const std::byte* const body = data.data();
  const usize ids_at = s.reader.pos();
  const usize header_at = ids_at + usize{count} * 4;  // load_set checked count * 4 <= remaining
  if (data.size() - header_at < 12) return false;
  const u32 hash = load32(body + header_at);
  u64 data_size = 0;
  std::memcpy(&data_size, body + header_at + 4, 8);
  const usize data_at = header_at + 12;
  if (data_size > data.size() - data_at || data.size() - data_at - data_size < 8) return false;
  const usize data_end = data_at + static_cast<usize>(data_size);
  u64 extras = 1;
  std::memcpy(&extras, body + data_end, 8);
  if (extras != 0 || hash != block_hash(s)) return false;
  // Every object's class, through a direct-mapped save id cache, and the least the stream holds
  // for these objects (every link null): a file whose data is shorter fails before anything is
  // created, so the objects made stay bounded by its bytes.
  std::vector<FusedClass> classes;
  struct IdSlot {
    u32 id = 0;
    u32 cls = UINT32_MAX;
    u64 min_bytes = 0;
  };
  std::array<IdSlot, 64> by_id{};
  constexpr u8 kDefaults = detail::kKeepsPreLoad | detail::kKeepsLoad;
  std::vector<u8>& kinds = s.kinds;
  kinds.resize(count);  // bounded by the file: each object's save id took 4 of its bytes
  u64 least = 0;        // (fewer than 2^26 objects of a u32 each: no overflow)
  for (u32 i = 0; i < count; ++i) {
    if (i == count / 2) {
      for (FusedClass& c : classes) c.first_half = c.objects;
    }
    const u32 id = load32(body + ids_at + 4 * usize{i});
    IdSlot& slot = by_id[id % by_id.size()];
    if (slot.cls == UINT32_MAX || slot.id != id) {
      const detail::TypePlan* plan = s.active->find(id);
      if (plan == nullptr || plan->type == nullptr || (plan->keeps & kDefaults) != kDefaults) {
        return false;
      }
      u32 c = 0;
      while (c < classes.size() && classes[c].plan != plan) ++c;
      if (c == classes.size()) {
        if (c > UINT8_MAX) return false;
        u32 min_bytes = 0;
        for (const detail::Op& op : plan->ops) {
          min_bytes += op.kind == OpKind::kPassive || op.kind == OpKind::kGone ? op.length : 4;
        }
        classes.push_back({plan, min_bytes, plan->max_bytes, plan->object_at, {}, 0, {}, 0, 0});
      }
      slot = {id, c, classes[c].min_bytes};
    }
    kinds[i] = static_cast<u8>(slot.cls);
    ++classes[slot.cls].objects;
    least += slot.min_bytes;
  }
  if (least > data_size) {
    s.reader.seek(data_at);
    result = s.fail(corrupt(
        s, fmt::format("object data of {} bytes is shorter than its {} objects' templates need",
                       data_size, count)));
    return true;
  }
  for (FusedClass& c : classes) {
    usize links = 0;
    for (const detail::Op& op : c.plan->ops) {
      u32 arg = op.length;
      if (op.kind == OpKind::kPointer) arg = op.record->target_align - 1;
      if (op.kind == OpKind::kObject) arg = static_cast<u32>(links++ * classes.size());
      c.ops.push_back({op.offset, arg, op.kind});
    }
    c.op_count = static_cast<u32>(c.ops.size());
    c.casts.assign(links * classes.size(), kUnknown);
  }
  // The objects, class by class: one factory called again and again is a call the processor
  // predicts, and objects of one class lie together (freeing them later costs less). `created`
  // and the object list hold them in file order (`order`: the set's objects by class).
  std::vector<u32>& order = s.fused_order;
  order.resize(count);
  // The classes are made largest first (stable). glibc then lays the smallest objects highest,
  // and when the caller frees the objects (in file order) and its list, its consolidation of
  // the freed chunks (smallest size first, last freed first) merges each into the top of the
  // heap in turn. (Measured with the benchmark's graph: its smaller class made first, 3.2 ms
  // against 2.95 ms; saved from a root of the smaller class, 3.03-3.05 ms against 2.93-2.94.)
  std::array<u8, 256> made{};  // class indices in the order they are made
  for (usize c = 0; c < classes.size(); ++c) {
    usize k = c;
    for (; k > 0 && classes[made[k - 1]].plan->size < classes[c].plan->size; --k) {
      made[k] = made[k - 1];
    }
    made[k] = static_cast<u8>(c);
  }
  std::array<u32, 256> start{};
  {
    // Each class's objects in file order from where the class starts; the set's two halves are
    // placed at once (an object's place waits for the last of its class in its half).
    std::array<u32, 256> next_lo{};
    std::array<u32, 256> next_hi{};
    u32 at = 0;
    for (usize k = 0; k < classes.size(); ++k) {
      const u8 c = made[k];
      start[c] = at;
      next_lo[c] = at;
      next_hi[c] = at + classes[c].first_half;
      at += classes[c].objects;
    }
    const u32 half = count / 2;
    u32* const out = order.data();
    for (u32 i = 0; i < half; ++i) {
      out[next_lo[kinds[i]]++] = i;
      out[next_hi[kinds[half + i]]++] = half + i;
    }
    if (count % 2 != 0) out[next_hi[kinds[count - 1]]++] = count - 1;
  }
  const usize first_created = s.created.size();
  s.created.resize(first_created + count);  // (null until made)
  std::unique_ptr<SaveObject>* const owned = s.created.data() + first_created;
  s.objects.resize(count);
  SaveObject** const objects = s.objects.data();
  for (usize k = 0; k < classes.size(); ++k) {
    const FusedClass& c = classes[made[k]];
    std::unique_ptr<SaveObject> (*const create)() = c.plan->create;
    const std::type_info* const type = c.plan->type;
    const u32* const first = order.data() + start[made[k]];
    const u32* const last = first + c.objects;
    for (const u32* at = first; at != last; ++at) {
      std::unique_ptr<SaveObject> object = create();
      SaveObject* const raw = object.get();
      if (raw == nullptr || &typeid(*raw) != type) {
        // Not the class the plan was measured on: the book's passes (virtual hooks) take the set.
        s.created.resize(first_created);
        s.objects.clear();
        return false;
      }
      const u32 i = *at;
      // (Over a null pointer: no old object to delete, so no read of the slot.)
      std::construct_at(&owned[i], object.release());
      objects[i] = raw;
    }
  }
  s.extra_data.clear();
  s.extra_next = 0;
  s.phase = Phase::kLoad;
  const FusedSet set{classes.data(), kinds.data(),    s.objects.data(),
                     count,          s.blocks.data(), s.blocks.size()};
  const std::byte* in = body + data_at;
  const std::byte* const end = body + data_end;
  u32 i = 0;
  usize failed = 0;
  const char* why = read_objects(set, in, end, i, failed);
  {
    if (why != nullptr) {
      const FusedClass& c = classes[kinds[i]];
      s.current = i + 1;
      s.reader.seek(static_cast<usize>(in - body));
      result = s.fail(Error(
          ErrorCode::kCorrupt,
          fmt::format("save data corrupt at body byte {}: object {} ({}) member '{}': {}",
                      s.reader.pos(), i + 1, c.plan->name, c.plan->ops[failed].record->name, why)));
      return true;
    }
  }
  if (in != end) {
    s.reader.seek(static_cast<usize>(in - body));
    result = s.fail(corrupt(s, "object data is longer than the templates read"));
    return true;
  }
  s.reader.seek(data_end + 8);  // the custom data table, empty
  result = {};
  return true;
}

// The book's passes: pre_load of every object (creating them), then load of every object.
Status load_passes(SaveFile& file, SaveFile::Impl& s, u32 count) {
  s.phase = Phase::kPreLoad;
  KEEL_SAVE_TRY(create_objects(file, s, count));
  u32 hash = 0;
  u64 data_size = 0;
  if (!s.reader.value(hash) || !s.reader.value(data_size) || data_size > s.reader.remaining()) {
    return s.fail(corrupt(s, "object set header is cut"));
  }
  if (hash != block_hash(s) && hash != block_hash(s, true)) {
    return s.fail(Error(ErrorCode::kCorrupt,
                        fmt::format("memory blocks differ from the save's ({} declared now): "
                                    "declare the same blocks, in the same order and sizes",
                                    s.blocks.size())));
  }
  const u64 data_end = s.reader.pos() + data_size;
  KEEL_SAVE_TRY(read_extras(s, data_end));
  s.phase = Phase::kLoad;
  const std::byte* scout = s.reader.data().data() + s.reader.pos();
  const std::byte* const data_stop = s.reader.data().data() + data_end;
  usize scouted = 0;
  for (usize i = 0; i < s.objects.size(); ++i) {
    if (i + kAhead < s.info.size()) prefetch(s.info[i + kAhead].base);
    for (; scouted < s.info.size() && scouted < i + kAhead; ++scouted) {
      scout = scout_object(s, *s.info[scouted].plan, scout, data_stop);
    }
    s.current = static_cast<u32>(i + 1);
    s.extra_reader = detail::Reader();
    if (s.extra_next < s.extra_data.size() && s.extra_data[s.extra_next].index == i + 1) {
      s.extra_reader = detail::Reader(s.extra_data[s.extra_next++].data);
    }
    const auto& info = s.info[i];
    if ((info.keeps & detail::kKeepsLoad) != 0) {
      KEEL_SAVE_TRY(detail::read_object(s, *info.plan, info.base));
    } else {
      KEEL_SAVE_TRY(s.objects[i]->load(file));
      KEEL_SAVE_TRY(s.check());
    }
    if (s.extra_reader.remaining() != 0) {
      return s.fail(Error(ErrorCode::kCorrupt,
                          fmt::format("object {} ({}) left {} bytes of its custom data unread: "
                                      "load() must read what save() wrote",
                                      i + 1, info.plan->name, s.extra_reader.remaining())));
    }
  }
  if (s.reader.pos() != data_end) {
    return s.fail(corrupt(s, "object data is longer than the templates read"));
  }
  s.reader.seek(static_cast<usize>(data_end));
  u64 extras = 0;
  s.reader.value(extras);
  s.reader.skip(static_cast<usize>(extras));
  return {};
}

Status load_set(SaveFile& file, SaveFile::Impl& s) {
  if (s.data_left != 0) {
    return s.fail(usage_error(fmt::format(
        "process_objects() with {} bytes of client data unread; get() them first", s.data_left)));
  }
  u8 tag = 0;
  u32 count = 0;
  if (!s.reader.value(tag) || tag != kSetSection) {
    return s.fail(corrupt(s,
                          "no object set here (the save has fewer sets, or client data was "
                          "not read)"));
  }
  if (!s.reader.value(count) || count > kMaxObjects || u64{count} * 4 > s.reader.remaining()) {
    return s.fail(corrupt(s, "object count is out of range"));
  }
  Status st;
  if (!load_fused(s, count, st)) st = load_passes(file, s, count);
  if (!st) return st;
  std::span<SaveObject* const> set(s.objects);
  if (s.upgrade != nullptr) KEEL_SAVE_TRY((*s.upgrade)(set));
  // The set's objects are the ones it created, in order.
  s.created_raw.insert(s.created_raw.end(), s.objects.begin(), s.objects.end());
  return {};
}

}  // namespace

const Sorted* detail::find_block_for(SaveFile::Impl& s, uintptr_t p) { return find_block(s, p); }

namespace {
std::atomic<bool> g_marking{false};  // a save session marks objects
}  // namespace

bool detail::claim_marks() {
  bool expected = false;
  return g_marking.compare_exchange_strong(expected, true, std::memory_order_acquire);
}

namespace {
// Some session ended with declared objects it never processed: their marks were left.
std::atomic<bool> g_marks_stale{false};
}  // namespace

bool detail::marks_may_be_stale() { return g_marks_stale.load(std::memory_order_acquire); }

void detail::release_marks(SaveFile::Impl& s) {
  if (!std::exchange(s.marks, false)) return;
  if (!s.objects.empty()) g_marks_stale.store(true, std::memory_order_release);
  g_marking.store(false, std::memory_order_release);
}

void detail::reset_marks(SaveFile::Impl& s) {
  const usize count = s.objects.size();
  for (usize i = 0; i < count; ++i) {
    if (i + 2 * kAhead < count) __builtin_prefetch(s.objects[i + 2 * kAhead], 1);
    MarkAccess::set(*s.objects[i], 0);
  }
}

Status SaveFile::process_objects() {
  Impl& s = *impl_;
  KEEL_SAVE_TRY(s.check());
  if (s.phase != Phase::kNone) {
    return s.fail(usage_error("process_objects() called from inside an object's hook"));
  }
  Status result;
  if (s.mode == Mode::kSaving) {
    if (s.objects.empty()) {
      return s.fail(usage_error("process_objects() with no declared objects"));
    }
    result = save_set(*this, s);
  } else if (s.mode == Mode::kLoading) {
    if (!s.objects.empty()) {
      return s.fail(usage_error("declare_object() is for saving"));
    }
    result = load_set(*this, s);
  } else {
    return s.fail(usage_error("process_objects() outside a session"));
  }
  s.phase = Phase::kNone;
  s.current = 0;
  if (result && s.mode == Mode::kSaving) {  // sizes for the next save's reserve (begin_save)
    auto& hint = s.active->last_save;
    hint.objects.store(s.objects.size(), std::memory_order_relaxed);
    hint.links.store(s.links.size(), std::memory_order_relaxed);
  }
  if (s.marks && !s.marks_reset) detail::reset_marks(s);
  s.marks_reset = false;
  s.blocks.clear();
  s.object_block.clear();
  s.objects.clear();
  s.info.clear();
  s.links.clear();
  s.targets.clear();
  if (!s.object_index.empty()) s.object_index.clear();  // clear() rewrites the whole table
  s.sorted.clear();
  s.sorted_objects.clear();
  if (result && s.mode == Mode::kLoading) {
    // Objects stay owned by the session until end() succeeds.
  }
  return result;
}

}  // namespace keel::save
