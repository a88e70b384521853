// Allocation hooks with the call site (Golden Rules ch. 1, C1-10): in debug-memory builds every
// KEEL_NEW / KEEL_ALLOC records file, line and size in a tracking allocator, so the outstanding
// allocations can be listed at any time and are reported on stderr at exit.
//
//   Ship* ship = KEEL_NEW Ship(args);   // debug memory: tracked with __FILE__/__LINE__
//   KEEL_DELETE(ship);                  // frees through the same allocator
//   void* block = KEEL_ALLOC(256);  KEEL_FREE(block);
//   keel::memory::outstanding_report(); // "2 outstanding allocations (96 bytes):\n  ship.cpp:12
//   ..."
//
// Debug-memory builds: CMake option KEEL_DEBUG_MEMORY (defines KEEL_DEBUG_MEMORY=1 for keel::core
// and everything that links it: the whole program must agree). Otherwise KEEL_NEW is plain `new`,
// KEEL_DELETE plain `delete`, KEEL_ALLOC/KEEL_FREE std::malloc/std::free: no cost.
//
// Standard C++ calls a placement operator delete only when a constructor throws; a plain `delete`
// always calls the ordinary one. So memory from KEEL_NEW is released with KEEL_DELETE (the
// book assumed `delete` would find the matching form). The tracked forms are always available
// (KEEL_TRACKED_NEW / KEEL_TRACKED_DELETE), whatever the build.
#pragma once

#include "keel/core/types.h"

#include <cstdlib>
#include <memory>
#include <new>
#include <string>
#include <type_traits>
#include <vector>

#ifndef KEEL_DEBUG_MEMORY
#define KEEL_DEBUG_MEMORY 0
#endif

namespace keel::memory {

// A call site: the tag that selects the tracking operator new.
struct Site {
  const char* file;
  int line;
};

struct Allocation {
  const void* address = nullptr;
  usize size = 0;
  const char* file = "";
  int line = 0;
};

// The tracking allocator (thread-safe). allocate() never returns null for size 0; it throws
// std::bad_alloc when memory runs out. deallocate(nullptr) does nothing; an address the tracker
// did not hand out asserts.
void* allocate(usize size, const char* file, int line);
void deallocate(void* p);

usize outstanding_count();
usize outstanding_bytes();
std::vector<Allocation> outstanding();  // oldest first
// "N outstanding allocations (B bytes):" and one "  file:line  size bytes" line each; empty when
// nothing is outstanding.
std::string outstanding_report();
// Whether the first tracked allocation arranges the report on stderr at exit (default true).
void set_report_at_exit(bool enabled);

// Destroys an object made with KEEL_TRACKED_NEW and frees its memory through the tracker.
// Works through a base pointer when the base has a virtual destructor.
template <typename T>
void destroy(T* object) {
  if (object == nullptr) return;
  void* start;
  if constexpr (std::is_polymorphic_v<T>) {
    start = dynamic_cast<void*>(object);  // the most-derived object's first byte
  } else {
    start = object;
  }
  std::destroy_at(object);
  deallocate(start);
}

}  // namespace keel::memory

// The tracking placement forms (a tag argument, so they add overloads: nothing is replaced).
void* operator new(std::size_t size, keel::memory::Site site);
void* operator new[](std::size_t size, keel::memory::Site site);
void operator delete(void* p, keel::memory::Site site) noexcept;    // when a constructor throws
void operator delete[](void* p, keel::memory::Site site) noexcept;  // when a constructor throws

#define KEEL_TRACKED_NEW new (::keel::memory::Site{__FILE__, __LINE__})
#define KEEL_TRACKED_DELETE(p) ::keel::memory::destroy(p)

#if KEEL_DEBUG_MEMORY
#define KEEL_NEW KEEL_TRACKED_NEW
#define KEEL_DELETE(p) KEEL_TRACKED_DELETE(p)
#define KEEL_ALLOC(size) ::keel::memory::allocate((size), __FILE__, __LINE__)
#define KEEL_FREE(p) ::keel::memory::deallocate(p)
#else
#define KEEL_NEW new
#define KEEL_DELETE(p) delete (p)
#define KEEL_ALLOC(size) std::malloc(size)
#define KEEL_FREE(p) std::free(p)
#endif
