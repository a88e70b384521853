// Time sources for the profiler. A tick is whatever unit the source counts in; percentages are
// unit-free, and ns_per_tick() converts ticks to time for durations and the Chrome trace.
//
// CpuTickSource reads the CPU timestamp counter (__rdtsc) on x86-64, calibrated to nanoseconds
// once against std::chrono::steady_clock on first use of ns_per_tick(); elsewhere it reads
// steady_clock in nanoseconds. Tests inject a FakeTickSource (or a ClockTickSource over a
// keel::FakeClock) to drive a Profiler deterministically.
#pragma once

#include "keel/core/clock.h"
#include "keel/core/types.h"

#include <atomic>

#if defined(__x86_64__) || defined(_M_X64)
#include <x86intrin.h>
#define KEEL_PROFILE_HAS_RDTSC 1
#else
#define KEEL_PROFILE_HAS_RDTSC 0
#endif

namespace keel::profile {

class TickSource {
 public:
  virtual ~TickSource() = default;
  virtual u64 now() const = 0;          // never decreases
  virtual f64 ns_per_tick() const = 0;  // > 0
};

namespace detail {
u64 steady_ns();
}  // namespace detail

// The raw CPU tick read the profiler inlines on its hot path.
inline u64 read_cpu_ticks() {
#if KEEL_PROFILE_HAS_RDTSC
  return __rdtsc();
#else
  return detail::steady_ns();
#endif
}

class CpuTickSource final : public TickSource {
 public:
  u64 now() const override { return read_cpu_ticks(); }
  // Calibrated once per process (a few milliseconds of spinning on the first call).
  f64 ns_per_tick() const override;
  static const CpuTickSource& instance();
};

// Moves only when told to. Reads and writes are atomic (relaxed).
class FakeTickSource final : public TickSource {
 public:
  explicit FakeTickSource(u64 start = 0, f64 ns_per_tick = 1.0)
      : now_(start), ns_per_tick_(ns_per_tick) {}
  u64 now() const override { return now_.load(std::memory_order_relaxed); }
  f64 ns_per_tick() const override { return ns_per_tick_; }
  void set(u64 tick) { now_.store(tick, std::memory_order_relaxed); }
  void advance(u64 ticks) { now_.fetch_add(ticks, std::memory_order_relaxed); }

 private:
  std::atomic<u64> now_;
  f64 ns_per_tick_;
};

// Adapts a keel::Clock (e.g. FakeClock): one tick per nanosecond.
class ClockTickSource final : public TickSource {
 public:
  explicit ClockTickSource(const Clock& clock) : clock_(&clock) {}
  u64 now() const override { return clock_->now_ns(); }
  f64 ns_per_tick() const override { return 1.0; }

 private:
  const Clock* clock_;
};

}  // namespace keel::profile
