// keel::PrehashedMap against std::unordered_map on the same pre-hashed keys in the same run:
// u32 keys -> pointers (the FSM's and the property container's shape) and u64 keys -> 40-byte
// records (the build database's file cache), hits and misses, looked up in a shuffled order
// prepared in advance. std::hash of an integer is the identity in libstdc++, so neither side
// spends time hashing.
#include "bench_support.h"
#include "keel/core/prehashed_map.h"

#include <algorithm>
#include <random>
#include <unordered_map>
#include <vector>

namespace {

using keel::u32;
using keel::u64;
using keel::usize;

struct Record {
  u64 size = 0;
  u64 mtime = 0;
  u64 inode = 0;
  u64 hash = 0;
  u64 hashed_at = 0;
};

constexpr usize kSmall = 64;     // a state's handlers, a container's properties
constexpr usize kLarge = 10000;  // the files of a project

template <typename Key>
std::vector<Key> random_keys(usize n, u32 seed) {
  std::mt19937_64 rng(seed);
  std::vector<Key> keys(n);
  for (Key& k : keys) k = static_cast<Key>(rng());
  return keys;
}

// `count` lookups cycling over `keys` in a shuffled order (hits), or over keys not stored.
template <typename Key>
std::vector<Key> probes(const std::vector<Key>& keys, bool hits) {
  std::vector<Key> out = hits ? keys : random_keys<Key>(keys.size(), 99);
  std::shuffle(out.begin(), out.end(), std::mt19937(7));
  return out;
}

int g_targets[kLarge];

template <bool kHits>
void BM_PrehashedU32(benchmark::State& state) {
  const auto keys = random_keys<u32>(kSmall, 1);
  keel::PrehashedMap<u32, const int*> map;
  for (usize i = 0; i < keys.size(); ++i) map.insert(keys[i], &g_targets[i]);
  const auto order = probes(keys, kHits);
  usize i = 0;
  for (auto _ : state) {
    const int* p = map.get(order[i++ % order.size()]);
    benchmark::DoNotOptimize(p);
  }
}
template <bool kHits>
void BM_StdU32(benchmark::State& state) {
  const auto keys = random_keys<u32>(kSmall, 1);
  std::unordered_map<u32, const int*> map;
  for (usize i = 0; i < keys.size(); ++i) map.emplace(keys[i], &g_targets[i]);
  const auto order = probes(keys, kHits);
  usize i = 0;
  for (auto _ : state) {
    const auto it = map.find(order[i++ % order.size()]);
    const int* p = it == map.end() ? nullptr : it->second;
    benchmark::DoNotOptimize(p);
  }
}
BENCHMARK(BM_PrehashedU32<true>)->Name("BM_PrehashedU32Hit");
BENCHMARK(BM_StdU32<true>)->Name("BM_StdU32Hit");
BENCHMARK(BM_PrehashedU32<false>)->Name("BM_PrehashedU32Miss");
BENCHMARK(BM_StdU32<false>)->Name("BM_StdU32Miss");

template <bool kHits>
void BM_PrehashedU64(benchmark::State& state) {
  const auto keys = random_keys<u64>(kLarge, 2);
  keel::PrehashedMap<u64, Record> map;
  for (u64 k : keys) map.insert(k, Record{k, k, k, k, k});
  const auto order = probes(keys, kHits);
  usize i = 0;
  u64 sum = 0;
  for (auto _ : state) {
    const Record* r = map.find(order[i++ % order.size()]);
    sum += r != nullptr ? r->hash : 1;
    benchmark::DoNotOptimize(sum);
  }
}
template <bool kHits>
void BM_StdU64(benchmark::State& state) {
  const auto keys = random_keys<u64>(kLarge, 2);
  std::unordered_map<u64, Record> map;
  for (u64 k : keys) map.emplace(k, Record{k, k, k, k, k});
  const auto order = probes(keys, kHits);
  usize i = 0;
  u64 sum = 0;
  for (auto _ : state) {
    const auto it = map.find(order[i++ % order.size()]);
    sum += it != map.end() ? it->second.hash : 1;
    benchmark::DoNotOptimize(sum);
  }
}
BENCHMARK(BM_PrehashedU64<true>)->Name("BM_PrehashedU64Hit");
BENCHMARK(BM_StdU64<true>)->Name("BM_StdU64Hit");
BENCHMARK(BM_PrehashedU64<false>)->Name("BM_PrehashedU64Miss");
BENCHMARK(BM_StdU64<false>)->Name("BM_StdU64Miss");

// Insert-erase churn on a reserved table (the property container adding and removing).
void BM_PrehashedChurn(benchmark::State& state) {
  const auto keys = random_keys<u32>(kSmall, 3);
  keel::PrehashedMap<u32, const int*> map;
  map.reserve(kSmall);
  for (auto _ : state) {
    for (u32 k : keys) map.insert(k, &g_targets[0]);
    for (u32 k : keys) map.erase(k);
  }
}
void BM_StdChurn(benchmark::State& state) {
  const auto keys = random_keys<u32>(kSmall, 3);
  std::unordered_map<u32, const int*> map;
  map.reserve(kSmall);
  for (auto _ : state) {
    for (u32 k : keys) map.emplace(k, &g_targets[0]);
    for (u32 k : keys) map.erase(k);
  }
}
BENCHMARK(BM_PrehashedChurn);
BENCHMARK(BM_StdChurn);

KEEL_BENCH_RATIO("prehashed map u32 hit vs std::unordered_map", "BM_PrehashedU32Hit",
                 "BM_StdU32Hit");
KEEL_BENCH_RATIO("prehashed map u32 miss vs std::unordered_map", "BM_PrehashedU32Miss",
                 "BM_StdU32Miss");
KEEL_BENCH_RATIO("prehashed map u64 hit (10k records) vs std::unordered_map", "BM_PrehashedU64Hit",
                 "BM_StdU64Hit");
KEEL_BENCH_RATIO("prehashed map u64 miss (10k records) vs std::unordered_map",
                 "BM_PrehashedU64Miss", "BM_StdU64Miss");
KEEL_BENCH_RATIO("prehashed map insert+erase churn vs std::unordered_map", "BM_PrehashedChurn",
                 "BM_StdChurn");

}  // namespace

KEEL_BENCH_MAIN()
