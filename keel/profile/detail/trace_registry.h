// Internal: the process-wide list of per-thread trace buffers (guarded by a mutex) that the
// thread-local profilers register with, so an export can merge every thread's events.
#pragma once

#include "keel/core/types.h"
#include "keel/profile/tick_source.h"
#include "keel/profile/trace_buffer.h"

#include <memory>
#include <mutex>
#include <vector>

namespace keel::profile::detail {

// The process-wide list of per-thread buffers. Buffers of exited threads are kept (so a trace
// written after joining workers still shows them) until discard_exited() or until more than
// kMaxRetired have piled up, oldest first.
class TraceRegistry {
 public:
  static constexpr usize kMaxRetired = 32;

  static TraceRegistry& global();

  std::shared_ptr<TraceBuffer> create(const TickSource& ticks,
                                      usize capacity = TraceBuffer::kDefaultCapacity);
  void retire(const std::shared_ptr<TraceBuffer>& buffer);  // its thread exited
  void discard_exited();
  std::vector<ThreadTrace> snapshot_all() const;
  usize size() const;

 private:
  struct Entry {
    std::shared_ptr<TraceBuffer> buffer;
    bool exited = false;
  };
  mutable std::mutex mutex_;
  std::vector<Entry> entries_;
  u32 next_thread_id_ = 1;
};

}  // namespace keel::profile::detail
