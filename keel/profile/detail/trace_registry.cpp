#include "keel/profile/detail/trace_registry.h"

#include <algorithm>

namespace keel::profile::detail {

TraceRegistry& TraceRegistry::global() {
  // Never destroyed: threads may retire their buffers during static destruction.
  static TraceRegistry* const registry = new TraceRegistry;
  return *registry;
}

std::shared_ptr<TraceBuffer> TraceRegistry::create(const TickSource& ticks, usize capacity) {
  const std::lock_guard lock(mutex_);
  auto buffer = std::make_shared<TraceBuffer>(ticks, capacity, next_thread_id_++);
  entries_.push_back({buffer, false});
  return buffer;
}

void TraceRegistry::retire(const std::shared_ptr<TraceBuffer>& buffer) {
  const std::lock_guard lock(mutex_);
  usize retired = 0;
  for (Entry& e : entries_) {
    if (e.buffer == buffer) e.exited = true;
    if (e.exited) ++retired;
  }
  while (retired > kMaxRetired) {
    auto oldest =
        std::find_if(entries_.begin(), entries_.end(), [](const Entry& e) { return e.exited; });
    entries_.erase(oldest);
    --retired;
  }
}

void TraceRegistry::discard_exited() {
  const std::lock_guard lock(mutex_);
  std::erase_if(entries_, [](const Entry& e) { return e.exited; });
}

std::vector<ThreadTrace> TraceRegistry::snapshot_all() const {
  std::vector<std::shared_ptr<TraceBuffer>> buffers;
  {
    const std::lock_guard lock(mutex_);
    for (const Entry& e : entries_) buffers.push_back(e.buffer);
  }
  std::vector<ThreadTrace> out;
  out.reserve(buffers.size());
  for (const auto& b : buffers) out.push_back(b->snapshot());
  return out;
}

usize TraceRegistry::size() const {
  const std::lock_guard lock(mutex_);
  return entries_.size();
}

}  // namespace keel::profile::detail
