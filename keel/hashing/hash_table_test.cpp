#include "keel/hashing/hash_table.h"

#include <gtest/gtest.h>

#include <random>
#include <set>
#include <vector>

namespace keel::hashing {
namespace {

struct TableItem {
  int id = 0;
};

// C3-08: 20 buckets, bucket = hash % 20; finds and removes agree with one hash list; 400 random
// items spread about 20 to a bucket.
TEST(HashTable, C3_08_BucketsByModuloAndAgreementWithList) {
  std::mt19937 rng(8);
  std::set<Hash> unique;
  while (unique.size() < 400) unique.insert(static_cast<Hash>(rng()));
  std::vector<Hash> keys(unique.begin(), unique.end());
  std::vector<TableItem> items(keys.size());

  HashTable<TableItem> table(20);
  HashList<TableItem> list;
  for (usize i = 0; i < keys.size(); ++i) {
    ASSERT_TRUE(table.add(keys[i], &items[i]));
    ASSERT_TRUE(list.add(keys[i], &items[i]));
  }
  EXPECT_EQ(table.count(), 400u);
  for (usize i = 0; i < keys.size(); ++i) {
    const usize b = keys[i] % 20;
    EXPECT_EQ(table.bucket_of(keys[i]), b);
    EXPECT_EQ(table.bucket(b).find(keys[i]), &items[i]);
    EXPECT_EQ(table.bucket((b + 1) % 20).find(keys[i]), nullptr);
  }
  usize total = 0;
  for (usize b = 0; b < table.bucket_count(); ++b) {
    EXPECT_GE(table.bucket(b).count(), 8u) << "bucket " << b;
    EXPECT_LE(table.bucket(b).count(), 35u) << "bucket " << b;
    total += table.bucket(b).count();
  }
  EXPECT_EQ(total, 400u);

  for (usize i = 0; i < keys.size(); i += 3) {
    ASSERT_TRUE(table.remove(keys[i]));
    ASSERT_TRUE(list.remove(keys[i]));
  }
  for (int probe = 0; probe < 2000; ++probe) {
    const Hash h = probe < 400 ? keys[static_cast<usize>(probe)] : static_cast<Hash>(rng());
    EXPECT_EQ(table.find(h), list.find(h));
  }
  EXPECT_EQ(table.count(), list.count());
  EXPECT_FALSE(table.remove(keys[0]));
}

TEST(HashTable, CollisionModesWorkPerBucket) {
  TableItem a{1}, b{2};
  HashTable<TableItem> table(7, Collisions::kIncremental);
  ASSERT_TRUE(table.add(42, &a));
  ASSERT_TRUE(table.add(42, &b));
  EXPECT_EQ(table.find(42, [](const TableItem& i) { return i.id == 2; }), &b);
  ASSERT_TRUE(table.remove(42, &a));
  EXPECT_EQ(table.find(42), &b);
  int visited = 0;
  table.for_each([&](Hash h, TableItem* i) {
    EXPECT_EQ(h, 42u);
    EXPECT_EQ(i, &b);
    ++visited;
  });
  EXPECT_EQ(visited, 1);
  table.clear();
  EXPECT_EQ(table.count(), 0u);
}

}  // namespace
}  // namespace keel::hashing
