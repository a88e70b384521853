// Spatial structures against their peers, in the same run.
//
// Broad phase: keel::spatial::GroupCuller against Box2D 2.4's b2DynamicTree on the same moving,
// clustered scenes (70, 300, 2,000, 10,000 circles in Citizen's six groups and table). One
// iteration is one frame: every colliding pair the table allows is found, tree updates included.
// The frames are precomputed (64 steps of motion played forwards then backwards, so motion stays
// continuous) and both sides read the same positions. The Box2D side moves every proxy
// (MoveProxy with the displacement, as b2Body does; the tree's fat boxes absorb small motions),
// then queries each object that can collide with anything with its own box, keeping pairs i < j
// that the table allows and whose circles touch. Box2D works in metres with 0.1 m box margins,
// so it sees the scene scaled by 1/10 (speeds of 1-4 m/s at 60 Hz); the narrow test uses the
// unscaled circles on both sides. The pair sets are compared once, outside the timed loop.
//
// Red-black tree: 10^5 distinct keys in random order inserted into keel::RbTree with nodes from an
// RbPool (clear() and reset() per iteration, no per-node free), against std::map<u32, u32>
// (built and destroyed per iteration).
#include "bench_support.h"
#include "keel/core/rb_tree.h"
#include "keel/spatial/group_culling.h"
#include "keel/spatial/testing/clustered_scene.h"

#include <box2d/b2_dynamic_tree.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <random>
#include <vector>

namespace {

using keel::u32;
using keel::u64;
using keel::usize;
using namespace keel::spatial;

constexpr int kSteps = 64;
constexpr float kDt = 1.0f / 60.0f;
constexpr float kBox2dScale = 0.1f;

struct Frames {
  std::vector<std::vector<Obstacle>> frames;  // ping-pong cycle
};

const Frames& frames_for(usize n) {
  static std::map<usize, Frames> cache;
  Frames& f = cache[n];
  if (f.frames.empty()) {
    testing::ClusteredScene scene = testing::clustered_scene(n, 42);
    std::vector<std::vector<Obstacle>> forward;
    for (int s = 0; s < kSteps; ++s) {
      forward.push_back(scene.obstacles);
      advance(scene.obstacles, kDt, scene.bounds);
    }
    f.frames = forward;
    for (int s = kSteps - 2; s > 0; --s) f.frames.push_back(forward[static_cast<usize>(s)]);
  }
  return f;
}

b2AABB box2d_box(const Obstacle& o, float slack) {
  b2AABB box;
  box.lowerBound.Set((o.position.x - o.radius) * kBox2dScale - slack,
                     (o.position.y - o.radius) * kBox2dScale - slack);
  box.upperBound.Set((o.position.x + o.radius) * kBox2dScale + slack,
                     (o.position.y + o.radius) * kBox2dScale + slack);
  return box;
}

class Box2dPeer {
 public:
  explicit Box2dPeer(const std::vector<Obstacle>& first) : table_(citizen_group_table()) {
    for (usize i = 0; i < first.size(); ++i) {
      proxies_.push_back(tree_.CreateProxy(box2d_box(first[i], 0), nullptr));
    }
    index_of_proxy_.assign(static_cast<usize>(*std::ranges::max_element(proxies_)) + 1, 0);
    for (usize i = 0; i < proxies_.size(); ++i) {
      index_of_proxy_[static_cast<usize>(proxies_[i])] = static_cast<u32>(i);
    }
    for (GroupId g = 0; g < 6; ++g) {
      for (GroupId h = 0; h < 6; ++h) queried_[g] = queried_[g] || table_.allows(g, h);
    }
  }

  void frame(const std::vector<Obstacle>& obstacles, const std::vector<Obstacle>& previous,
             std::vector<Contact>& out) {
    out.clear();
    for (usize i = 0; i < obstacles.size(); ++i) {
      const b2Vec2 d((obstacles[i].position.x - previous[i].position.x) * kBox2dScale,
                     (obstacles[i].position.y - previous[i].position.y) * kBox2dScale);
      tree_.MoveProxy(proxies_[i], box2d_box(obstacles[i], 0), d);
    }
    obstacles_ = &obstacles;
    out_ = &out;
    for (usize i = 0; i < obstacles.size(); ++i) {
      if (!queried_[obstacles[i].group]) continue;
      self_ = static_cast<u32>(i);
      tree_.Query(this, box2d_box(obstacles[i], 1e-4f));
    }
  }

  bool QueryCallback(keel::s32 proxy) {
    ++candidates_;
    const u32 j = index_of_proxy_[static_cast<usize>(proxy)];
    if (j <= self_) return true;
    const Obstacle& a = (*obstacles_)[self_];
    const Obstacle& b = (*obstacles_)[j];
    if (table_.allows(a.group, b.group) && circles_touch(a, b)) out_->push_back({self_, j});
    return true;
  }

 private:
  b2DynamicTree tree_;
  GroupTable table_;
  std::vector<keel::s32> proxies_;
  std::vector<u32> index_of_proxy_;
  bool queried_[6] = {};
  const std::vector<Obstacle>* obstacles_ = nullptr;
  std::vector<Contact>* out_ = nullptr;
  u32 self_ = 0;

 public:
  u64 candidates_ = 0;  // tree hits reported to the callback (self and both orders included)
};

std::vector<Contact> sorted(std::vector<Contact> v) {
  std::ranges::sort(v);
  return v;
}

// Both sides over the first frames must find the same pairs as brute force.
bool same_pairs(usize n) {
  const Frames& f = frames_for(n);
  GroupCuller culler(citizen_group_table());
  Box2dPeer peer(f.frames[0]);
  std::vector<Contact> keel_pairs, box2d_pairs, reference;
  u64 total = 0;
  for (usize s = 1; s < 8; ++s) {
    culler.find_contacts(f.frames[s], keel_pairs);
    peer.frame(f.frames[s], f.frames[s - 1], box2d_pairs);
    brute_force_contacts(f.frames[s], citizen_group_table(), reference);
    if (sorted(keel_pairs) != sorted(reference) || sorted(box2d_pairs) != sorted(reference)) {
      return false;
    }
    total += reference.size();
  }
  return total > 0;
}

void BM_KeelGroups(benchmark::State& state) {
  const usize n = static_cast<usize>(state.range(0));
  if (!same_pairs(n)) {
    state.SkipWithError("pair sets differ from brute force");
    return;
  }
  const Frames& f = frames_for(n);
  GroupCuller culler(citizen_group_table());
  std::vector<Contact> contacts;
  usize s = 0;
  u64 narrow = 0;
  for (auto _ : state) {
    culler.find_contacts(f.frames[s], contacts);
    narrow += culler.stats().narrow_tests;
    benchmark::DoNotOptimize(contacts.data());
    s = (s + 1) % f.frames.size();
  }
  state.counters["narrow"] =
      benchmark::Counter(static_cast<double>(narrow), benchmark::Counter::kAvgIterations);
  state.counters["pairs"] = static_cast<double>(contacts.size());
}

void BM_Box2dTree(benchmark::State& state) {
  const usize n = static_cast<usize>(state.range(0));
  const Frames& f = frames_for(n);
  Box2dPeer peer(f.frames[0]);
  std::vector<Contact> contacts;
  usize s = 1;
  for (auto _ : state) {
    const usize prev = s == 0 ? f.frames.size() - 1 : s - 1;
    peer.frame(f.frames[s], f.frames[prev], contacts);
    benchmark::DoNotOptimize(contacts.data());
    s = (s + 1) % f.frames.size();
  }
  state.counters["pairs"] = static_cast<double>(contacts.size());
  state.counters["hits"] =
      benchmark::Counter(static_cast<double>(peer.candidates_), benchmark::Counter::kAvgIterations);
}

BENCHMARK(BM_KeelGroups)->Arg(70)->Arg(300)->Arg(2000)->Arg(10000);
BENCHMARK(BM_Box2dTree)->Arg(70)->Arg(300)->Arg(2000)->Arg(10000);

KEEL_BENCH_RATIO("broad phase, 70 circles: keel groups vs b2DynamicTree (goal < 1.0)",
                 "BM_KeelGroups/70", "BM_Box2dTree/70");
KEEL_BENCH_RATIO("broad phase, 300 circles: keel groups vs b2DynamicTree (goal < 1.0)",
                 "BM_KeelGroups/300", "BM_Box2dTree/300");
KEEL_BENCH_RATIO("broad phase, 2,000 circles: keel groups vs b2DynamicTree", "BM_KeelGroups/2000",
                 "BM_Box2dTree/2000");
KEEL_BENCH_RATIO("broad phase, 10,000 circles: keel groups vs b2DynamicTree (goal <= 1.5)",
                 "BM_KeelGroups/10000", "BM_Box2dTree/10000");

constexpr usize kKeys = 100'000;

const std::vector<u32>& shuffled_keys() {
  static const std::vector<u32> keys = [] {
    std::vector<u32> k(kKeys);
    std::iota(k.begin(), k.end(), 0u);
    std::shuffle(k.begin(), k.end(), std::mt19937(17));
    return k;
  }();
  return keys;
}

struct KeyNode : keel::RbNode {
  explicit KeyNode(u32 k) : key(k), value(k) {}
  u32 key;
  u32 value;
};
struct ByKey {
  bool operator()(const KeyNode& a, const KeyNode& b) const { return a.key < b.key; }
};

void BM_RbTreeInsert100k(benchmark::State& state) {
  const std::vector<u32>& keys = shuffled_keys();
  keel::RbPool<KeyNode> pool(kKeys);
  keel::RbTree<KeyNode, ByKey> tree;
  for (auto _ : state) {
    tree.clear();
    pool.reset();
    for (const u32 k : keys) tree.emplace(pool, k);
    benchmark::DoNotOptimize(tree.root());
  }
}

void BM_StdMapInsert100k(benchmark::State& state) {
  const std::vector<u32>& keys = shuffled_keys();
  for (auto _ : state) {
    std::map<u32, u32> map;
    for (const u32 k : keys) map.emplace(k, k);
    benchmark::DoNotOptimize(map.size());
  }
}

BENCHMARK(BM_RbTreeInsert100k)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_StdMapInsert100k)->Unit(benchmark::kMillisecond);

KEEL_BENCH_RATIO("red-black insert of 10^5 keys (pool) vs std::map (goal <= 1.0)",
                 "BM_RbTreeInsert100k", "BM_StdMapInsert100k");

}  // namespace

KEEL_BENCH_MAIN()
