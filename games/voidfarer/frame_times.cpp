#include "frame_times.h"

#include <algorithm>
#include <cmath>

namespace keel::voidfarer {

f64 percentile(std::vector<f64>& values, f64 p) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const f64 clamped = std::clamp(p, 0.0, 100.0);
  // Nearest rank: the smallest value with at least p% of the samples at or below it.
  const auto rank =
      static_cast<usize>(std::ceil(clamped / 100.0 * static_cast<f64>(values.size())));
  return values[rank == 0 ? 0 : rank - 1];
}

FrameTimes::FrameTimes(std::vector<std::string> scopes) {
  names_.emplace_back(kFrame);
  for (std::string& s : scopes) names_.push_back(std::move(s));
  samples_.resize(names_.size());
}

void FrameTimes::add(std::string_view scope, f64 ms) {
  for (usize i = 0; i < names_.size(); ++i) {
    if (names_[i] == scope) samples_[i].push_back(ms);
  }
}

void FrameTimes::record(const profile::Profiler& profiler) {
  if (profiler.frame_count() == 0 || profiler.frame_count() == last_frame_) return;
  last_frame_ = profiler.frame_count();
  const f64 ms_per_tick = profiler.tick_source().ns_per_tick() * 1e-6;
  samples_[0].push_back(static_cast<f64>(profiler.frame_ticks()) * ms_per_tick);
  // The scopes may sit anywhere (under the kernel's task loop, a task, ...): the first node of
  // each name in pre-order, summed over its calls in the frame.
  const std::vector<profile::NodeId> order = profiler.preorder();
  for (usize s = 1; s < names_.size(); ++s) {
    for (const profile::NodeId id : order) {
      const profile::Node& node = profiler.node(id);
      if (node.site == nullptr || names_[s] != node.name()) continue;
      if (node.calls > 0) samples_[s].push_back(static_cast<f64>(node.total_ticks) * ms_per_tick);
      break;
    }
  }
}

std::optional<Percentiles> FrameTimes::percentiles(std::string_view scope) const {
  for (usize i = 0; i < names_.size(); ++i) {
    if (names_[i] != scope) continue;
    std::vector<f64> copy = samples_[i];
    Percentiles out;
    out.samples = copy.size();
    out.p50 = percentile(copy, 50);
    out.p95 = percentile(copy, 95);
    out.p99 = percentile(copy, 99);
    return out;
  }
  return std::nullopt;
}

}  // namespace keel::voidfarer
