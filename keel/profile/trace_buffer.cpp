#include "keel/profile/trace_buffer.h"

#include <algorithm>
#include <bit>

namespace keel::profile {

TraceBuffer::TraceBuffer(const TickSource& ticks, usize capacity, u32 thread_id)
    : ticks_(&ticks),
      thread_id_(thread_id),
      mask_(std::bit_ceil(std::max<usize>(capacity, 2)) - 1),
      slots_(std::make_unique<Slot[]>(mask_ + 1)) {}

ThreadTrace TraceBuffer::snapshot() const {
  ThreadTrace out;
  out.thread_id = thread_id_;
  out.thread_name = thread_name();
  out.ns_per_tick = ticks_->ns_per_tick();

  struct Copied {
    u64 seq;
    TraceEvent event;
  };
  std::vector<Copied> copied;
  copied.reserve(std::min<u64>(recorded(), capacity()));
  for (usize i = 0; i <= mask_; ++i) {
    const Slot& slot = slots_[i];
    const u64 before = slot.seq.load(std::memory_order_acquire);
    if (before == 0 || before == kBusy) continue;
    TraceEvent e;
    e.site = slot.site.load(std::memory_order_acquire);
    e.start = slot.start.load(std::memory_order_acquire);
    e.end = slot.end.load(std::memory_order_acquire);
    e.depth = slot.depth.load(std::memory_order_acquire);
    const u64 after = slot.seq.load(std::memory_order_relaxed);
    if (after != before || e.site == nullptr) continue;  // overwritten while copying
    copied.push_back({before, e});
  }
  std::sort(copied.begin(), copied.end(),
            [](const Copied& a, const Copied& b) { return a.seq < b.seq; });
  out.events.reserve(copied.size());
  for (const Copied& c : copied) out.events.push_back(c.event);
  return out;
}

void TraceBuffer::set_thread_name(std::string_view name) {
  const std::lock_guard lock(name_mutex_);
  name_.assign(name);
}

std::string TraceBuffer::thread_name() const {
  const std::lock_guard lock(name_mutex_);
  return name_;
}

void TraceBuffer::clear() {
  for (usize i = 0; i <= mask_; ++i) slots_[i].seq.store(0, std::memory_order_relaxed);
}

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

}  // namespace keel::profile
