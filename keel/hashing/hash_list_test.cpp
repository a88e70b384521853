#include "keel/hashing/hash_list.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <utility>
#include <vector>

namespace keel::hashing {
namespace {

struct ListItem {
  int id = 0;
};

std::vector<Hash> hashes_of(const HashList<ListItem>& list) {
  std::vector<Hash> out;
  for (usize i = 0; i < list.size(); ++i) out.push_back(list.hash_at(i));
  return out;
}

// C3-06: random adds in random order keep the array sorted; find, find-by-index, remove; the
// deferred-sort mode gives the same list.
TEST(HashList, C3_06_SortedFindIndexRemoveAndDeferredSort) {
  std::mt19937 rng(6);
  std::set<Hash> unique;
  while (unique.size() < 500) unique.insert(static_cast<Hash>(rng()));
  std::vector<Hash> keys(unique.begin(), unique.end());
  std::vector<ListItem> items(keys.size());
  std::vector<usize> order(keys.size());
  for (usize i = 0; i < order.size(); ++i) order[i] = i;
  std::shuffle(order.begin(), order.end(), rng);

  HashList<ListItem> list;
  HashList<ListItem> deferred;
  deferred.defer_sort();
  for (usize i : order) {
    ASSERT_TRUE(list.add(keys[i], &items[i]));
    ASSERT_TRUE(deferred.add(keys[i], &items[i]));
  }
  ASSERT_TRUE(deferred.sort());
  ASSERT_EQ(list.size(), keys.size());
  ASSERT_EQ(hashes_of(list), keys);  // sorted by hash
  ASSERT_EQ(hashes_of(deferred), keys);
  for (usize i = 0; i < keys.size(); ++i) {
    EXPECT_EQ(list.find(keys[i]), &items[i]);
    EXPECT_EQ(deferred.find(keys[i]), &items[i]);
    EXPECT_EQ(list.at_index(i), &items[i]);  // iteration in hash order
  }
  EXPECT_EQ(list.at_index(keys.size()), nullptr);
  EXPECT_EQ(list.at_index(keys.size() + 100), nullptr);
  Hash missing = 0;
  while (unique.contains(missing)) ++missing;
  EXPECT_EQ(list.find(missing), nullptr);

  // Remove every other key; the array stays sorted and the rest are still found.
  for (usize i = 0; i < keys.size(); i += 2) ASSERT_TRUE(list.remove(keys[i]));
  EXPECT_EQ(list.size(), keys.size() / 2);
  const std::vector<Hash> remaining = hashes_of(list);
  EXPECT_TRUE(std::is_sorted(remaining.begin(), remaining.end()));
  for (usize i = 0; i < keys.size(); ++i) {
    EXPECT_EQ(list.find(keys[i]), i % 2 == 0 ? nullptr : &items[i]);
  }
  Status again = list.remove(keys[0]);
  ASSERT_FALSE(again);
  EXPECT_EQ(again.error().code(), ErrorCode::kNotFound);
}

// C3-07: the incremental-hash collision method, step by step (derived from the book's add and
// remove algorithms).
TEST(HashList, C3_07_IncrementalHashWithTombstones) {
  ListItem x{1}, y{2}, z{3}, w{4}, v{5};
  HashList<ListItem> list(Collisions::kIncremental);
  ASSERT_TRUE(list.add(100, &x));
  ASSERT_TRUE(list.add(100, &y));
  ASSERT_TRUE(list.add(100, &z));
  EXPECT_EQ(hashes_of(list), (std::vector<Hash>{100, 101, 102}));
  EXPECT_EQ(list.at_index(0), &x);
  EXPECT_EQ(list.at_index(1), &y);
  EXPECT_EQ(list.at_index(2), &z);

  usize probes = 0;
  EXPECT_EQ(list.find(
                100, [](const ListItem& i) { return i.id == 3; }, probes),
            &z);
  EXPECT_EQ(probes, 3u);  // 100, 101, 102
  EXPECT_EQ(list.find(100), &x);
  EXPECT_EQ(list.find(101), nullptr);  // 101 holds Y, whose own hash is 100

  // Remove Y: the next entry continues the run, so Y's slot becomes a tombstone.
  ASSERT_TRUE(list.remove(100, &y));
  EXPECT_EQ(list.size(), 3u);
  EXPECT_EQ(list.count(), 2u);
  EXPECT_EQ(list.at_index(1), nullptr);
  EXPECT_EQ(list.find(100, [](const ListItem& i) { return i.id == 3; }),
            &z);  // across the tombstone

  // Remove Z: the end of the run; the walk back takes the tombstone with it.
  ASSERT_TRUE(list.remove(100, &z));
  EXPECT_EQ(hashes_of(list), (std::vector<Hash>{100}));
  EXPECT_EQ(list.at_index(0), &x);

  // W with its own hash 101 lands at 101; V with hash 100 probes past it to 102.
  ASSERT_TRUE(list.add(101, &w));
  ASSERT_TRUE(list.add(100, &v));
  EXPECT_EQ(hashes_of(list), (std::vector<Hash>{100, 101, 102}));
  EXPECT_EQ(list.at_index(1), &w);
  EXPECT_EQ(list.at_index(2), &v);
  EXPECT_EQ(list.find(101), &w);
  EXPECT_EQ(list.find(100, [](const ListItem& i) { return i.id == 5; }), &v);

  Status again = list.add(100, &x);
  ASSERT_FALSE(again);
  EXPECT_EQ(again.error().code(), ErrorCode::kAlreadyExists);
  EXPECT_EQ(list.size(), 3u);
}

// Erratum 20: an incremental probe never wraps from 0xFFFFFFFF to 0; the add fails with
// kOverflow and leaves the list unchanged. The removal walk back stops at hash 0.
TEST(HashList, Erratum20_IncrementalOverflowPolicy) {
  ListItem a{1}, b{2}, c{3}, d{4};
  HashList<ListItem> list(Collisions::kIncremental);
  ASSERT_TRUE(list.add(0xFFFFFFFEu, &a));
  ASSERT_TRUE(list.add(0xFFFFFFFEu, &b));  // probes to 0xFFFFFFFF
  Status full = list.add(0xFFFFFFFEu, &c);
  ASSERT_FALSE(full);
  EXPECT_EQ(full.error().code(), ErrorCode::kOverflow);
  Status top = list.add(0xFFFFFFFFu, &c);
  ASSERT_FALSE(top);
  EXPECT_EQ(top.error().code(), ErrorCode::kOverflow);
  EXPECT_EQ(hashes_of(list), (std::vector<Hash>{0xFFFFFFFEu, 0xFFFFFFFFu}));
  EXPECT_EQ(list.count(), 2u);
  EXPECT_EQ(list.find(0), nullptr);  // nothing wrapped to the bottom

  // A tombstone frees a slot inside the run; the add reuses it.
  ASSERT_TRUE(list.remove(0xFFFFFFFEu, &a));
  EXPECT_EQ(list.size(), 2u);
  ASSERT_TRUE(list.add(0xFFFFFFFEu, &c));
  EXPECT_EQ(list.at_index(0), &c);

  // Bottom of the range: the walk back over tombstones ends at hash 0.
  HashList<ListItem> low(Collisions::kIncremental);
  ASSERT_TRUE(low.add(0, &a));
  ASSERT_TRUE(low.add(0, &b));
  ASSERT_TRUE(low.add(0, &d));
  ASSERT_TRUE(low.remove(0, &a));
  ASSERT_TRUE(low.remove(0, &b));
  EXPECT_EQ(low.size(), 3u);  // two tombstones bridge to D
  EXPECT_EQ(low.find(0), &d);
  ASSERT_TRUE(low.remove(0, &d));
  EXPECT_EQ(low.size(), 0u);

  // Deferred sort applies the same policy and reports the dropped item.
  HashList<ListItem> deferred(Collisions::kIncremental);
  deferred.defer_sort();
  ASSERT_TRUE(deferred.add(0xFFFFFFFFu, &a));
  ASSERT_TRUE(deferred.add(0xFFFFFFFFu, &b));
  Status sorted = deferred.sort();
  ASSERT_FALSE(sorted);
  EXPECT_EQ(sorted.error().code(), ErrorCode::kOverflow);
  EXPECT_EQ(deferred.count(), 1u);
  EXPECT_EQ(deferred.find(0xFFFFFFFFu), &a);
}

// Erratum 19 (for lists): a repeated (hash, pointer) is rejected in every mode, also when the
// earlier copy sits behind a tombstone (the book's add would store it twice).
TEST(HashList, Erratum19_DuplicateAddsRejected) {
  ListItem x{1}, y{2}, z{3};
  for (Collisions mode : {Collisions::kReject, Collisions::kSideBySide, Collisions::kIncremental,
                          Collisions::kChained}) {
    HashList<ListItem> list(mode);
    ASSERT_TRUE(list.add(7, &x));
    Status again = list.add(7, &x);
    ASSERT_FALSE(again);
    EXPECT_EQ(again.error().code(), ErrorCode::kAlreadyExists);
    Status other = list.add(7, &y);
    EXPECT_EQ(other.has_value(), mode != Collisions::kReject);
    EXPECT_EQ(list.count(), mode == Collisions::kReject ? 1u : 2u);
  }
  HashList<ListItem> list(Collisions::kIncremental);
  ASSERT_TRUE(list.add(50, &x));
  ASSERT_TRUE(list.add(50, &y));
  ASSERT_TRUE(list.add(50, &z));
  ASSERT_TRUE(list.remove(50, &x));  // tombstone at 50, Y at 51
  Status again = list.add(50, &y);
  ASSERT_FALSE(again);
  EXPECT_EQ(list.count(), 2u);
}

TEST(HashList, SideBySideDuplicatesFoundByMatch) {
  ListItem a{1}, b{2}, c{3}, other{4};
  HashList<ListItem> list(Collisions::kSideBySide);
  ASSERT_TRUE(list.add(10, &other));
  ASSERT_TRUE(list.add(20, &a));
  ASSERT_TRUE(list.add(20, &b));
  ASSERT_TRUE(list.add(20, &c));
  EXPECT_EQ(hashes_of(list), (std::vector<Hash>{10, 20, 20, 20}));
  EXPECT_EQ(list.find(20), &a);  // first added
  EXPECT_EQ(list.find(20, [](const ListItem& i) { return i.id == 3; }), &c);
  EXPECT_EQ(list.find(20, [](const ListItem& i) { return i.id == 4; }), nullptr);
  ASSERT_TRUE(list.remove(20, &b));
  EXPECT_EQ(list.find(20, [](const ListItem& i) { return i.id == 2; }), nullptr);
  EXPECT_EQ(list.find(20, [](const ListItem& i) { return i.id == 3; }), &c);
  ASSERT_TRUE(list.remove(20));  // removes the first: A
  EXPECT_EQ(list.find(20), &c);
  EXPECT_FALSE(list.remove(20, &a));
}

TEST(HashList, ChainedCollisionsHangOffOneEntry) {
  ListItem a{1}, b{2}, c{3};
  HashList<ListItem> list(Collisions::kChained);
  ASSERT_TRUE(list.add(5, &a));
  ASSERT_TRUE(list.add(5, &b));
  ASSERT_TRUE(list.add(5, &c));
  EXPECT_EQ(list.size(), 1u);  // one array entry
  EXPECT_EQ(list.count(), 3u);
  EXPECT_EQ(list.find(5, [](const ListItem& i) { return i.id == 3; }), &c);
  std::vector<int> seen;
  list.for_each([&](Hash h, ListItem* i) {
    EXPECT_EQ(h, 5u);
    seen.push_back(i->id);
  });
  EXPECT_EQ(seen, (std::vector<int>{1, 2, 3}));
  ASSERT_TRUE(list.remove(5, &a));  // B is promoted into the entry
  EXPECT_EQ(list.find(5), &b);
  EXPECT_EQ(list.find(5, [](const ListItem& i) { return i.id == 3; }), &c);
  ASSERT_TRUE(list.remove(5, &c));
  ASSERT_TRUE(list.remove(5, &b));
  EXPECT_EQ(list.size(), 0u);
  EXPECT_TRUE(list.empty());
}

TEST(HashList, DeferredSortPerModeDropsRuleBreakers) {
  ListItem a{1}, b{2}, c{3};
  HashList<ListItem> reject;
  reject.defer_sort();
  ASSERT_TRUE(reject.add(9, &a));
  ASSERT_TRUE(reject.add(9, &b));
  ASSERT_TRUE(reject.add(3, &c));
  Status s = reject.sort();
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code(), ErrorCode::kAlreadyExists);
  EXPECT_EQ(reject.find(9), &a);  // the first added wins
  EXPECT_EQ(reject.count(), 2u);

  HashList<ListItem> incremental(Collisions::kIncremental);
  ASSERT_TRUE(incremental.add(101, &c));  // sorted part, then a deferred batch
  incremental.defer_sort();
  ASSERT_TRUE(incremental.add(100, &a));
  ASSERT_TRUE(incremental.add(100, &b));
  ASSERT_TRUE(incremental.sort());
  EXPECT_EQ(hashes_of(incremental), (std::vector<Hash>{100, 101, 102}));
  EXPECT_EQ(incremental.find(101), &c);
  EXPECT_EQ(incremental.find(100, [](const ListItem& i) { return i.id == 2; }), &b);

  HashList<ListItem> chained(Collisions::kChained);
  chained.defer_sort();
  ASSERT_TRUE(chained.add(4, &a));
  ASSERT_TRUE(chained.add(4, &b));
  ASSERT_TRUE(chained.add(4, &a));
  Status dup = chained.sort();
  ASSERT_FALSE(dup);
  EXPECT_EQ(chained.size(), 1u);
  EXPECT_EQ(chained.count(), 2u);
}

// Every mode against a reference multimap under random adds and removes with many collisions.
TEST(HashList, RandomOperationsMatchReferenceInEveryMode) {
  for (Collisions mode :
       {Collisions::kSideBySide, Collisions::kIncremental, Collisions::kChained}) {
    std::mt19937 rng(static_cast<u32>(mode) + 11);
    std::vector<ListItem> items(200);
    for (usize i = 0; i < items.size(); ++i) items[i].id = static_cast<int>(i);
    std::vector<Hash> hash_of(items.size());
    std::vector<bool> stored(items.size(), false);
    HashList<ListItem> list(mode);
    for (int step = 0; step < 5000; ++step) {
      const usize i = rng() % items.size();
      if (!stored[i]) {
        hash_of[i] = 1000 + rng() % 40;  // dense: long runs and many collisions
        ASSERT_TRUE(list.add(hash_of[i], &items[i]));
        stored[i] = true;
      } else {
        ASSERT_TRUE(list.remove(hash_of[i], &items[i]));
        stored[i] = false;
      }
      if (step % 97 == 0) {
        usize live = 0;
        for (usize k = 0; k < items.size(); ++k) {
          const int id = static_cast<int>(k);
          ListItem* found = list.find(hash_of[k], [id](const ListItem& it) { return it.id == id; });
          EXPECT_EQ(found, stored[k] ? &items[k] : nullptr) << "mode " << static_cast<int>(mode);
          live += stored[k] ? 1 : 0;
        }
        EXPECT_EQ(list.count(), live);
        const auto hashes = hashes_of(list);
        EXPECT_TRUE(std::is_sorted(hashes.begin(), hashes.end()));
      }
    }
  }
}

}  // namespace
}  // namespace keel::hashing
