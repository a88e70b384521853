// The counting global operator new/delete (see alloc_counter.h). Defined once, here: this file
// is the object library keel::core_testing.
#include "keel/core/testing/alloc_counter.h"

#include "keel/core/assert.h"

#include <atomic>
#include <cstdlib>
#include <new>
#include <ostream>

namespace keel::testing {
namespace {

struct Counters {
  std::atomic<u64> allocations{0};
  std::atomic<u64> aligned{0};
  std::atomic<u64> bytes{0};
  std::atomic<u64> frees{0};
};
// Constant-initialised (no constructor runs), so allocations during static initialisation of
// other files are counted safely.
constinit Counters g_process;
constinit thread_local AllocationCounts t_thread;

void count_new(std::size_t size, bool aligned) {
  g_process.allocations.fetch_add(1, std::memory_order_relaxed);
  g_process.bytes.fetch_add(size, std::memory_order_relaxed);
  ++t_thread.allocations;
  t_thread.bytes += size;
  if (aligned) {
    g_process.aligned.fetch_add(1, std::memory_order_relaxed);
    ++t_thread.aligned;
  }
}

void count_delete(void* p) {
  if (p == nullptr) return;
  g_process.frees.fetch_add(1, std::memory_order_relaxed);
  ++t_thread.frees;
}

void* allocate(std::size_t size) {
  count_new(size, false);
  return std::malloc(size == 0 ? 1 : size);
}

void* allocate_aligned(std::size_t size, std::align_val_t align) {
  count_new(size, true);
  const auto alignment = static_cast<std::size_t>(align);
  // aligned_alloc wants a size that is a multiple of the alignment (and at least the alignment).
  const std::size_t rounded =
      size == 0 ? alignment : (size + alignment - 1) / alignment * alignment;
  return std::aligned_alloc(alignment, rounded);
}

void* allocate_or_throw(std::size_t size) {
  if (void* p = allocate(size)) return p;
  throw std::bad_alloc();
}

void* allocate_aligned_or_throw(std::size_t size, std::align_val_t align) {
  if (void* p = allocate_aligned(size, align)) return p;
  throw std::bad_alloc();
}

void release(void* p) {
  count_delete(p);
  std::free(p);
}

}  // namespace

std::ostream& operator<<(std::ostream& out, const AllocationCounts& counts) {
  return out << counts.allocations << " allocations (" << counts.aligned << " aligned, "
             << counts.bytes << " bytes), " << counts.frees << " frees";
}

AllocationCounts process_allocation_counts() {
  return AllocationCounts{g_process.allocations.load(std::memory_order_relaxed),
                          g_process.aligned.load(std::memory_order_relaxed),
                          g_process.bytes.load(std::memory_order_relaxed),
                          g_process.frees.load(std::memory_order_relaxed)};
}

AllocationCounts thread_allocation_counts() { return t_thread; }

bool allocation_counting_linked() {
  const u64 before = t_thread.allocations;
  // A direct call of the allocation function (unlike a new-expression, never elided).
  void* probe = ::operator new(1);
  ::operator delete(probe);
  return t_thread.allocations != before;
}

AllocationScope::AllocationScope(Threads threads) : threads_(threads) {
  KEEL_ASSERT(allocation_counting_linked(),
              "AllocationScope: the counting operator new is not linked (link keel::core_testing "
              "to the test executable)");
  start_ = now();
}

AllocationCounts AllocationScope::now() const {
  return threads_ == Threads::kAll ? process_allocation_counts() : thread_allocation_counts();
}

AllocationCounts AllocationScope::counts() const {
  const AllocationCounts n = now();
  return AllocationCounts{n.allocations - start_.allocations, n.aligned - start_.aligned,
                          n.bytes - start_.bytes, n.frees - start_.frees};
}

void AllocationScope::reset() { start_ = now(); }

}  // namespace keel::testing

// --- the replacements (every replaceable form, C++17 and later) ---------------------------------

void* operator new(std::size_t size) { return keel::testing::allocate_or_throw(size); }
void* operator new[](std::size_t size) { return keel::testing::allocate_or_throw(size); }
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  return keel::testing::allocate(size);
}
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept {
  return keel::testing::allocate(size);
}
void* operator new(std::size_t size, std::align_val_t align) {
  return keel::testing::allocate_aligned_or_throw(size, align);
}
void* operator new[](std::size_t size, std::align_val_t align) {
  return keel::testing::allocate_aligned_or_throw(size, align);
}
void* operator new(std::size_t size, std::align_val_t align, const std::nothrow_t&) noexcept {
  return keel::testing::allocate_aligned(size, align);
}
void* operator new[](std::size_t size, std::align_val_t align, const std::nothrow_t&) noexcept {
  return keel::testing::allocate_aligned(size, align);
}

void operator delete(void* p) noexcept { keel::testing::release(p); }
void operator delete[](void* p) noexcept { keel::testing::release(p); }
void operator delete(void* p, std::size_t) noexcept { keel::testing::release(p); }
void operator delete[](void* p, std::size_t) noexcept { keel::testing::release(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { keel::testing::release(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { keel::testing::release(p); }
void operator delete(void* p, std::align_val_t) noexcept { keel::testing::release(p); }
void operator delete[](void* p, std::align_val_t) noexcept { keel::testing::release(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { keel::testing::release(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept {
  keel::testing::release(p);
}
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept {
  keel::testing::release(p);
}
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept {
  keel::testing::release(p);
}
