// Example (the book's Table 9.2, not an engine feature; keel-speedup prints it).
// What a speed-up does to frame percentages (the book's Table 9.2, "results might not match
// expectations"). Percentages are shares of the frame, so making one function faster shrinks the
// frame: the function's share falls by less than its speed-up, and every other function's share
// grows although its time did not change.
//
//   before 32, 23, 15, 10, 3, 2 (% of frame), the first made twice as fast (time_saved 0.5):
//   frame = 100 - 16 = 84 parts; after = 19.0, 27.4, 17.9, 11.9, 3.6, 2.4 %;
//   apparent improvement of the first = (32 - 19.05) / 32 = 40.5% (the book rounds 19 first: 41%).
#pragma once

#include "keel/core/error.h"
#include "keel/core/types.h"

#include <span>
#include <vector>

namespace keel::examples {

struct SpeedupPrediction {
  std::vector<f64> after_pct;          // each listed function's share of the new frame, in %
  f64 frame_parts = 100.0;             // the new frame in parts of the old one (old = 100)
  f64 apparent_improvement_pct = 0.0;  // relative drop of the sped-up function's percentage
};

// before_pct: the listed functions' shares of the old frame (the unlisted rest is unchanged).
// time_saved: the fraction of function `index`'s time removed (0.5 = twice as fast), in [0, 1].
// Fails (kOutOfRange) for an index past the list or time_saved outside [0, 1], and
// (kInvalidArgument) for negative percentages or a list summing to more than 100.
Result<SpeedupPrediction> predict_speedup(std::span<const f64> before_pct, usize index,
                                          f64 time_saved);

}  // namespace keel::examples
