// Counting allocations in tests: the library keel::core_testing replaces the global operator
// new and delete of the test executable that links it (every form: plain, array, nothrow,
// aligned with std::align_val_t, and their combinations; malloc and free underneath, so the
// sanitizers still see every block). Link it to a test executable through keel_add_module's
// TEST_DEPS (`TEST_DEPS keel::core_testing`); it is an object library, so the replacement is
// always linked, exactly once.
//
//   keel::testing::AllocationScope scope;   // counts from here
//   run_a_frame();
//   EXPECT_EQ(scope.count(), 0u) << scope.counts();
//
// Counting is always on and costs one relaxed atomic add per allocation. A scope counts every
// thread's allocations, or only its own thread's with Threads::kThisThread.
#pragma once

#include "keel/core/types.h"

#include <iosfwd>

namespace keel::testing {

struct AllocationCounts {
  u64 allocations = 0;  // calls of any operator new (aligned ones included)
  u64 aligned = 0;      // of which with an std::align_val_t argument
  u64 bytes = 0;        // requested
  u64 frees = 0;        // calls of operator delete with a non-null pointer
};
std::ostream& operator<<(std::ostream& out, const AllocationCounts& counts);

// Totals since the program started: of every thread, or of the calling thread.
AllocationCounts process_allocation_counts();
AllocationCounts thread_allocation_counts();

// False when the counting operator new is not linked (the counts would stay 0: a test that
// expects no allocation could not fail). AllocationScope asserts it.
bool allocation_counting_linked();

class AllocationScope {
 public:
  enum class Threads : u8 { kAll, kThisThread };
  explicit AllocationScope(Threads threads = Threads::kAll);

  // Since construction (or the last reset()).
  AllocationCounts counts() const;
  u64 count() const { return counts().allocations; }
  u64 aligned_count() const { return counts().aligned; }
  u64 bytes() const { return counts().bytes; }
  void reset();

 private:
  AllocationCounts now() const;
  Threads threads_;
  AllocationCounts start_;
};

}  // namespace keel::testing
