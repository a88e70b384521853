// Property container get/set against the usual peer, std::unordered_map<std::string, std::any>,
// on the same work in the same run: 16 int properties, accessed round-robin by a key prepared in
// advance (a props::Key for the container, a std::string for the map, so neither side builds a
// key per access). A second peer, std::unordered_map<u32, std::any> keyed by the precomputed
// string hash, separates the cost of string hashing from the cost of std::any.
#include "bench_support.h"
#include "keel/props/container.h"

#include <any>
#include <array>
#include <string>
#include <unordered_map>

namespace {

using keel::u32;
using keel::usize;
using keel::props::Key;
using keel::props::PropertyContainer;

constexpr std::array<Key, 16> kKeys = {
    "health", "armor",      "speed",    "stamina", "mana",   "level", "score",     "ammo",
    "gold",   "experience", "strength", "agility", "wisdom", "luck",  "fire_rate", "reload_time",
};
constexpr usize kMask = kKeys.size() - 1;
static_assert((kKeys.size() & kMask) == 0);

PropertyContainer make_container() {
  PropertyContainer props;
  for (usize i = 0; i < kKeys.size(); ++i) (void)props.set<int>(kKeys[i], static_cast<int>(i));
  return props;
}

std::array<std::string, 16> string_keys() {
  std::array<std::string, 16> names;
  for (usize i = 0; i < kKeys.size(); ++i) names[i] = std::string(kKeys[i].name());
  return names;
}

void BM_PropsGet(benchmark::State& state) {
  const PropertyContainer props = make_container();
  usize i = 0;
  long sum = 0;
  for (auto _ : state) {
    auto value = props.get<int>(kKeys[i++ & kMask]);
    if (value) sum += *value;
    benchmark::DoNotOptimize(sum);
  }
}
BENCHMARK(BM_PropsGet);

void BM_PropsFind(benchmark::State& state) {
  const PropertyContainer props = make_container();
  usize i = 0;
  long sum = 0;
  for (auto _ : state) {
    const int* value = props.find<int>(kKeys[i++ & kMask]);
    if (value != nullptr) sum += *value;
    benchmark::DoNotOptimize(sum);
  }
}
BENCHMARK(BM_PropsFind);

void BM_PropsSet(benchmark::State& state) {
  PropertyContainer props = make_container();
  usize i = 0;
  int v = 0;
  for (auto _ : state) {
    auto status = props.set<int>(kKeys[i++ & kMask], ++v);
    benchmark::DoNotOptimize(status);
  }
}
BENCHMARK(BM_PropsSet);

void BM_PropsSetWithListener(benchmark::State& state) {
  PropertyContainer props = make_container();
  long total = 0;
  for (const Key& key : kKeys) {
    (void)props.listen<int>(key, [&total](const int&, const int& n) { total += n; });
  }
  usize i = 0;
  int v = 0;
  for (auto _ : state) {
    auto status = props.set<int>(kKeys[i++ & kMask], ++v);
    benchmark::DoNotOptimize(status);
  }
  benchmark::DoNotOptimize(total);
}
BENCHMARK(BM_PropsSetWithListener);

std::unordered_map<std::string, std::any> make_string_map() {
  std::unordered_map<std::string, std::any> map;
  for (usize i = 0; i < kKeys.size(); ++i) map[std::string(kKeys[i].name())] = static_cast<int>(i);
  return map;
}

void BM_StdMapAnyGet(benchmark::State& state) {
  const auto map = make_string_map();
  const auto names = string_keys();
  usize i = 0;
  long sum = 0;
  for (auto _ : state) {
    const auto it = map.find(names[i++ & kMask]);
    if (it == map.end()) continue;
    // Checked cast, the peer of get's type check (any_cast<T>(any*) reports failure as null).
    if (const int* value = std::any_cast<int>(&it->second)) sum += *value;
    benchmark::DoNotOptimize(sum);
  }
}
BENCHMARK(BM_StdMapAnyGet);

void BM_StdMapAnySet(benchmark::State& state) {
  auto map = make_string_map();
  const auto names = string_keys();
  usize i = 0;
  int v = 0;
  for (auto _ : state) {
    auto it = map.find(names[i++ & kMask]);
    if (it != map.end()) it->second = ++v;
    benchmark::DoNotOptimize(it);
  }
}
BENCHMARK(BM_StdMapAnySet);

std::unordered_map<u32, std::any> make_hashed_map() {
  std::unordered_map<u32, std::any> map;
  for (usize i = 0; i < kKeys.size(); ++i) map[kKeys[i].id().value] = static_cast<int>(i);
  return map;
}

void BM_HashedMapAnyGet(benchmark::State& state) {
  const auto map = make_hashed_map();
  usize i = 0;
  long sum = 0;
  for (auto _ : state) {
    const auto it = map.find(kKeys[i++ & kMask].id().value);
    if (it == map.end()) continue;
    if (const int* value = std::any_cast<int>(&it->second)) sum += *value;
    benchmark::DoNotOptimize(sum);
  }
}
BENCHMARK(BM_HashedMapAnyGet);

void BM_HashedMapAnySet(benchmark::State& state) {
  auto map = make_hashed_map();
  usize i = 0;
  int v = 0;
  for (auto _ : state) {
    auto it = map.find(kKeys[i++ & kMask].id().value);
    if (it != map.end()) it->second = ++v;
    benchmark::DoNotOptimize(it);
  }
}
BENCHMARK(BM_HashedMapAnySet);

}  // namespace

KEEL_BENCH_RATIO("props get vs unordered_map<string,any>", "BM_PropsGet", "BM_StdMapAnyGet");
KEEL_BENCH_RATIO("props set vs unordered_map<string,any>", "BM_PropsSet", "BM_StdMapAnySet");
KEEL_BENCH_RATIO("props get vs unordered_map<u32,any> (pre-hashed)", "BM_PropsGet",
                 "BM_HashedMapAnyGet");
KEEL_BENCH_RATIO("props set vs unordered_map<u32,any> (pre-hashed)", "BM_PropsSet",
                 "BM_HashedMapAnySet");
KEEL_BENCH_RATIO("props find vs get", "BM_PropsFind", "BM_PropsGet");

KEEL_BENCH_MAIN()
