#include "keel/pack/allocator.h"

#include <cstring>
#include <new>

namespace keel::pack {
namespace {

class DefaultAllocator final : public Allocator {
 public:
  void* allocate(usize size, usize alignment) override {
    return ::operator new (size, std::align_val_t{alignment}, std::nothrow);
  }
  void deallocate(void* pointer, usize /*size*/, usize alignment) noexcept override {
    ::operator delete (pointer, std::align_val_t{alignment});
  }
};

}  // namespace

void Allocator::upload(void* destination, ByteSpan bytes) {
  if (!bytes.empty()) std::memcpy(destination, bytes.data(), bytes.size());
}

Allocator& default_allocator() {
  static DefaultAllocator allocator;
  return allocator;
}

}  // namespace keel::pack
