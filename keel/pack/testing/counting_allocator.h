// An Allocator that counts what it hands out, for the loader tests (not installed).
#pragma once

#include "keel/pack/allocator.h"

#include <algorithm>
#include <cstdint>
#include <mutex>
#include <vector>

namespace keel::pack::testing {

class CountingAllocator : public Allocator {
 public:
  void* allocate(usize size, usize alignment) override {
    void* p = default_allocator().allocate(size, alignment);
    std::lock_guard lock(mutex_);
    sizes_.push_back(size);
    largest_ = std::max(largest_, size);
    ++live_;
    if (reinterpret_cast<std::uintptr_t>(p) % alignment != 0) ++misaligned_;
    return p;
  }
  void deallocate(void* pointer, usize size, usize alignment) noexcept override {
    default_allocator().deallocate(pointer, size, alignment);
    std::lock_guard lock(mutex_);
    --live_;
    ++freed_;
  }
  bool cpu_addressable() const override { return addressable_; }
  void upload(void* destination, std::span<const std::byte> bytes) override {
    std::lock_guard lock(mutex_);
    ++uploads_;
    uploaded_.assign(bytes.begin(), bytes.end());
    Allocator::upload(destination, bytes);
  }

  void set_addressable(bool addressable) { addressable_ = addressable; }
  long live() const {
    std::lock_guard lock(mutex_);
    return live_;
  }
  long freed() const {
    std::lock_guard lock(mutex_);
    return freed_;
  }
  usize largest() const {
    std::lock_guard lock(mutex_);
    return largest_;
  }
  std::vector<usize> sizes() const {
    std::lock_guard lock(mutex_);
    return sizes_;
  }
  int uploads() const {
    std::lock_guard lock(mutex_);
    return uploads_;
  }
  std::vector<std::byte> uploaded() const {
    std::lock_guard lock(mutex_);
    return uploaded_;
  }
  int misaligned() const {
    std::lock_guard lock(mutex_);
    return misaligned_;
  }

 private:
  mutable std::mutex mutex_;
  std::vector<usize> sizes_;
  usize largest_ = 0;
  long live_ = 0;
  long freed_ = 0;
  int uploads_ = 0;
  int misaligned_ = 0;
  bool addressable_ = true;
  std::vector<std::byte> uploaded_;
};

}  // namespace keel::pack::testing
