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

// A database's entries as loaded: in their order, looked up sequentially with a cursor and by
// key through an index built on first need.
TEST(PipelineFileCache, LoadedEntriesAreFoundInOrderWithACursorAndByKey) {
  std::vector<FileCache::Entry> entries;
  // The extremes of the key range and spread keys, in no particular order.
  for (const u64 key : {~u64{0}, u64{0}, u64{3}, u64{1}}) entries.emplace_back(key, rec(key));
  for (u64 i = 1; i < 3000; ++i) entries.emplace_back(i * 0x0005'4321'0FED'CBA9ull, rec(i));
  FileCache cache;
  cache.assign(std::vector<FileCache::Entry>(entries));
  EXPECT_EQ(cache.size(), entries.size());
  EXPECT_EQ(cache.entries(), entries) << "kept in the order given";
  FileCache::Cursor cursor;
  for (usize i = 0; i < entries.size(); ++i) {
    const FileRecord* found = cache.find(entries[i].first, cursor);
    ASSERT_NE(found, nullptr) << i;
    EXPECT_EQ(found != nullptr ? *found : FileRecord{}, entries[i].second);
    EXPECT_EQ(cursor.next, i + 1) << "a sequential lookup moves the cursor past the hit";
  }
  // Out of order, with cursors anywhere (also past the end): found through the index.
  for (usize start : {usize{0}, usize{17}, entries.size(), usize{1} << 40}) {
    FileCache::Cursor jumpy{start};
    for (usize i = entries.size(); i-- > 0;) {
      const FileRecord* found = cache.find(entries[i].first, jumpy);
      ASSERT_NE(found, nullptr) << i;
      EXPECT_EQ(found != nullptr ? *found : FileRecord{}, entries[i].second);
      EXPECT_EQ(jumpy.next, i + 1);
    }
  }
  for (const u64 absent : {u64{4}, u64{12345}, ~u64{0} - 1, u64{1} << 63}) {
    FileCache::Cursor c;
    EXPECT_EQ(cache.find(absent), nullptr) << absent;
    EXPECT_EQ(cache.find(absent, c), nullptr) << absent;
  }
  FileCache table;
  for (auto it = entries.rbegin(); it != entries.rend(); ++it) table.put(it->first, it->second);
  EXPECT_TRUE(cache == table) << "equal whatever the order";
  EXPECT_TRUE(table == cache);
  EXPECT_EQ(cache.sorted(), table.sorted());
  // A put replaces in place and appends; every loaded entry is still there.
  cache.put(3, rec(77));
  cache.put(5, rec(5));
  EXPECT_EQ(cache.size(), entries.size() + 1);
  EXPECT_EQ(cache.entries()[2], (FileCache::Entry{3, rec(77)}));
  EXPECT_EQ(cache.entries().back(), (FileCache::Entry{5, rec(5)}));
  for (const auto& [key, record] : entries) {
    ASSERT_NE(cache.find(key), nullptr) << key;
  }
  EXPECT_FALSE(cache == table);
}

TEST(PipelineFileCache, CopiesAndMovesKeepEntriesAndIndex) {
  FileCache a;
  a.assign({{5, rec(5)}, {9, rec(9)}});
  FileCache copy(a);  // before a has an index
  EXPECT_NE(a.find(9), nullptr);
  FileCache moved(std::move(copy));
  ASSERT_NE(moved.find(5), nullptr);
  EXPECT_EQ(*moved.find(5), rec(5));
  EXPECT_TRUE(moved == a);
  FileCache assigned;
  assigned = a;
  assigned.put(11, rec(11));
  EXPECT_EQ(assigned.size(), 3u);
  EXPECT_EQ(a.size(), 2u);
  EXPECT_EQ(a.find(11), nullptr);
}

}  // namespace
}  // namespace keel::pipeline
