// Frame-time percentiles from the profiler: after each profiler frame, record() reads the last
// completed frame of a keel::profile::Profiler (the whole frame and the named scopes "sim" and
// "render", wherever they sit in the call tree) and keeps the milliseconds; percentiles come at
// the end. No clock of the program's own: the profiler's ticks are the only timing.
//
//   FrameTimes times({"sim", "render"});
//   kernel.add_frame_end_hook([&] { times.record(profile::this_thread()); });  // after end_frame
//   times.percentiles("sim") -> {p50, p95, p99, samples}
#pragma once

#include "keel/core/types.h"
#include "keel/profile/profiler.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace keel::voidfarer {

struct Percentiles {
  f64 p50 = 0;
  f64 p95 = 0;
  f64 p99 = 0;
  usize samples = 0;
};

// The nearest-rank percentile (p in [0, 100]) of `values` (sorted in place); 0 when empty.
f64 percentile(std::vector<f64>& values, f64 p);

class FrameTimes {
 public:
  static constexpr std::string_view kFrame = "frame";

  explicit FrameTimes(std::vector<std::string> scopes);

  // Reads the profiler's last completed frame (does nothing before the first one, or when the
  // profiler completed no new frame since the last call). A scope not visited in a frame adds
  // no sample for that frame.
  void record(const profile::Profiler& profiler);
  // Adds one sample in milliseconds directly (tests).
  void add(std::string_view scope, f64 ms);

  // kFrame or a scope name; nullopt for a name never asked for.
  std::optional<Percentiles> percentiles(std::string_view scope) const;
  const std::vector<std::string>& scopes() const { return names_; }

 private:
  std::vector<std::string> names_;  // kFrame first
  std::vector<std::vector<f64>> samples_;
  u64 last_frame_ = 0;
};

}  // namespace keel::voidfarer
