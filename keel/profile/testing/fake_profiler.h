// Test support (not installed): a Profiler driven by its own FakeTickSource, for deterministic
// tests; every call names the tick at which it happens.
//
//   FakeProfiler f;
//   f.begin_frame(0);
//   f.enter(kA, 10); f.sample(kB, 20, 30); f.leave(kA, 40);
//   f.end_frame(100);   // A: total 30%, self 20%; B: 10%
#pragma once

#include "keel/core/types.h"
#include "keel/profile/profiler.h"
#include "keel/profile/tick_source.h"
#include "keel/profile/trace_buffer.h"

#include <memory>

namespace keel::profile {

struct FakeProfilerOptions {
  const Site* root = nullptr;  // nullptr: "Frame"
  usize trace_capacity = 0;    // 0: no trace buffer
  f64 ns_per_tick = 1.0;
  f64 smoothing = kDefaultSmoothing;  // Shiny's exponential averaging weight
};

class FakeProfiler {
 public:
  explicit FakeProfiler(const FakeProfilerOptions& options = {})
      : ticks_(0, options.ns_per_tick),
        trace_(options.trace_capacity > 0
                   ? std::make_unique<TraceBuffer>(ticks_, options.trace_capacity, 1)
                   : nullptr),
        profiler_(ProfilerOptions{.ticks = &ticks_,
                                  .root = options.root,
                                  .trace = trace_.get(),
                                  .errors_to_stderr = false,
                                  .smoothing = options.smoothing}) {}

  Profiler& profiler() { return profiler_; }
  const Profiler& profiler() const { return profiler_; }
  FakeTickSource& ticks() { return ticks_; }
  TraceBuffer* trace() { return trace_.get(); }

  void begin_frame(u64 t) {
    ticks_.set(t);
    profiler_.begin_frame();
  }
  void end_frame(u64 t) {
    ticks_.set(t);
    profiler_.end_frame();
  }
  void enter(const Site& site, u64 t) {
    ticks_.set(t);
    profiler_.enter(site);
  }
  void leave(const Site& site, u64 t) {
    ticks_.set(t);
    profiler_.leave(site);
  }
  void sample(const Site& site, u64 start, u64 end) {
    enter(site, start);
    leave(site, end);
  }

 private:
  FakeTickSource ticks_;
  std::unique_ptr<TraceBuffer> trace_;
  Profiler profiler_;
};

}  // namespace keel::profile
