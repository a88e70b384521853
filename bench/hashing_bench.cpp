// Lookups by hash: Keel's hash list, hash table and hash tree against std::unordered_map and a
// sorted std::vector searched with std::lower_bound, at 1,000 and 100,000 entries.
//
// Keys are filename_hash values of asset-like paths ("textures/level3/prop_0042.tga"), the
// book's use case, with colliding names skipped. Every lookup hits; the keys are visited in a
// random order so caches see a realistic access pattern. The hash table has one bucket per 8
// items. The tree reports its average node visits per lookup as a counter.
#include "bench_support.h"
#include "keel/core/hash.h"
#include "keel/hashing/hash_list.h"
#include "keel/hashing/hash_table.h"
#include "keel/hashing/hash_tree.h"

#include <fmt/format.h>

#include <algorithm>
#include <random>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace {

using keel::Hash;
using keel::usize;

struct Asset {
  int id = 0;
};

struct Data {
  std::vector<Hash> keys;     // unique hashes, in insertion order
  std::vector<Asset> assets;  // assets[i] is stored under keys[i]
  std::vector<Hash> lookups;  // keys in a random order (a power-of-two count)
};

// mixed = false: the book's filename_hash; true: the low 32 bits of hash64 (XXH3) of the same
// names, a well-mixed hash.
Data& data(usize n, bool mixed = false) {
  static std::unordered_map<usize, Data> cache;
  auto [it, fresh] = cache.try_emplace(n * 2 + (mixed ? 1 : 0));
  Data& d = it->second;
  if (!fresh) return d;
  std::unordered_set<Hash> seen;
  for (usize i = 0; d.keys.size() < n; ++i) {
    const std::string name = fmt::format("textures/level{}/prop_{:04}.tga", i / 1000, i % 1000);
    const Hash h = mixed ? static_cast<Hash>(keel::hash64(name)) : keel::filename_hash(name);
    if (seen.insert(h).second) d.keys.push_back(h);
  }
  d.assets.resize(n);
  for (usize i = 0; i < n; ++i) d.assets[i].id = static_cast<int>(i);
  std::mt19937 rng(42);
  d.lookups.resize(4096);
  for (Hash& h : d.lookups) h = d.keys[rng() % n];
  return d;
}

template <typename Find>
void run_lookups(benchmark::State& state, const Data& d, Find&& find) {
  usize i = 0;
  for (auto _ : state) {
    Asset* a = find(d.lookups[i++ & 4095]);
    benchmark::DoNotOptimize(a);
  }
  state.SetItemsProcessed(state.iterations());
}

void BM_HashListFind(benchmark::State& state) {
  Data& d = data(static_cast<usize>(state.range(0)));
  keel::hashing::HashList<Asset> list;
  list.defer_sort();
  for (usize i = 0; i < d.keys.size(); ++i) (void)list.add(d.keys[i], &d.assets[i]);
  if (!list.sort()) state.SkipWithError("sort failed");
  run_lookups(state, d, [&](Hash h) { return list.find(h); });
}

void BM_HashTableFind(benchmark::State& state) {
  Data& d = data(static_cast<usize>(state.range(0)));
  keel::hashing::HashTable<Asset> table(d.keys.size() / 8);
  for (usize i = 0; i < d.keys.size(); ++i) {
    (void)table.add(d.keys[i], &d.assets[i]);
  }
  run_lookups(state, d, [&](Hash h) { return table.find(h); });
}

void tree_lookups(benchmark::State& state, bool mixed) {
  Data& d = data(static_cast<usize>(state.range(0)), mixed);
  std::vector<keel::hashing::HashTreeNode> nodes(d.keys.size());
  keel::hashing::HashTree<Asset> tree({.growth = keel::hashing::Growth::kFixed});
  tree.add_free_items(nodes);
  for (usize i = 0; i < d.keys.size(); ++i) {
    (void)tree.add(d.keys[i], &d.assets[i]);
  }
  usize visits = 0;
  for (Hash h : d.lookups) visits += tree.visits(h);
  state.counters["avg_visits"] =
      static_cast<double>(visits) / static_cast<double>(d.lookups.size());
  run_lookups(state, d, [&](Hash h) { return tree.find(h); });
}

void BM_HashTreeFind(benchmark::State& state) { tree_lookups(state, false); }
// The same names hashed with a well-mixed hash: the tree branches on the low bits first, which
// the rotate-left-7 hash fills mostly from the last few characters.
void BM_HashTreeFindMixedHash(benchmark::State& state) { tree_lookups(state, true); }

void BM_UnorderedMapFind(benchmark::State& state) {
  Data& d = data(static_cast<usize>(state.range(0)));
  std::unordered_map<Hash, Asset*> map;
  map.reserve(d.keys.size());
  for (usize i = 0; i < d.keys.size(); ++i) map.emplace(d.keys[i], &d.assets[i]);
  run_lookups(state, d, [&](Hash h) {
    auto it = map.find(h);
    return it == map.end() ? nullptr : it->second;
  });
}

void BM_SortedVectorFind(benchmark::State& state) {
  Data& d = data(static_cast<usize>(state.range(0)));
  std::vector<std::pair<Hash, Asset*>> sorted;
  sorted.reserve(d.keys.size());
  for (usize i = 0; i < d.keys.size(); ++i) {
    sorted.emplace_back(d.keys[i], &d.assets[i]);
  }
  std::sort(sorted.begin(), sorted.end());
  run_lookups(state, d, [&](Hash h) -> Asset* {
    auto it = std::lower_bound(sorted.begin(), sorted.end(), h,
                               [](const auto& e, Hash k) { return e.first < k; });
    return it != sorted.end() && it->first == h ? it->second : nullptr;
  });
}

BENCHMARK(BM_HashListFind)->Arg(1000)->Arg(100000);
BENCHMARK(BM_HashTableFind)->Arg(1000)->Arg(100000);
BENCHMARK(BM_HashTreeFind)->Arg(1000)->Arg(100000);
BENCHMARK(BM_HashTreeFindMixedHash)->Arg(1000)->Arg(100000);
BENCHMARK(BM_UnorderedMapFind)->Arg(1000)->Arg(100000);
BENCHMARK(BM_SortedVectorFind)->Arg(1000)->Arg(100000);

KEEL_BENCH_RATIO("hash list vs unordered_map, 1k", "BM_HashListFind/1000",
                 "BM_UnorderedMapFind/1000");
KEEL_BENCH_RATIO("hash list vs unordered_map, 100k", "BM_HashListFind/100000",
                 "BM_UnorderedMapFind/100000");
KEEL_BENCH_RATIO("hash list vs sorted vector, 1k", "BM_HashListFind/1000",
                 "BM_SortedVectorFind/1000");
KEEL_BENCH_RATIO("hash list vs sorted vector, 100k", "BM_HashListFind/100000",
                 "BM_SortedVectorFind/100000");
KEEL_BENCH_RATIO("hash table vs unordered_map, 1k", "BM_HashTableFind/1000",
                 "BM_UnorderedMapFind/1000");
KEEL_BENCH_RATIO("hash table vs unordered_map, 100k", "BM_HashTableFind/100000",
                 "BM_UnorderedMapFind/100000");
KEEL_BENCH_RATIO("hash table vs sorted vector, 1k", "BM_HashTableFind/1000",
                 "BM_SortedVectorFind/1000");
KEEL_BENCH_RATIO("hash table vs sorted vector, 100k", "BM_HashTableFind/100000",
                 "BM_SortedVectorFind/100000");
KEEL_BENCH_RATIO("hash tree vs unordered_map, 1k", "BM_HashTreeFind/1000",
                 "BM_UnorderedMapFind/1000");
KEEL_BENCH_RATIO("hash tree vs unordered_map, 100k", "BM_HashTreeFind/100000",
                 "BM_UnorderedMapFind/100000");
KEEL_BENCH_RATIO("hash tree vs sorted vector, 1k", "BM_HashTreeFind/1000",
                 "BM_SortedVectorFind/1000");
KEEL_BENCH_RATIO("hash tree vs sorted vector, 100k", "BM_HashTreeFind/100000",
                 "BM_SortedVectorFind/100000");
KEEL_BENCH_RATIO("hash tree, mixed hash vs filename hash, 100k", "BM_HashTreeFindMixedHash/100000",
                 "BM_HashTreeFind/100000");

}  // namespace

KEEL_BENCH_MAIN()
