#include "keel/core/slot_map.h"

#include "keel/core/testing/alloc_counter.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <unordered_map>
#include <vector>

namespace keel {
namespace {

struct Thing {
  int value = 0;
  std::vector<int> buffer;
};
using Things = SlotMap<Thing>;

TEST(SlotMap, NullHandleIsNeverAlive) {
  Things map;
  const Things::HandleType null;
  EXPECT_TRUE(null.is_null());
  EXPECT_FALSE(map.alive(null));
  map.insert(Thing{1, {}});
  EXPECT_FALSE(map.alive(null));  // not even with slot 0 in use
  EXPECT_EQ(map.find(null), nullptr);
  EXPECT_EQ(map.status(null), HandleStatus::kNull);
  EXPECT_FALSE(map.erase(null));
}

TEST(SlotMap, StaleHandlesStayDeadAfterTheSlotIsReused) {
  Things map;
  const auto first = map.emplace(7, std::vector<int>{1, 2});
  ASSERT_NE(map.find(first), nullptr);
  EXPECT_EQ(map[first].value, 7);
  EXPECT_TRUE(map.erase(first));
  EXPECT_FALSE(map.alive(first));
  EXPECT_EQ(map.status(first), HandleStatus::kStale);
  const auto second = map.insert(Thing{8, {}});
  EXPECT_EQ(second.index, first.index);  // the slot is reused...
  EXPECT_NE(second, first);              // ...under a new generation
  EXPECT_EQ(map.find(first), nullptr);
  EXPECT_FALSE(map.erase(first));
  EXPECT_EQ(map[second].value, 8);
  EXPECT_EQ(map.size(), 1u);
}

TEST(SlotMap, HandlesOfAnotherMapAreRecognised) {
  Things a;
  Things b;
  const auto in_a = a.insert(Thing{1, {}});
  const auto in_b = b.insert(Thing{2, {}});
  EXPECT_EQ(in_a.index, in_b.index);
  EXPECT_FALSE(a.alive(in_b));
  EXPECT_FALSE(b.alive(in_a));
  EXPECT_TRUE(a.owns(in_a));
  EXPECT_FALSE(a.owns(in_b));
  EXPECT_EQ(a.status(in_b), HandleStatus::kForeign);
  EXPECT_FALSE(a.erase(in_b));
  EXPECT_TRUE(b.alive(in_b));
}

TEST(SlotMap, MovingKeepsHandlesAndAddresses) {
  Things a;
  const auto h = a.insert(Thing{5, {}});
  const Thing* address = a.find(h);
  Things b = std::move(a);
  EXPECT_EQ(b.find(h), address);
  const auto fresh = a.insert(Thing{6, {}});  // NOLINT(bugprone-use-after-move): reusable
  EXPECT_FALSE(b.alive(fresh));
  EXPECT_FALSE(a.alive(h));
}

TEST(SlotMap, AddressesAreStableWhileTheMapGrows) {
  SlotMap<int, struct GrowTag, 16> map;
  const auto h = map.insert(42);
  const int* address = map.find(h);
  for (int i = 0; i < 1000; ++i) map.insert(i);
  EXPECT_EQ(map.find(h), address);
  EXPECT_EQ(*address, 42);
}

TEST(SlotMap, FreeListIsLastInFirstOut) {
  SlotMap<int> map;
  std::vector<SlotMap<int>::HandleType> handles;
  for (int i = 0; i < 5; ++i) handles.push_back(map.insert(i));
  map.erase(handles[1]);
  map.erase(handles[3]);
  EXPECT_EQ(map.insert(10).index, 3u);
  EXPECT_EQ(map.insert(11).index, 1u);
  EXPECT_EQ(map.insert(12).index, 5u);
  EXPECT_EQ(map.slot_count(), 6u);
}

TEST(SlotMap, IterationVisitsLiveObjectsInIndexOrder) {
  SlotMap<int> map;
  std::vector<SlotMap<int>::HandleType> handles;
  for (int i = 0; i < 10; ++i) handles.push_back(map.insert(i * 10));
  for (int i = 0; i < 10; i += 3) map.erase(handles[static_cast<usize>(i)]);
  std::vector<int> seen;
  map.for_each([&](SlotMap<int>::HandleType h, int& v) {
    EXPECT_TRUE(map.alive(h));
    seen.push_back(v);
  });
  EXPECT_EQ(seen, (std::vector<int>{10, 20, 40, 50, 70, 80}));
  // Erasing during the walk.
  map.for_each([&](SlotMap<int>::HandleType h, int& v) {
    if (v == 40) map.erase(h);
  });
  EXPECT_EQ(map.size(), 5u);
}

TEST(SlotMap, EraseResetsTheObjectReleaseKeepsIt) {
  Things map;
  const auto a = map.emplace(1, std::vector<int>(100, 1));
  map.erase(a);
  const auto b = map.acquire();
  EXPECT_TRUE(map[b].buffer.empty());  // erase reset it to Thing{}
  map[b].buffer.assign(100, 2);
  map.release(b);
  const auto c = map.acquire();
  EXPECT_EQ(c.index, b.index);
  EXPECT_EQ(map[c].buffer.size(), 100u);  // release kept it for reuse
}

TEST(SlotMap, EraseDestroysTheOldValueAfterTheMapIsConsistent) {
  struct Reentrant {
    SlotMap<Reentrant>* map = nullptr;
    bool armed = false;
    Reentrant() = default;
    Reentrant(SlotMap<Reentrant>* m, bool a) : map(m), armed(a) {}
    Reentrant(Reentrant&& o) noexcept : map(o.map), armed(std::exchange(o.armed, false)) {}
    Reentrant& operator=(Reentrant&& o) noexcept {
      map = o.map;
      armed = std::exchange(o.armed, false);
      return *this;
    }
    ~Reentrant() {
      if (armed) map->insert(Reentrant{});  // uses the map from the destructor
    }
  };
  SlotMap<Reentrant> map;
  const auto h = map.insert(Reentrant{&map, true});
  EXPECT_TRUE(map.erase(h));
  EXPECT_EQ(map.size(), 1u);  // the one the destructor added
}

TEST(SlotMap, MatchesReferenceUnderChurnWithoutAllocatingAfterReserve) {
  SlotMap<u64> map;
  map.reserve(512);
  std::unordered_map<u32, std::pair<SlotMap<u64>::HandleType, u64>> live;
  std::vector<SlotMap<u64>::HandleType> dead;
  std::mt19937 rng(3);
  testing::AllocationScope scope;
  usize allocations_in_map = 0;
  for (int step = 0; step < 20000; ++step) {
    const usize before = scope.count();
    if (live.size() < 500 && (rng() % 2 == 0 || live.empty())) {
      const u64 value = rng();
      const auto h = map.insert(value);
      allocations_in_map += scope.count() - before;
      live[h.index] = {h, value};
    } else {
      auto it = live.begin();
      std::advance(it, static_cast<long>(rng() % live.size()));
      EXPECT_TRUE(map.erase(it->second.first));
      allocations_in_map += scope.count() - before;
      dead.push_back(it->second.first);
      live.erase(it);
    }
  }
  EXPECT_EQ(allocations_in_map, 0u);
  EXPECT_EQ(map.size(), live.size());
  for (const auto& [index, entry] : live) EXPECT_EQ(map[entry.first], entry.second);
  for (const auto& h : dead) {
    const bool reissued = live.contains(h.index) && live.at(h.index).first == h;
    EXPECT_TRUE(reissued || !map.alive(h));
  }
}

#if KEEL_ASSERTS_ENABLED
TEST(EntryPoints, SlotMapAccessNamesTheHandleMistake) {
  static std::string message;
  ScopedAssertHandler handler([](const AssertInfo& info) { message = info.message; });
  SlotMap<int> a;
  SlotMap<int> b;
  a.insert(1);
  const auto foreign = b.insert(2);
  (void)a[foreign];
  EXPECT_NE(message.find("foreign"), std::string::npos) << message;
  const auto h = a.insert(3);
  a.erase(h);
  (void)a[h];
  EXPECT_NE(message.find("stale"), std::string::npos) << message;
  (void)a[SlotMap<int>::HandleType{}];
  EXPECT_NE(message.find("null"), std::string::npos) << message;
}
#endif

}  // namespace
}  // namespace keel
