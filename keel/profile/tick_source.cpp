#include "keel/profile/tick_source.h"

#include <chrono>

namespace keel::profile {

namespace detail {
u64 steady_ns() {
  return static_cast<u64>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                              std::chrono::steady_clock::now().time_since_epoch())
                              .count());
}
}  // namespace detail

namespace {

f64 calibrate_ns_per_tick() {
#if KEEL_PROFILE_HAS_RDTSC
  // Spin for ~5 ms and compare both clocks; the error is the steady_clock read jitter (tens of ns)
  // over 5 ms, i.e. well under 0.01%.
  constexpr u64 kSpanNs = 5'000'000;
  const u64 ns0 = detail::steady_ns();
  const u64 tick0 = read_cpu_ticks();
  u64 ns1 = ns0;
  while (ns1 - ns0 < kSpanNs) ns1 = detail::steady_ns();
  const u64 tick1 = read_cpu_ticks();
  if (tick1 <= tick0) return 1.0;  // a broken counter: fall back to "ticks are ns"
  return static_cast<f64>(ns1 - ns0) / static_cast<f64>(tick1 - tick0);
#else
  return 1.0;
#endif
}

}  // namespace

f64 CpuTickSource::ns_per_tick() const {
  static const f64 value = calibrate_ns_per_tick();
  return value;
}

const CpuTickSource& CpuTickSource::instance() {
  static const CpuTickSource source;
  return source;
}

}  // namespace keel::profile
