// Text reports of a Profiler's last completed frame.
//
// log_table: the seed's log table (Enginuity), self-time min/avg/max % across frames, calls in the
//   last frame, names indented one space per depth level:
//     Min :   Avg :   Max :   # : Profile Name
//     --------------------------------------------
//       0.0 :  96.6 : 100.0 :   1 : Kernel task loop
//       0.0 :   0.6 :   6.3 :   1 :  Renderer
// tree_report: the book's Table 9.1, the call tree with inclusive % of the frame, pre-order.
// flat_view / flat_report: nodes aggregated by site (every calling context of a function in one
//   row), sorted by self time, the last frame only. The full Shiny report (flat profile and call
//   tree with min-max spans and exponential averages) is in shiny_report.h.
#pragma once

#include "keel/core/types.h"
#include "keel/profile/profiler.h"

#include <string>
#include <vector>

namespace keel::profile {

// averaging: the seed's running mean (default) or Shiny's exponential averages (stats.h).
std::string log_table(const Profiler& profiler, Timing timing = Timing::kExclusive,
                      Averaging averaging = Averaging::kRunningMean);

struct TreeReportOptions {
  Timing timing = Timing::kInclusive;
  int decimals = 0;           // digits after the point of the percentages
  const char* indent = "  ";  // per depth level
  bool show_calls = false;    // append " (N calls)"
  bool show_values = false;   // append recorded values: " [name n=.. min=.. avg=.. max=..]"
};
std::string tree_report(const Profiler& profiler, const TreeReportOptions& options = {});

struct FlatRow {
  const Site* site = nullptr;
  u32 nodes = 0;        // calling contexts merged into this row
  u64 calls = 0;        // last frame
  u64 self_ticks = 0;   // last frame, summed over the contexts
  u64 total_ticks = 0;  // last frame; a recursive context inside another counts once
  f64 self_pct = 0.0;
  f64 total_pct = 0.0;
  f64 avg_self_pct = 0.0;  // sum of the contexts' running averages

  const char* name() const { return site->name; }
};
// Sorted by self time (descending), then by name.
std::vector<FlatRow> flat_view(const Profiler& profiler);
std::string flat_report(const Profiler& profiler);

}  // namespace keel::profile
