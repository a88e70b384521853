// The Shiny report (the Citizen blog's profiler output): a flat profile (one row per site, every
// calling context merged, sorted by self time) and a call tree (one row per calling context,
// indented two spaces per level), each row with
//   hits (min-max)   self time (min-max) and % of the frame (min-max)   total time (min-max) and %
// The averages and spans follow ShinyReportOptions::averaging: Shiny's exponential averaging by
// default (see stats.h), or the seed's running mean. Each duration picks its own unit (ns, us,
// ms, s) so that it prints as at most three digits.
//
//   flat profile          hits (min-max)       self time (min-max)                  ...
//   Physics::step         1.0 (  1.0-  1.0)    78 us ( 44 us-465 us)   7% (  4%- 41%) ...
//
//   keel::profile::write_report("profile.txt", keel::profile::shiny_report(profiler));
#pragma once

#include "keel/core/error.h"
#include "keel/core/types.h"
#include "keel/profile/profiler.h"
#include "keel/profile/stats.h"

#include <filesystem>
#include <string>
#include <string_view>

namespace keel::profile {

struct ShinyReportOptions {
  bool flat = true;  // the flat profile
  bool tree = true;  // the call tree (after the flat profile when both are on)
  Averaging averaging = Averaging::kExponential;
  bool sort_by_self = true;  // flat rows by average self time, descending; else first visit
  usize name_width = 0;      // width of the name column; 0: the widest name; longer names are cut
};

std::string shiny_report(const Profiler& profiler, const ShinyReportOptions& options = {});

// A duration in the unit that keeps it below 1000 after rounding, right-aligned in 6 columns:
// "523 ns", "  2 us", " 19 ms", "  3 s ". Negative values print as 0.
std::string format_duration(f64 ns);

// Writes report text to `path` atomically (keel::write_file_atomic): a crash mid-write leaves any
// previous report intact.
Status write_report(const std::filesystem::path& path, std::string_view text);

}  // namespace keel::profile
