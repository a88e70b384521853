#include "keel/profile/shiny_report.h"

#include "keel/core/file.h"
#include "keel/core/utility.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <iterator>
#include <numeric>
#include <vector>

namespace keel::profile {
namespace {

struct Row {
  std::string name;
  const SampleHistory* history = nullptr;
};

std::string fit(std::string_view name, usize width) {
  std::string out(name.substr(0, width));
  out.resize(width, ' ');
  return out;
}

std::string format_hits(const Spread& s) {
  return fmt::format("{:5.1f} ({:5.1f}-{:5.1f})", s.avg, s.min, s.max);
}

std::string format_time(const Spread& s, f64 ns_per_tick) {
  return fmt::format("{} ({}-{})", format_duration(s.avg * ns_per_tick),
                     format_duration(s.min * ns_per_tick), format_duration(s.max * ns_per_tick));
}

std::string format_pct(const Spread& s) {
  return fmt::format("{:3.0f}% ({:3.0f}%-{:3.0f}%)", s.avg, s.min, s.max);
}

struct Columns {
  std::string hits;
  std::string self;
  std::string total;
};

Columns format_columns(const SampleHistory& h, Averaging a, f64 ns_per_tick) {
  return {
      format_hits(h.hits.spread(a)),
      format_time(h.self_ticks.spread(a), ns_per_tick) + ' ' + format_pct(h.self_pct.spread(a)),
      format_time(h.total_ticks.spread(a), ns_per_tick) + ' ' + format_pct(h.total_pct.spread(a))};
}

void append_view(std::string& out, std::string_view title, const std::vector<Row>& rows,
                 const ShinyReportOptions& options, f64 ns_per_tick) {
  usize width = options.name_width;
  if (width == 0) {
    width = title.size();
    for (const Row& r : rows) width = std::max(width, r.name.size());
  }
  // Column widths from the widest formatted cell, so the headers sit over their columns.
  std::vector<Columns> cells;
  cells.reserve(rows.size());
  Columns widths{std::string(std::strlen("hits (min-max)"), ' '),
                 std::string(std::strlen("self time (min-max)"), ' '),
                 std::string(std::strlen("total time (min-max)"), ' ')};
  for (const Row& r : rows) {
    cells.push_back(format_columns(*r.history, options.averaging, ns_per_tick));
    const Columns& c = cells.back();
    if (c.hits.size() > widths.hits.size()) widths.hits.resize(c.hits.size(), ' ');
    if (c.self.size() > widths.self.size()) widths.self.resize(c.self.size(), ' ');
  }
  fmt::format_to(std::back_inserter(out), "{}  {:<{}}  {:<{}}  {}\n", fit(title, width),
                 "hits (min-max)", widths.hits.size(), "self time (min-max)", widths.self.size(),
                 "total time (min-max)");
  for (usize i = 0; i < rows.size(); ++i) {
    const Columns& c = cells[i];
    fmt::format_to(std::back_inserter(out), "{}  {:<{}}  {:<{}}  {}\n", fit(rows[i].name, width),
                   c.hits, widths.hits.size(), c.self, widths.self.size(), c.total);
  }
}

std::vector<Row> flat_rows(const Profiler& profiler, const ShinyReportOptions& options) {
  const std::vector<Zone>& zones = profiler.zones();
  std::vector<usize> order(zones.size());
  std::iota(order.begin(), order.end(), usize{0});
  if (options.sort_by_self) {
    const auto self = [&](usize z) {
      return zones[z].history.self_ticks.spread(options.averaging).avg;
    };
    keel::stable_sort(order, [&](usize a, usize b) {
      if (self(a) != self(b)) return self(a) > self(b);
      return std::strcmp(zones[a].name(), zones[b].name()) < 0;
    });
  }
  std::vector<Row> rows;
  rows.reserve(order.size());
  for (const usize z : order) rows.push_back(Row{zones[z].name(), &zones[z].history});
  return rows;
}

std::vector<Row> tree_rows(const Profiler& profiler) {
  std::vector<Row> rows;
  for (const NodeId id : profiler.preorder()) {
    const Node& n = profiler.node(id);
    rows.push_back(Row{std::string(2 * usize{n.depth}, ' ') + n.name(), &profiler.history(id)});
  }
  return rows;
}

}  // namespace

std::string format_duration(f64 ns) {
  static constexpr std::array<const char*, 4> kUnits{"ns", "us", "ms", "s"};
  f64 v = std::isfinite(ns) && ns > 0.0 ? ns : 0.0;
  usize unit = 0;
  while (unit + 1 < kUnits.size() && std::round(v) >= 1000.0) {
    v /= 1000.0;
    ++unit;
  }
  return fmt::format("{:3.0f} {:<2}", v, kUnits[unit]);
}

std::string shiny_report(const Profiler& profiler, const ShinyReportOptions& options) {
  const f64 ns_per_tick = profiler.tick_source().ns_per_tick();
  std::string out;
  if (options.flat)
    append_view(out, "flat profile", flat_rows(profiler, options), options, ns_per_tick);
  if (options.flat && options.tree) out += '\n';
  if (options.tree) append_view(out, "call tree", tree_rows(profiler), options, ns_per_tick);
  return out;
}

Status write_report(const std::filesystem::path& path, std::string_view text) {
  return write_file_atomic(path, text);
}

}  // namespace keel::profile
