// Clocks. Systems that measure time take a `const Clock&` so tests can inject a FakeClock and
// get exact, repeatable numbers; production code uses SteadyClock (monotonic, nanoseconds).
#pragma once

#include "keel/core/types.h"

#include <atomic>
#include <cmath>

namespace keel {

class Clock {
 public:
  virtual ~Clock() = default;
  // Nanoseconds since an arbitrary fixed origin; never decreases.
  virtual u64 now_ns() const = 0;
};

// std::chrono::steady_clock in nanoseconds.
class SteadyClock final : public Clock {
 public:
  u64 now_ns() const override;
  // A process-wide instance (stateless, so sharing it hides nothing).
  static const SteadyClock& instance();
};

// A clock that moves only when told to. Thread-safe reads and writes.
class FakeClock final : public Clock {
 public:
  explicit FakeClock(u64 start_ns = 0) : now_(start_ns) {}
  u64 now_ns() const override { return now_.load(std::memory_order_relaxed); }
  void set_ns(u64 ns) { now_.store(ns, std::memory_order_relaxed); }
  void advance_ns(u64 ns) { now_.fetch_add(ns, std::memory_order_relaxed); }
  void advance_seconds(f64 seconds) { advance_ns(static_cast<u64>(std::llround(seconds * 1e9))); }

 private:
  std::atomic<u64> now_;
};

constexpr f64 ns_to_seconds(u64 ns) { return static_cast<f64>(ns) * 1e-9; }
inline u64 seconds_to_ns(f64 s) { return static_cast<u64>(std::llround(s * 1e9)); }

}  // namespace keel
