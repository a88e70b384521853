// The counting operator new of keel::core_testing (linked into keel_core_tests).
#include "keel/core/testing/alloc_counter.h"

#include <gtest/gtest.h>

#include <memory>
#include <new>
#include <thread>
#include <vector>

namespace keel::testing {
namespace {

struct alignas(64) CacheLine {
  u8 bytes[64];
};

TEST(AllocationCounter, IsLinked) { EXPECT_TRUE(allocation_counting_linked()); }

TEST(AllocationCounter, CountsPlainArrayAndNothrowNew) {
  AllocationScope scope;
  auto* one = new int(3);
  auto* many = new int[10];
  auto* quiet = new (std::nothrow) int(4);
  auto* quiet_many = new (std::nothrow) int[5];
  EXPECT_EQ(scope.count(), 4u);
  EXPECT_EQ(scope.aligned_count(), 0u);
  EXPECT_GE(scope.bytes(), sizeof(int) * 17);
  delete one;
  delete[] many;
  delete quiet;
  delete[] quiet_many;
  EXPECT_EQ(scope.counts().frees, 4u);
}

TEST(AllocationCounter, CountsAlignedNewInEveryForm) {
  AllocationScope scope;
  auto* line = new CacheLine;
  auto* lines = new CacheLine[3];
  auto* quiet = new (std::nothrow) CacheLine;
  void* raw = ::operator new (100, std::align_val_t{128});
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(line) % 64, 0u);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(lines) % 64, 0u);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(raw) % 128, 0u);
  EXPECT_EQ(scope.count(), 4u);
  EXPECT_EQ(scope.aligned_count(), 4u);
  delete line;
  delete[] lines;
  delete quiet;
  ::operator delete (raw, std::align_val_t{128});
  // Library containers use the aligned forms for over-aligned types too.
  std::vector<CacheLine> v(4);
  auto unique = std::make_unique<CacheLine>();
  EXPECT_EQ(scope.aligned_count(), 6u);
}

TEST(AllocationCounter, ScopeResetsAndCountsNothingWhenNothingAllocates) {
  std::vector<int> v;
  v.reserve(100);
  AllocationScope scope;
  for (int i = 0; i < 100; ++i) v.push_back(i);
  EXPECT_EQ(scope.count(), 0u) << scope.counts();
  v.push_back(1);  // beyond the reserve
  EXPECT_EQ(scope.count(), 1u);
  scope.reset();
  EXPECT_EQ(scope.count(), 0u);
}

TEST(AllocationCounter, ThreadScopeIgnoresOtherThreads) {
  AllocationScope mine(AllocationScope::Threads::kThisThread);
  AllocationScope all;
  std::thread other([] {
    for (int i = 0; i < 10; ++i) delete new int(i);
  });
  other.join();
  EXPECT_LT(mine.count(), 10u);  // only the std::thread's own state is allocated here
  EXPECT_GE(all.count(), 11u);
}

}  // namespace
}  // namespace keel::testing
