#include "keel/pipeline/detail/file_cache.h"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace keel::pipeline
