// Running statistics kept per profile node: percentages, counts and times across frames, and
// recorded values.
//
// Two ways of averaging a per-frame quantity, chosen by the reports (Averaging):
//   kRunningMean  the seed's (Enginuity) mean over every frame since the last reset,
//                 avg = (avg * n + x) / (n + 1), with the exact min and max of those frames.
//   kExponential  Shiny's (the Citizen blog): the average saturates toward the current value,
//                 avg += w * (x - avg); min and max expand at once to a value outside them and
//                 otherwise saturate toward the current value ten times slower, min += w/10 *
//                 (x - min), so the span shrinks back after a spike and shows the recent spread.
//                 The first frame sets all three. w is ProfilerOptions::smoothing (default 0.1).
#pragma once

#include "keel/core/types.h"

namespace keel::profile {

enum class Averaging : u8 { kRunningMean, kExponential };

// The min / average / max of one quantity, as a report reads it.
struct Spread {
  f64 min = 0.0;
  f64 avg = 0.0;
  f64 max = 0.0;
};

// The seed's running mean (and the exact min and max) since the last reset.
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
  Spread spread() const { return {min, avg, max}; }
};

// Count / min / max / sum: recorded values (e.g. vertex counts per call), and the seed's running
// mean of a per-frame quantity kept as a sum, so end_frame() divides only when a report reads it.
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
  Spread spread() const { return {min, avg(), max}; }
};

// Shiny's exponential averages (see the top of this file).
struct SmoothedStats {
  // How much slower min and max saturate toward the current value than the average does.
  static constexpr f64 kSpanSlowdown = 10.0;

  f64 min = 0.0;
  f64 avg = 0.0;
  f64 max = 0.0;
  u64 frames = 0;

  // weight: the share of the newest value in the average, in (0, 1]; span_weight: the same for
  // min and max, weight / kSpanSlowdown (passed in so a profiler computes it once).
  void add(f64 x, f64 weight) { add(x, weight, weight / kSpanSlowdown); }
  void add(f64 x, f64 weight, f64 span_weight) {
    if (frames == 0) {
      min = avg = max = x;
    } else {
      avg += weight * (x - avg);
      min = x < min ? x : min + span_weight * (x - min);
      max = x > max ? x : max + span_weight * (x - max);
    }
    ++frames;
  }
  void reset() { *this = SmoothedStats{}; }
  Spread spread() const { return {min, avg, max}; }
};

// One per-frame quantity under both averagings.
struct Series {
  ValueStats mean;
  SmoothedStats smoothed;

  void add(f64 x, f64 weight, f64 span_weight) {
    mean.add(x);
    smoothed.add(x, weight, span_weight);
  }
  void reset() { *this = Series{}; }
  Spread spread(Averaging averaging) const {
    return averaging == Averaging::kRunningMean ? mean.spread() : smoothed.spread();
  }
};

// What the reports read of a node (or of a site, for the flat profile) across frames: hits
// (calls per frame), self and total ticks, self and total % of the frame.
struct SampleHistory {
  Series hits;
  Series self_ticks;
  Series total_ticks;
  Series self_pct;
  Series total_pct;

  // weight and span_weight as in SmoothedStats::add.
  void add(u64 calls, u64 self, u64 total, f64 self_percent, f64 total_percent, f64 weight,
           f64 span_weight) {
    hits.add(static_cast<f64>(calls), weight, span_weight);
    self_ticks.add(static_cast<f64>(self), weight, span_weight);
    total_ticks.add(static_cast<f64>(total), weight, span_weight);
    self_pct.add(self_percent, weight, span_weight);
    total_pct.add(total_percent, weight, span_weight);
  }
  void reset() { *this = SampleHistory{}; }
};

}  // namespace keel::profile
