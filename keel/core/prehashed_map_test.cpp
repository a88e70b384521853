#include "keel/core/prehashed_map.h"

#include "keel/core/testing/alloc_counter.h"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <unordered_map>

namespace keel {
namespace {

struct Record {
  u64 size = 0;
  u64 hash = 0;
  friend bool operator==(const Record&, const Record&) = default;
};

TEST(PrehashedMap, EmptyMapFindsNothingAndOwnsNoMemory) {
  const PrehashedMap<u32, const int*> map;
  EXPECT_EQ(map.size(), 0u);
  EXPECT_EQ(map.memory_bytes(), 0u);
  for (u32 key : {0u, 1u, 2u, 0xFFFFFFFFu, 0x9E3779B1u}) {
    EXPECT_EQ(map.find(key), nullptr) << key;
    EXPECT_EQ(map.get(key), nullptr) << key;
  }
  const PrehashedMap<u64, Record> big;
  for (u64 key : {0ull, 1ull, ~0ull}) EXPECT_FALSE(big.contains(key));
}

TEST(PrehashedMap, ZeroAndAllOnesAreOrdinaryKeys) {
  PrehashedMap<u64, Record> map;
  EXPECT_TRUE(map.insert(0, Record{1, 2}).second);
  EXPECT_TRUE(map.insert(~0ull, Record{3, 4}).second);
  EXPECT_TRUE(map.insert(0x9E3779B97F4A7C15ull, Record{5, 6}).second);  // FileCache's old alias
  ASSERT_NE(map.find(0), nullptr);
  EXPECT_EQ(*map.find(0), (Record{1, 2}));
  EXPECT_EQ(*map.find(~0ull), (Record{3, 4}));
  EXPECT_EQ(*map.find(0x9E3779B97F4A7C15ull), (Record{5, 6}));
  EXPECT_TRUE(map.erase(0));
  EXPECT_FALSE(map.contains(0));
  EXPECT_TRUE(map.contains(~0ull));
}

TEST(PrehashedMap, InsertKeepsExistingValueAndInsertOrAssignReplaces) {
  PrehashedMap<u32, int> map;
  auto [value, added] = map.insert(7, 1);
  EXPECT_TRUE(added);
  EXPECT_EQ(*value, 1);
  auto [again, added_again] = map.insert(7, 2);
  EXPECT_FALSE(added_again);
  EXPECT_EQ(*again, 1);
  map.insert_or_assign(7, 3);
  EXPECT_EQ(map.get(7), 3);
  EXPECT_EQ(map.get(8), 0);
  EXPECT_EQ(map.size(), 1u);
}

// Keys that share a home slot: the same value times different multiples of the table size in
// the high bits (home() takes the top bits of key * multiplier, so pick keys differing above).
TEST(PrehashedMap, CollidingKeysProbeAndEraseShiftsBack) {
  PrehashedMap<u32, u32> map;
  map.reserve(8);  // 16 slots
  // Find 6 keys with one home slot by brute force against a reference home function.
  const u32 shift = 32 - 4;
  std::vector<u32> same_home;
  for (u32 k = 1; same_home.size() < 6; ++k) {
    if (((k * 0x9E3779B1u) >> shift) == 5) same_home.push_back(k);
  }
  for (u32 k : same_home) map.insert(k, k * 10);
  EXPECT_EQ(map.max_probe(), 5u);
  for (u32 k : same_home) EXPECT_EQ(map.get(k), k * 10);
  // Erase from the middle of the run: the later ones must stay reachable.
  EXPECT_TRUE(map.erase(same_home[1]));
  EXPECT_TRUE(map.erase(same_home[3]));
  EXPECT_FALSE(map.erase(same_home[3]));
  for (usize i = 0; i < same_home.size(); ++i) {
    EXPECT_EQ(map.contains(same_home[i]), i != 1 && i != 3) << i;
  }
  EXPECT_EQ(map.size(), 4u);
}

TEST(PrehashedMap, GrowsAndMatchesReferenceUnderChurn) {
  PrehashedMap<u32, u32> map;
  std::unordered_map<u32, u32> reference;
  std::mt19937 rng(17);
  for (int step = 0; step < 200000; ++step) {
    const u32 key = rng() % 4096 * 0x10000u + (step % 3 == 0 ? 0 : rng() % 3);  // clustered
    switch (rng() % 4) {
      case 0:
      case 1:
        EXPECT_EQ(map.insert(key, key ^ 0xABCDu).second,
                  reference.emplace(key, key ^ 0xABCDu).second);
        break;
      case 2: EXPECT_EQ(map.erase(key), reference.erase(key) == 1); break;
      default: EXPECT_EQ(map.contains(key), reference.contains(key));
    }
  }
  ASSERT_EQ(map.size(), reference.size());
  usize seen = 0;
  map.for_each([&](u32 key, u32 value) {
    ++seen;
    EXPECT_EQ(reference.at(key), value);
  });
  EXPECT_EQ(seen, reference.size());
  for (const auto& [key, value] : reference) EXPECT_EQ(map.get(key), value);
}

TEST(PrehashedMap, SixtyFourBitKeysMatchReference) {
  PrehashedMap<u64, Record> map;
  std::map<u64, Record> reference;
  std::mt19937_64 rng(5);
  for (int i = 0; i < 20000; ++i) {
    const u64 key = rng() & 0xFFFF00000000FFFFull;
    const Record r{rng(), rng()};
    map.insert_or_assign(key, r);
    reference[key] = r;
    if (i % 5 == 0) {
      const u64 gone = rng() & 0xFFFF00000000FFFFull;
      EXPECT_EQ(map.erase(gone), reference.erase(gone) == 1);
    }
  }
  ASSERT_EQ(map.size(), reference.size());
  for (const auto& [key, value] : reference) {
    ASSERT_NE(map.find(key), nullptr);
    EXPECT_EQ(*map.find(key), value);
  }
}

TEST(PrehashedMap, ReservedMapDoesNotAllocateInSteadyState) {
  PrehashedMap<u32, u64> map;
  map.reserve(1000);
  const usize slots = map.slot_count();
  testing::AllocationScope scope;
  for (int round = 0; round < 10; ++round) {
    for (u32 k = 0; k < 1000; ++k) map.insert(k * 2654435761u, k);
    for (u32 k = 0; k < 1000; ++k) EXPECT_TRUE(map.erase(k * 2654435761u));
  }
  map.clear();
  EXPECT_EQ(scope.count(), 0u);
  EXPECT_EQ(map.slot_count(), slots);
}

TEST(PrehashedMap, OptimizePutsSmallTablesHome) {
  for (u32 n : {1u, 3u, 8u, 20u, 64u, 300u}) {
    PrehashedMap<u32, const char*> map;
    std::vector<u32> keys;
    std::mt19937 rng(n);
    for (u32 i = 0; i < n; ++i) {
      keys.push_back(rng());
      map.insert(keys.back(), "x");
    }
    const u32 before = map.max_probe();
    map.optimize();
    if (n <= 20) {
      EXPECT_EQ(map.max_probe(), 0u) << n;  // every entry in its home slot
    }
    EXPECT_LE(map.max_probe(), before) << n;
    for (u32 k : keys) EXPECT_NE(map.get(k), nullptr);
    EXPECT_EQ(map.get(keys[0] + 1), nullptr);
    EXPECT_EQ(map.size(), n);
  }
}

TEST(PrehashedMap, CopyAndMoveKeepEntriesAndLeaveTheSourceEmpty) {
  PrehashedMap<u32, int> map;
  for (u32 k = 0; k < 100; ++k) map.insert(k, static_cast<int>(k));
  PrehashedMap<u32, int> copy = map;
  EXPECT_EQ(copy.size(), 100u);
  EXPECT_EQ(copy.get(42), 42);
  PrehashedMap<u32, int> moved = std::move(map);
  EXPECT_EQ(moved.get(99), 99);
  EXPECT_EQ(map.size(), 0u);  // NOLINT(bugprone-use-after-move): documented state
  EXPECT_FALSE(map.contains(42));
  map.insert(5, 5);  // usable after the move
  EXPECT_EQ(map.get(5), 5);
  copy.reset();
  EXPECT_EQ(copy.memory_bytes(), 0u);
  EXPECT_FALSE(copy.contains(42));
}

#if KEEL_ASSERTS_ENABLED
TEST(EntryPoints, PrehashedMapRejectsNullPointerValues) {
  static std::string message;
  ScopedAssertHandler handler([](const AssertInfo& info) { message = info.message; });
  PrehashedMap<u32, const int*> map;
  map.insert(3, nullptr);
  EXPECT_NE(message.find("null pointer"), std::string::npos) << message;
}
#endif

}  // namespace
}  // namespace keel
