// The explicit stack of the BSP traversals: 64 entries inline (no allocation for trees of sane
// depth), the heap beyond that, so a degenerate (list-shaped) tree cannot exhaust the call stack.
#pragma once

#include <array>
#include <cstddef>
#include <vector>

namespace keel::spatial::detail {

template <typename T>
class BspStack {
 public:
  bool empty() const { return size_ == 0; }
  void push(const T& value) {
    if (size_ < kInline) {
      inline_[size_] = value;
    } else {
      heap_.push_back(value);
    }
    ++size_;
  }
  T pop() {
    --size_;
    if (size_ < kInline) return inline_[size_];
    T value = heap_.back();
    heap_.pop_back();
    return value;
  }

 private:
  static constexpr std::size_t kInline = 64;
  std::array<T, kInline> inline_;
  std::vector<T> heap_;
  std::size_t size_ = 0;
};

}  // namespace keel::spatial::detail
