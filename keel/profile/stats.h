// Running statistics kept per profile node: percentages across frames and recorded values.
#pragma once

#include "keel/core/types.h"

namespace keel::profile {

// Min / average / max of a percentage over the frames recorded since the last reset. The average
// is the seed's running mean: avg = (avg * n + pct) / (n + 1).
struct PercentStats {
  f64 min = 0.0;
  f64 avg = 0.0;
  f64 max = 0.0;
  u64 frames = 0;

  void add(f64 pct) {
    if (frames == 0 || pct < min) min = pct;
    if (frames == 0 || pct > max) max = pct;
    avg = (avg * static_cast<f64>(frames) + pct) / static_cast<f64>(frames + 1);
    ++frames;
  }
  void reset() { *this = PercentStats{}; }
};

// Count / min / max / sum of recorded values (e.g. vertex counts per call).
struct ValueStats {
  u64 count = 0;
  f64 min = 0.0;
  f64 max = 0.0;
  f64 sum = 0.0;

  void add(f64 v) {
    if (count == 0 || v < min) min = v;
    if (count == 0 || v > max) max = v;
    sum += v;
    ++count;
  }
  f64 avg() const { return count == 0 ? 0.0 : sum / static_cast<f64>(count); }
  void reset() { *this = ValueStats{}; }
};

}  // namespace keel::profile
