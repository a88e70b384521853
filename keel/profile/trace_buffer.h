// Bounded per-thread ring buffer of completed samples, for the Chrome trace export.
//
// One thread (the profiler's owner) writes; any thread may take a snapshot at any time. Each slot
// is a small seqlock: the writer marks the slot busy, stores the fields (atomics with release
// order, plain moves on x86-64), then publishes the sequence number; a reader keeps a slot only
// if it saw the same published sequence before and after copying it. The writer never waits and
// never allocates; when the ring is full the oldest events are overwritten.
//
// The thread-local profilers register their buffers in an internal registry (detail/), so an
// export (keel/profile/profile.h) can merge every thread's events.
#pragma once

#include "keel/core/types.h"
#include "keel/profile/site.h"
#include "keel/profile/tick_source.h"

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace keel::profile {

// A completed sample: [start, end) in the buffer's ticks. depth 0 is a whole frame.
struct TraceEvent {
  const Site* site = nullptr;
  u64 start = 0;
  u64 end = 0;
  u32 depth = 0;
};

// A consistent copy of one thread's buffer, ready to export.
struct ThreadTrace {
  u32 thread_id = 0;
  std::string thread_name;
  f64 ns_per_tick = 1.0;
  std::vector<TraceEvent> events;  // in recording (completion) order
};

class TraceBuffer {
 public:
  static constexpr usize kDefaultCapacity = 16384;

  // capacity is rounded up to a power of two (at least 2).
  explicit TraceBuffer(const TickSource& ticks, usize capacity = kDefaultCapacity,
                       u32 thread_id = 0);
  TraceBuffer(const TraceBuffer&) = delete;
  TraceBuffer& operator=(const TraceBuffer&) = delete;

  // Owner thread only.
  void push(const Site* site, u64 start, u64 end, u32 depth) {
    const u64 index = head_.load(std::memory_order_relaxed);
    Slot& slot = slots_[index & mask_];
    // Release stores of the fields order the "busy" mark before them: a reader that loads (with
    // acquire) a field value from this write must see the mark when it re-reads seq. On x86-64
    // these are plain moves. (No fences: GCC's ThreadSanitizer does not support them.)
    slot.seq.store(kBusy, std::memory_order_relaxed);
    slot.site.store(site, std::memory_order_release);
    slot.start.store(start, std::memory_order_release);
    slot.end.store(end, std::memory_order_release);
    slot.depth.store(depth, std::memory_order_release);
    slot.seq.store(index + 1, std::memory_order_release);
    head_.store(index + 1, std::memory_order_relaxed);
  }

  // Any thread. Events come out in recording order.
  ThreadTrace snapshot() const;

  usize capacity() const { return mask_ + 1; }
  u64 recorded() const { return head_.load(std::memory_order_relaxed); }  // total ever pushed
  u32 thread_id() const { return thread_id_; }
  const TickSource& ticks() const { return *ticks_; }
  void set_thread_name(std::string_view name);
  std::string thread_name() const;
  // Forget all events (owner thread, or when the owner is not recording).
  void clear();

 private:
  static constexpr u64 kBusy = ~u64{0};
  struct Slot {
    std::atomic<u64> seq{0};  // 0 = never written, kBusy = being written, else index + 1
    std::atomic<const Site*> site{nullptr};
    std::atomic<u64> start{0};
    std::atomic<u64> end{0};
    std::atomic<u32> depth{0};
  };

  const TickSource* ticks_;
  u32 thread_id_;
  usize mask_;
  std::unique_ptr<Slot[]> slots_;
  std::atomic<u64> head_{0};
  mutable std::mutex name_mutex_;
  std::string name_;
};

}  // namespace keel::profile
