// Saving and loading 100,000 objects of two classes with pointers between them (a graph: every
// node points back to the previous node and to a random earlier "buddy", owns a prop; every prop
// points to its owner and into a name pool, a declared memory block), against:
//   (a) keel::serial writing the same fields of the same objects in the same order, pointers as
//       raw addresses (no fix-up; loads create and fill one heap object per record): the
//       floor, goal <= 1.5x;
//   (b) cereal's binary archive with std::shared_ptr graphs (weak_ptr back to the owner): goal
//       faster (ratio < 1);
//   (c) what a programmer writes by hand without keel::save: keel::serial plus a pointer ->
//       index table (keel::PrehashedMap), the graph found from the same root, pointers written
//       as indices and the name as an offset into its pool; its load makes the objects and fixes
//       every pointer. Not a goal of the issue: the fair comparison for the work keel::save does
//       (the floor is handed the walk order and translates nothing);
//   (d) the least work that saves this graph correctly (the floor made honest): the same
//       discovery from the same root, one mark per object in the object itself (SaveObject's),
//       pointers as indices, the name as a pool offset, keel::serial, no checksum, marks reset
//       after; keel::save's goal is <= 1.5x of it.
// Node and Prop save through compiled writers (their templates are defined here, before
// save_system() registers them: keel/save/detail/compiled.h).
// keel::save runs in memory without compression (checksums included) for the ratios; the zstd
// runs report MB/s of the object stream.
#include "bench_support.h"

#include "keel/core/prehashed_map.h"
#include "keel/save/detail/session.h"
#include "keel/save/save_file.h"
#include "keel/save/system.h"
#include "keel/serial/serial.h"

#include <benchmark/benchmark.h>
#include <cereal/archives/binary.hpp>
#include <cereal/types/memory.hpp>
#include <cereal/types/vector.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <istream>
#include <memory>
#include <ostream>
#include <streambuf>
#include <unordered_set>
#include <vector>

namespace {

using namespace keel;

constexpr u32 kNodes = 50'000;  // + one prop each = 100,000 objects
char g_pool[4096];

void check(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "save_bench: %s\n", what);
    std::abort();
  }
}

class Prop;
class Node : public save::SaveObject {
  KEEL_SAVABLE(Node, 1)
  u32 id = 0;
  u32 hp = 0;
  f32 pos[3] = {};
  Node* prev = nullptr;
  Node* buddy = nullptr;
  Prop* prop = nullptr;
};
class Prop : public save::SaveObject {
  KEEL_SAVABLE(Prop, 2)
  u32 id = 0;
  f64 value = 0;
  const char* name = nullptr;
  Node* owner = nullptr;
};
KEEL_SAVE_TEMPLATE(Node) = {KEEL_SAVEDEF(Node),        KEEL_SAVEDATA(Node, id),
                            KEEL_SAVEDATA(Node, hp),   KEEL_SAVEDATA(Node, pos),
                            KEEL_SAVEPOBJ(Node, prev), KEEL_SAVEPOBJ(Node, buddy),
                            KEEL_SAVEPOBJ(Node, prop), KEEL_SAVEEND()};
KEEL_SAVE_TEMPLATE(Prop) = {KEEL_SAVEDEF(Prop),         KEEL_SAVEDATA(Prop, id),
                            KEEL_SAVEDATA(Prop, value), KEEL_SAVEPTR(Prop, name),
                            KEEL_SAVEPOBJ(Prop, owner), KEEL_SAVEEND()};

const save::SaveSystem& save_system() {
  static const save::SaveSystem s({save::type<Node>(), save::type<Prop>()});
  return s;
}

u32 lcg(u32& s) {
  s = s * 1664525u + 1013904223u;
  return s >> 8;
}

struct Graph {
  std::vector<std::unique_ptr<Node>> nodes;
  std::vector<std::unique_ptr<Prop>> props;
  std::vector<u32> buddy;  // indices, for the floor and cereal
  Graph() {
    u32 seed = 99;
    for (u32 i = 0; i < kNodes; ++i) {
      auto n = std::make_unique<Node>();
      auto p = std::make_unique<Prop>();
      n->id = i;
      n->hp = lcg(seed) % 1000;
      n->pos[0] = static_cast<f32>(lcg(seed) % 1000);
      n->pos[2] = 0.5f * static_cast<f32>(i);
      n->prev = i > 0 ? nodes.back().get() : nullptr;
      buddy.push_back(i > 0 ? lcg(seed) % i : 0);
      n->buddy = i > 0 ? nodes[buddy.back()].get() : nullptr;
      p->id = i + kNodes;
      p->value = lcg(seed) / 3.0;
      p->name = g_pool + lcg(seed) % sizeof g_pool;
      p->owner = n.get();
      n->prop = p.get();
      nodes.push_back(std::move(n));
      props.push_back(std::move(p));
    }
  }
};

const Graph& graph() {
  static const Graph g;
  return g;
}

// Saves the graph to memory: the encoded file is `f.bytes()` (not copied, as the floor's bytes
// stay in its saver).
void keel_save_into(save::SaveFile& f, save::Compression compression) {
  save::SaveOptions options;
  options.compression = compression;
  Status st = f.begin_save({}, options);
  f.declare_block(g_pool, sizeof g_pool);
  f.declare_object(graph().nodes.back().get());
  if (st) st = f.process_objects();
  check(static_cast<bool>(f.end(st)), "keel::save failed");
}

ByteBuffer keel_save(save::Compression compression) {
  save::SaveFile f(save_system());
  keel_save_into(f, compression);
  return f.bytes();
}

usize keel_load(ByteSpan bytes) {
  save::SaveFile f(save_system());
  Status st = f.begin_load_in_place(bytes);  // as the floor reads its bytes where they are
  f.declare_block(g_pool, sizeof g_pool);
  if (st) st = f.process_objects();
  check(static_cast<bool>(f.end(st)), "keel::save load failed");
  return f.take_objects().size();
}

void BM_KeelSaveGraph(benchmark::State& state) {
  const auto compression = static_cast<save::Compression>(state.range(0));
  usize body = 0;
  for (auto _ : state) {
    save::SaveFile f(save_system());
    keel_save_into(f, compression);
    benchmark::DoNotOptimize(f.bytes().data());
    body = f.bytes().size();
  }
  state.SetBytesProcessed(static_cast<s64>(state.iterations() * body));
  state.counters["file_bytes"] = static_cast<double>(body);
}
BENCHMARK(BM_KeelSaveGraph)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

void BM_KeelLoadGraph(benchmark::State& state) {
  const ByteBuffer bytes = keel_save(static_cast<save::Compression>(state.range(0)));
  check(keel_load(bytes) == 2 * kNodes, "keel::save loaded the wrong count");
  for (auto _ : state) benchmark::DoNotOptimize(keel_load(bytes));
  state.SetBytesProcessed(static_cast<s64>(state.iterations() * bytes.size()));
}
BENCHMARK(BM_KeelLoadGraph)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

// --- (a) keel::serial, the same fields of the same objects, no pointer fix-up -------------
// The floor walks the objects keel::save saves, in the order it saves them (found from the same
// root through the same pointers, computed once), and writes every saved field of each object
// as it lies in memory through keel::serial, pointers as their raw address (no translation to
// an index, no block lookup). Its load creates one heap object per record and fills it; the
// pointers stay null (nothing to fix up without a translation).

struct Walk {
  std::vector<save::SaveObject*> order;  // keel::save's discovery order from the root
  std::vector<u8> is_node;
};

const Walk& walk() {
  static const Walk w = [] {
    Walk out;
    std::unordered_set<const save::SaveObject*> seen;
    auto add = [&](save::SaveObject* o, bool node) {
      if (o != nullptr && seen.insert(o).second) {
        out.order.push_back(o);
        out.is_node.push_back(node ? 1 : 0);
      }
    };
    add(graph().nodes.back().get(), true);
    for (usize i = 0; i < out.order.size(); ++i) {
      if (out.is_node[i] != 0) {
        auto* n = static_cast<Node*>(out.order[i]);
        add(n->prev, true);
        add(n->buddy, true);
        add(n->prop, false);
      } else {
        add(static_cast<Prop*>(out.order[i])->owner, true);
      }
    }
    check(out.order.size() == 2 * kNodes, "floor walk missed objects");
    return out;
  }();
  return w;
}

u64 raw(const void* p) { return static_cast<u64>(reinterpret_cast<uintptr_t>(p)); }

void floor_save(serial::GrowingSaver& saver) {
  const Walk& w = walk();
  saver.put(static_cast<u32>(w.order.size()));
  for (usize i = 0; i < w.order.size(); ++i) {
    if (w.is_node[i] != 0) {
      const auto& n = *static_cast<const Node*>(w.order[i]);
      saver.put(u8{1});
      saver.put_block(n.id, n.hp, n.pos[0], n.pos[1], n.pos[2], raw(n.prev), raw(n.buddy),
                      raw(n.prop));
    } else {
      const auto& p = *static_cast<const Prop*>(w.order[i]);
      saver.put(u8{2});
      saver.put_block(p.id, p.value, raw(p.name), raw(p.owner));
    }
  }
}

void BM_SerialSaveFloor(benchmark::State& state) {
  serial::GrowingSaver saver;
  for (auto _ : state) {
    saver.clear();
    floor_save(saver);
    benchmark::DoNotOptimize(saver.bytes().data());
  }
  state.SetBytesProcessed(static_cast<s64>(state.iterations() * saver.used()));
}
BENCHMARK(BM_SerialSaveFloor)->Unit(benchmark::kMillisecond);

std::vector<std::unique_ptr<save::SaveObject>> floor_load(ByteSpan bytes) {
  serial::BufferLoader loader(bytes);
  u32 count = 0;
  loader(count);
  std::vector<std::unique_ptr<save::SaveObject>> objects;
  objects.reserve(count);
  u64 ignored = 0;
  for (u32 i = 0; i < count; ++i) {
    u8 kind = 0;
    loader(kind);
    if (kind == 1) {
      auto n = std::make_unique<Node>();
      loader(n->id, n->hp, n->pos[0], n->pos[1], n->pos[2], ignored, ignored, ignored);
      objects.push_back(std::move(n));
    } else {
      auto p = std::make_unique<Prop>();
      loader(p->id, p->value, ignored, ignored);
      objects.push_back(std::move(p));
    }
  }
  check(static_cast<bool>(loader.finish()), "serial load failed");
  return objects;
}

void BM_SerialLoadFloor(benchmark::State& state) {
  serial::GrowingSaver saver;
  floor_save(saver);
  const ByteBuffer bytes = saver.to_vector();
  check(floor_load(bytes).size() == 2 * kNodes, "serial floor loaded the wrong count");
  for (auto _ : state) {
    auto objects = floor_load(bytes);
    benchmark::DoNotOptimize(objects.data());
  }
  state.SetBytesProcessed(static_cast<s64>(state.iterations() * bytes.size()));
}
BENCHMARK(BM_SerialLoadFloor)->Unit(benchmark::kMillisecond);

// --- (c) by hand: keel::serial and a pointer -> index table ---------------------------------

struct HandWritten {
  PrehashedMap<u64, u32> index;  // object address -> its index in `order` (+1: 0 is null)
  std::vector<save::SaveObject*> order;
  std::vector<u8> is_node;

  u32 id_of(save::SaveObject* o, bool node) {
    if (o == nullptr) return 0;
    const auto [slot, added] = index.insert(raw(o), static_cast<u32>(order.size() + 1));
    if (added) {
      order.push_back(o);
      is_node.push_back(node ? 1 : 0);
    }
    return *slot;
  }

  void save(serial::GrowingSaver& saver) {
    index.clear();
    order.clear();
    is_node.clear();
    index.reserve(2 * kNodes);
    id_of(graph().nodes.back().get(), true);
    // Found and written in one pass: each object's links are numbered when it is written, so an
    // object is written after every object that links to it first.
    for (usize i = 0; i < order.size(); ++i) {
      if (is_node[i] != 0) {
        auto& n = *static_cast<Node*>(order[i]);
        const u32 prev = id_of(n.prev, true);
        const u32 buddy = id_of(n.buddy, true);
        const u32 prop = id_of(n.prop, false);
        saver.put(u8{1});
        saver.put_block(n.id, n.hp, n.pos[0], n.pos[1], n.pos[2], prev, buddy, prop);
      } else {
        auto& p = *static_cast<Prop*>(order[i]);
        const u32 owner = id_of(p.owner, true);
        saver.put(u8{2});
        saver.put_block(p.id, p.value, static_cast<u32>(p.name - g_pool), owner);
      }
    }
    saver.put(static_cast<u32>(order.size()));  // a trailer: the count is known at the end
  }
};

void BM_HandWrittenSave(benchmark::State& state) {
  serial::GrowingSaver saver;
  HandWritten h;
  for (auto _ : state) {
    saver.clear();
    h.save(saver);
    benchmark::DoNotOptimize(saver.bytes().data());
  }
  check(h.order.size() == 2 * kNodes, "hand-written save missed objects");
  state.SetBytesProcessed(static_cast<s64>(state.iterations() * saver.used()));
}
BENCHMARK(BM_HandWrittenSave)->Unit(benchmark::kMillisecond);

std::vector<std::unique_ptr<save::SaveObject>> hand_written_load(ByteSpan bytes) {
  check(bytes.size() >= 4, "hand-written load: no trailer");
  u32 count = 0;
  serial::BufferLoader trailer(bytes.subspan(bytes.size() - 4));
  trailer(count);
  serial::BufferLoader loader(bytes.first(bytes.size() - 4));
  std::vector<std::unique_ptr<save::SaveObject>> objects;
  std::vector<u8> kinds;
  std::vector<u32> links;  // per object: prev, buddy, prop (nodes) or owner (props)
  objects.reserve(count);
  kinds.reserve(count);
  links.reserve(2 * static_cast<usize>(count));
  for (u32 i = 0; i < count; ++i) {
    u8 kind = 0;
    loader(kind);
    kinds.push_back(kind);
    if (kind == 1) {
      auto n = std::make_unique<Node>();
      u32 prev = 0, buddy = 0, prop = 0;
      loader(n->id, n->hp, n->pos[0], n->pos[1], n->pos[2], prev, buddy, prop);
      links.insert(links.end(), {prev, buddy, prop});
      objects.push_back(std::move(n));
    } else {
      auto p = std::make_unique<Prop>();
      u32 name = 0, owner = 0;
      loader(p->id, p->value, name, owner);
      check(name < sizeof g_pool, "hand-written load: name out of the pool");
      p->name = g_pool + name;
      links.push_back(owner);
      objects.push_back(std::move(p));
    }
  }
  check(static_cast<bool>(loader.finish()), "hand-written load failed");
  // Fix the pointers from the indices (checked: a bad index is an error, not a wild pointer;
  // a real loader would also check each target's kind).
  const auto at = [&](u32 id) -> save::SaveObject* {
    check(id <= objects.size(), "hand-written load: link out of range");
    return id == 0 ? nullptr : objects[id - 1].get();
  };
  usize l = 0;
  for (usize i = 0; i < objects.size(); ++i) {
    if (kinds[i] == 1) {
      auto* n = static_cast<Node*>(objects[i].get());
      n->prev = static_cast<Node*>(at(links[l]));
      n->buddy = static_cast<Node*>(at(links[l + 1]));
      n->prop = static_cast<Prop*>(at(links[l + 2]));
      l += 3;
    } else {
      static_cast<Prop*>(objects[i].get())->owner = static_cast<Node*>(at(links[l++]));
    }
  }
  return objects;
}

void BM_HandWrittenLoad(benchmark::State& state) {
  serial::GrowingSaver saver;
  HandWritten h;
  h.save(saver);
  const ByteBuffer bytes = saver.to_vector();
  check(hand_written_load(bytes).size() == 2 * kNodes, "hand-written load: wrong count");
  for (auto _ : state) {
    auto objects = hand_written_load(bytes);
    benchmark::DoNotOptimize(objects.data());
  }
  state.SetBytesProcessed(static_cast<s64>(state.iterations() * bytes.size()));
}
BENCHMARK(BM_HandWrittenLoad)->Unit(benchmark::kMillisecond);

// --- (d) the least work that saves this graph correctly: a marked walk ---------------------
// What any saver that finds the graph itself must do, and nothing else: the same breadth-first
// discovery from the same root as keel::save, "seen?" and "index of" from one mark the object
// carries (SaveObject's own u32, the one keel::save marks: the walk knows nothing the Graph
// numbers), pointers written as 1-based indices (0 = null), the name as an offset into its pool
// (the one block, known statically), through keel::serial, found and written in one pass (an
// object's links are numbered as it is written), no checksum, no hooks, no blocks table. The
// classes are known statically (a Node's links are Nodes and a Prop), so nothing is
// interpreted. Objects are prefetched two turns ahead and their targets' marks one turn ahead
// (keel::save prefetches the objects only: typing an object early to find its links cost it more
// than the misses saved). A mark of 0 is "not seen"; every mark is reset after the save, so the
// next save starts from zeros.

using save::detail::MarkAccess;

struct MarkedWalk {
  // The walk: objects in index order, the low bit of each entry set for a Prop.
  std::vector<uintptr_t> order;

  static constexpr usize kAhead = 8;

  u32 index_of(save::SaveObject* o, uintptr_t kind) {
    if (o == nullptr) return 0;
    const u32 mark = MarkAccess::index(*o);
    if (mark != 0) return mark;
    order.push_back(reinterpret_cast<uintptr_t>(o) | kind);
    const auto next = static_cast<u32>(order.size());
    MarkAccess::set(*o, next);
    return next;
  }

  static save::SaveObject* object(uintptr_t entry) {
    return reinterpret_cast<save::SaveObject*>(entry & ~uintptr_t{1});
  }

  static void prefetch_object(uintptr_t entry) {
    const auto* p = reinterpret_cast<const char*>(entry & ~uintptr_t{1});
    __builtin_prefetch(p);
    __builtin_prefetch(p + 63);
  }

  // The marks of the targets of an object already in cache.
  static void prefetch_targets(uintptr_t entry) {
    if ((entry & 1) == 0) {
      const auto& n = *static_cast<const Node*>(object(entry));
      __builtin_prefetch(n.prev);
      __builtin_prefetch(n.buddy);
      __builtin_prefetch(n.prop);
    } else {
      __builtin_prefetch(static_cast<const Prop*>(object(entry))->owner);
    }
  }

  void save(serial::GrowingSaver& saver, Node* root) {
    order.clear();
    order.reserve(2 * kNodes);
    index_of(root, 0);
    for (usize i = 0; i < order.size(); ++i) {
      if (i + 2 * kAhead < order.size()) prefetch_object(order[i + 2 * kAhead]);
      if (i + kAhead < order.size()) prefetch_targets(order[i + kAhead]);
      const uintptr_t entry = order[i];
      if ((entry & 1) == 0) {
        auto& n = *static_cast<Node*>(object(entry));
        const u32 prev = index_of(n.prev, 0);
        const u32 buddy = index_of(n.buddy, 0);
        const u32 prop = index_of(n.prop, 1);
        saver.put(u8{1});
        saver.put_block(n.id, n.hp, n.pos[0], n.pos[1], n.pos[2], prev, buddy, prop);
      } else {
        auto& p = *static_cast<Prop*>(object(entry));
        const u32 owner = index_of(p.owner, 0);
        saver.put(u8{2});
        saver.put_block(p.id, p.value, static_cast<u32>(p.name - g_pool), owner);
      }
    }
    saver.put(static_cast<u32>(order.size()));  // a trailer: the count is known at the end
    // Reset the marks (the objects are visited in the walk's order again: prefetched ahead).
    for (usize i = 0; i < order.size(); ++i) {
      if (i + 2 * kAhead < order.size()) {
        __builtin_prefetch(reinterpret_cast<const char*>(object(order[i + 2 * kAhead])), 1);
      }
      MarkAccess::set(*object(order[i]), 0);
    }
  }
};

void clear_marks() {
  for (const auto& n : graph().nodes) MarkAccess::set(*n, 0);
  for (const auto& p : graph().props) MarkAccess::set(*p, 0);
}

void BM_MarkedWalkSave(benchmark::State& state) {
  serial::GrowingSaver saver;
  MarkedWalk m;
  // keel::save leaves its marks (it checks them against its object list instead): start clean.
  clear_marks();
  Node* root = graph().nodes.back().get();
  {
    // The same bytes as the hand-written save (same order, same encoding): it is correct.
    serial::GrowingSaver by_hand;
    HandWritten h;
    h.save(by_hand);
    m.save(saver, root);
    check(saver.used() == by_hand.used() &&
              std::memcmp(saver.bytes().data(), by_hand.bytes().data(), saver.used()) == 0,
          "marked walk differs from the hand-written save");
  }
  for (auto _ : state) {
    saver.clear();
    m.save(saver, root);
    benchmark::DoNotOptimize(saver.bytes().data());
  }
  check(m.order.size() == 2 * kNodes, "marked walk missed objects");
  state.SetBytesProcessed(static_cast<s64>(state.iterations() * saver.used()));
}
BENCHMARK(BM_MarkedWalkSave)->Unit(benchmark::kMillisecond);

// --- (e) finding the graph and nothing else ----------------------------------------------
// The breadth-first discovery of (d) with nothing written: each object is read for its links,
// each link's target is checked ("seen?") through its mark and marked when new, in the same
// order from the same root, prefetched as (d) is (4 turns ahead, the fastest distance measured
// here). The marks are reset outside the timing. Any saver that finds the graph from its root
// does at least this (it must read every link's target to know whether it is new), so this is a
// lower bound for every such saver, keel::save included, and its ratio to the floor (a) says
// how near (a) any of them can come.

struct DiscoveryOnly {
  std::vector<uintptr_t> order;  // as MarkedWalk's: the low bit set for a Prop

  static constexpr usize kAhead = 4;

  void visit(save::SaveObject* o, uintptr_t kind) {
    if (o == nullptr || MarkAccess::index(*o) != 0) return;
    order.push_back(reinterpret_cast<uintptr_t>(o) | kind);
    MarkAccess::set(*o, static_cast<u32>(order.size()));
  }

  void find(Node* root) {
    order.clear();
    order.reserve(2 * kNodes);
    visit(root, 0);
    for (usize i = 0; i < order.size(); ++i) {
      if (i + 2 * kAhead < order.size()) MarkedWalk::prefetch_object(order[i + 2 * kAhead]);
      if (i + kAhead < order.size()) MarkedWalk::prefetch_targets(order[i + kAhead]);
      const uintptr_t entry = order[i];
      if ((entry & 1) == 0) {
        auto& n = *static_cast<Node*>(MarkedWalk::object(entry));
        visit(n.prev, 0);
        visit(n.buddy, 0);
        visit(n.prop, 1);
      } else {
        visit(static_cast<Prop*>(MarkedWalk::object(entry))->owner, 0);
      }
    }
  }

  void reset_marks() {
    for (const uintptr_t entry : order) MarkAccess::set(*MarkedWalk::object(entry), 0);
  }
};

void BM_DiscoveryOnly(benchmark::State& state) {
  clear_marks();
  DiscoveryOnly d;
  Node* root = graph().nodes.back().get();
  {
    // The same objects in the same order as the marked walk (d), which writes what (c) writes.
    MarkedWalk m;
    serial::GrowingSaver saver;
    m.save(saver, root);
    d.find(root);
    check(d.order.size() == 2 * kNodes && m.order == d.order,
          "discovery found other objects or another order than the marked walk");
    d.reset_marks();
  }
  for (auto _ : state) {
    d.find(root);
    benchmark::DoNotOptimize(d.order.data());
    state.PauseTiming();
    d.reset_marks();
    state.ResumeTiming();
  }
}
BENCHMARK(BM_DiscoveryOnly)->Unit(benchmark::kMillisecond);

// --- (b) cereal with shared_ptr graphs -------------------------------------------------------

struct CNode;
struct CProp {
  u32 id = 0;
  f64 value = 0;
  u32 name = 0;
  std::weak_ptr<CNode> owner;
  template <class A>
  void serialize(A& ar) {
    ar(id, value, name, owner);
  }
};
struct CNode {
  u32 id = 0, hp = 0;
  f32 pos[3] = {};
  std::shared_ptr<CNode> prev, buddy;
  std::shared_ptr<CProp> prop;
  template <class A>
  void serialize(A& ar) {
    ar(id, hp, pos, prev, buddy, prop);
  }
};
struct CGraph {
  std::vector<std::shared_ptr<CNode>> nodes;  // in creation order: links point backwards
  template <class A>
  void serialize(A& ar) {
    ar(nodes);
  }
};

const CGraph& cgraph() {
  static const CGraph c = [] {
    CGraph out;
    const Graph& g = graph();
    for (u32 i = 0; i < kNodes; ++i) {
      auto n = std::make_shared<CNode>();
      n->id = g.nodes[i]->id;
      n->hp = g.nodes[i]->hp;
      std::copy(std::begin(g.nodes[i]->pos), std::end(g.nodes[i]->pos), n->pos);
      if (i > 0) {
        n->prev = out.nodes.back();
        n->buddy = out.nodes[g.buddy[i]];
      }
      n->prop = std::make_shared<CProp>();
      n->prop->id = g.props[i]->id;
      n->prop->value = g.props[i]->value;
      n->prop->name = static_cast<u32>(g.props[i]->name - g_pool);
      n->prop->owner = n;
      out.nodes.push_back(std::move(n));
    }
    return out;
  }();
  return c;
}

class VectorOutBuf : public std::streambuf {
 public:
  explicit VectorOutBuf(std::vector<char>& out) : out_(out) {}

 protected:
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    out_.insert(out_.end(), s, s + n);
    return n;
  }
  int_type overflow(int_type c) override {
    if (c != traits_type::eof()) out_.push_back(static_cast<char>(c));
    return c;
  }

 private:
  std::vector<char>& out_;
};

class MemoryInBuf : public std::streambuf {
 public:
  MemoryInBuf(const char* data, usize size) {
    char* p = const_cast<char*>(data);
    setg(p, p, p + size);
  }
};

std::vector<char> cereal_save() {
  std::vector<char> buffer;
  VectorOutBuf buf(buffer);
  std::ostream os(&buf);
  cereal::BinaryOutputArchive ar(os);
  ar(cgraph());
  return buffer;
}

void BM_CerealSaveGraph(benchmark::State& state) {
  usize size = 0;
  for (auto _ : state) {
    std::vector<char> b = cereal_save();
    benchmark::DoNotOptimize(b.data());
    size = b.size();
  }
  state.SetBytesProcessed(static_cast<s64>(state.iterations() * size));
}
BENCHMARK(BM_CerealSaveGraph)->Unit(benchmark::kMillisecond);

void BM_CerealLoadGraph(benchmark::State& state) {
  const std::vector<char> bytes = cereal_save();
  for (auto _ : state) {
    CGraph loaded;
    MemoryInBuf buf(bytes.data(), bytes.size());
    std::istream is(&buf);
    cereal::BinaryInputArchive ar(is);
    ar(loaded);
    check(loaded.nodes.size() == kNodes, "cereal loaded the wrong count");
    benchmark::DoNotOptimize(loaded.nodes.data());
    for (auto& n : loaded.nodes) n->prev.reset();  // break the chain before it is destroyed
  }
  state.SetBytesProcessed(static_cast<s64>(state.iterations() * bytes.size()));
}
BENCHMARK(BM_CerealLoadGraph)->Unit(benchmark::kMillisecond);

}  // namespace

KEEL_BENCH_RATIO("save 100k-object graph: keel::save vs serial floor (no fix-up)",
                 "BM_KeelSaveGraph/0", "BM_SerialSaveFloor");
KEEL_BENCH_RATIO("load 100k-object graph: keel::save vs serial floor (no fix-up)",
                 "BM_KeelLoadGraph/0", "BM_SerialLoadFloor");
KEEL_BENCH_RATIO("save 100k-object graph: keel::save vs cereal shared_ptr", "BM_KeelSaveGraph/0",
                 "BM_CerealSaveGraph");
KEEL_BENCH_RATIO("load 100k-object graph: keel::save vs cereal shared_ptr", "BM_KeelLoadGraph/0",
                 "BM_CerealLoadGraph");

KEEL_BENCH_RATIO("save 100k-object graph: keel::save vs marked walk (the least work, (d))",
                 "BM_KeelSaveGraph/0", "BM_MarkedWalkSave");
KEEL_BENCH_RATIO("save 100k-object graph: finding the graph alone (e) vs serial floor (a)",
                 "BM_DiscoveryOnly", "BM_SerialSaveFloor");
KEEL_BENCH_RATIO("save 100k-object graph: marked walk (d) vs serial floor (a)", "BM_MarkedWalkSave",
                 "BM_SerialSaveFloor");
KEEL_BENCH_RATIO("save 100k-object graph: keel::save vs finding the graph alone (e)",
                 "BM_KeelSaveGraph/0", "BM_DiscoveryOnly");
KEEL_BENCH_RATIO("save 100k-object graph: by hand (serial + pointer table) vs marked walk (d)",
                 "BM_HandWrittenSave", "BM_MarkedWalkSave");
KEEL_BENCH_RATIO("save 100k-object graph: keel::save vs by hand (serial + pointer table)",
                 "BM_KeelSaveGraph/0", "BM_HandWrittenSave");
KEEL_BENCH_RATIO("load 100k-object graph: keel::save vs by hand (serial + pointer table)",
                 "BM_KeelLoadGraph/0", "BM_HandWrittenLoad");

KEEL_BENCH_MAIN()
