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

}  // namespace keel::profile
