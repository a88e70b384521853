#include "keel/pipeline/detail/file_cache.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

namespace keel::pipeline {
namespace {

FileRecord rec(u64 n) { return FileRecord{{n, static_cast<s64>(n) * 3, n + 1}, n * 7, 5}; }

TEST(PipelineFileCache, PutFindGrowAndReplace) {
  FileCache cache;
  EXPECT_EQ(cache.find(1), nullptr);
  // Keys that collide in the low bits, key 0 included.
  for (u64 i = 0; i < 1000; ++i) cache.put(i << 20, rec(i));
  EXPECT_EQ(cache.size(), 1000u);
  for (u64 i = 0; i < 1000; ++i) {
    const FileRecord* found = cache.find(i << 20);
    ASSERT_NE(found, nullptr) << i;
    EXPECT_EQ(found != nullptr ? *found : FileRecord{}, rec(i));  // no null path for GCC -O3
  }
  EXPECT_EQ(cache.find(12345), nullptr);
  cache.put(0, rec(77));
  EXPECT_EQ(cache.size(), 1000u);
  const FileRecord* zero = cache.find(0);
  ASSERT_NE(zero, nullptr);
  EXPECT_EQ(zero != nullptr ? *zero : FileRecord{}, rec(77));
  const auto sorted = cache.sorted();
  ASSERT_EQ(sorted.size(), 1000u);
  EXPECT_EQ(sorted.front().first, 0u);
  EXPECT_EQ(sorted.back().first, u64{999} << 20);
}

TEST(PipelineFileCache, EqualityIgnoresInsertionOrder) {
  FileCache a;
  FileCache b;
  b.reserve(100);
  for (u64 i = 1; i <= 50; ++i) a.put(i * 977, rec(i));
  for (u64 i = 50; i >= 1; --i) b.put(i * 977, rec(i));
  EXPECT_TRUE(a == b);
  b.put(977, rec(3));
  EXPECT_FALSE(a == b);
  b.put(977, rec(1));
  b.put(1, rec(1));
  EXPECT_FALSE(a == b);
}

// A database's entries as loaded: the sorted array with its bucket index.
TEST(PipelineFileCache, LoadedSortedEntriesAreFoundUntilAPutMovesThemIntoTheTable) {
  std::vector<FileCache::Entry> entries;
  // The extremes of the key range, clustered keys that share a bucket, spread ones.
  for (const u64 key : {u64{0}, u64{1}, u64{2}, u64{3}}) entries.emplace_back(key, rec(key));
  for (u64 i = 1; i < 3000; ++i) entries.emplace_back(i * 0x0005'4321'0FED'CBA9ull, rec(i));
  entries.emplace_back(~u64{0}, rec(9));
  std::sort(entries.begin(), entries.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  FileCache cache;
  ASSERT_TRUE(cache.assign_sorted(std::vector<FileCache::Entry>(entries)));
  EXPECT_EQ(cache.size(), entries.size());
  for (const auto& [key, record] : entries) {
    const FileRecord* found = cache.find(key);
    ASSERT_NE(found, nullptr) << key;
    EXPECT_EQ(found != nullptr ? *found : FileRecord{}, record);
  }
  for (const u64 absent : {u64{4}, u64{12345}, ~u64{0} - 1, u64{1} << 63}) {
    EXPECT_EQ(cache.find(absent), nullptr) << absent;
  }
  EXPECT_EQ(cache.sorted(), entries);
  FileCache table;
  for (auto it = entries.rbegin(); it != entries.rend(); ++it) table.put(it->first, it->second);
  EXPECT_TRUE(cache == table) << "a loaded cache equals a table with the same entries";
  EXPECT_TRUE(table == cache);
  // A put replaces and adds as in a table; every loaded entry is still there.
  cache.put(2, rec(77));
  cache.put(5, rec(5));
  EXPECT_EQ(cache.size(), entries.size() + 1);
  ASSERT_NE(cache.find(2), nullptr);
  EXPECT_EQ(*cache.find(2), rec(77));
  for (const auto& [key, record] : entries) {
    if (key != 2) {
      EXPECT_NE(cache.find(key), nullptr) << key;
    }
  }
  EXPECT_FALSE(cache == table);
}

TEST(PipelineFileCache, AssignSortedRefusesUnsortedOrRepeatedKeys) {
  FileCache cache;
  cache.put(8, rec(8));
  EXPECT_FALSE(cache.assign_sorted({{2, rec(2)}, {1, rec(1)}}));
  std::vector<FileCache::Entry> repeated = {{1, rec(1)}, {1, rec(2)}};
  EXPECT_FALSE(cache.assign_sorted(std::move(repeated)));
  EXPECT_EQ(repeated.size(), 2u) << "a refused list is not taken (the caller falls back to put)";
  EXPECT_EQ(cache.size(), 1u) << "a refused list leaves the contents as they were";
  EXPECT_NE(cache.find(8), nullptr);
  EXPECT_TRUE(cache.assign_sorted({}));
  EXPECT_EQ(cache.size(), 0u);
  EXPECT_EQ(cache.find(8), nullptr);
  EXPECT_TRUE(cache.assign_sorted({{7, rec(7)}}));
  EXPECT_EQ(cache.size(), 1u);
  EXPECT_NE(cache.find(7), nullptr);
  EXPECT_EQ(cache.find(6), nullptr);
}

}  // namespace
}  // namespace keel::pipeline
