// A bounded single-producer single-consumer queue: the lock-free handoff of play commands from
// the game thread (producer) to the thread that mixes (consumer: SDL's audio callback, or the
// game thread itself with the null device). Capacity is a power of two; push fails when full.
#pragma once

#include "keel/core/types.h"

#include <array>
#include <atomic>
#include <optional>

namespace keel::platform::detail {

template <typename T, usize Capacity>
class SpscQueue {
  static_assert(Capacity >= 2 && (Capacity & (Capacity - 1)) == 0, "capacity: a power of two");

 public:
  // Producer only. False (nothing queued) when the queue is full.
  bool push(const T& value) {
    const usize tail = tail_.load(std::memory_order_relaxed);
    if (tail - head_cache_ == Capacity) {
      head_cache_ = head_.load(std::memory_order_acquire);
      if (tail - head_cache_ == Capacity) return false;
    }
    slots_[tail & (Capacity - 1)] = value;
    tail_.store(tail + 1, std::memory_order_release);
    return true;
  }

  // Consumer only.
  std::optional<T> pop() {
    const usize head = head_.load(std::memory_order_relaxed);
    if (head == tail_cache_) {
      tail_cache_ = tail_.load(std::memory_order_acquire);
      if (head == tail_cache_) return std::nullopt;
    }
    T value = slots_[head & (Capacity - 1)];
    head_.store(head + 1, std::memory_order_release);
    return value;
  }

 private:
  std::array<T, Capacity> slots_{};
  alignas(64) std::atomic<usize> head_{0};  // next to pop (written by the consumer)
  usize tail_cache_ = 0;                    // consumer's copy of tail_
  alignas(64) std::atomic<usize> tail_{0};  // next to fill (written by the producer)
  usize head_cache_ = 0;                    // producer's copy of head_
};

}  // namespace keel::platform::detail
