#include "examples/speedup/speedup.h"

namespace keel::examples {

Result<SpeedupPrediction> predict_speedup(std::span<const f64> before_pct, usize index,
                                          f64 time_saved) {
  if (index >= before_pct.size()) {
    return fail(ErrorCode::kOutOfRange, "function {} of a list of {}", index, before_pct.size());
  }
  if (!(time_saved >= 0.0 && time_saved <= 1.0)) {
    return fail(ErrorCode::kOutOfRange, "time saved {} is not in [0, 1]", time_saved);
  }
  f64 sum = 0.0;
  for (const f64 p : before_pct) {
    if (!(p >= 0.0)) return fail(ErrorCode::kInvalidArgument, "negative percentage {}", p);
    sum += p;
  }
  if (sum > 100.0 + 1e-9) {
    return fail(ErrorCode::kInvalidArgument, "percentages sum to {} (more than 100)", sum);
  }
  SpeedupPrediction out;
  const f64 saved = before_pct[index] * time_saved;
  out.frame_parts = 100.0 - saved;
  out.after_pct.reserve(before_pct.size());
  for (usize i = 0; i < before_pct.size(); ++i) {
    const f64 parts = i == index ? before_pct[i] - saved : before_pct[i];
    out.after_pct.push_back(out.frame_parts > 0.0 ? 100.0 * parts / out.frame_parts : 0.0);
  }
  if (before_pct[index] > 0.0) {
    out.apparent_improvement_pct =
        100.0 * (before_pct[index] - out.after_pct[index]) / before_pct[index];
  }
  return out;
}

}  // namespace keel::examples
