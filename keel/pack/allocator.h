// Memory hooks for the loader (Golden Rules ch. 5.5): a long-lived allocator for the resident
// master index, a short-lived one for the block indices and staging buffers, and one allocator
// per block type for the block data (video, sound, general memory...).
//
// An allocator whose memory the CPU cannot address (cpu_addressable() == false) receives the
// block through upload() from a short-lived staging buffer that is freed straight after.
// Allocators used by an AsyncLoader, or by packs destroyed on another thread, must be
// thread-safe; default_allocator() is.
#pragma once

#include "keel/core/bytes.h"
#include "keel/core/types.h"

#include <cstddef>
#include <span>

namespace keel::pack {

class Allocator {
 public:
  virtual ~Allocator() = default;
  // Returns nullptr when out of memory. `alignment` is a power of two.
  virtual void* allocate(usize size, usize alignment) = 0;
  virtual void deallocate(void* pointer, usize size, usize alignment) noexcept = 0;

  virtual bool cpu_addressable() const { return true; }
  // Only called when cpu_addressable() is false: copy `bytes` into `destination`.
  virtual void upload(void* destination, ByteSpan bytes);
};

// Aligned operator new / delete. Thread-safe.
Allocator& default_allocator();

}  // namespace keel::pack
