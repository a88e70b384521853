#include "keel/profile/report.h"

#include "keel/core/rb_tree.h"
#include "keel/core/utility.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <iterator>

namespace keel::profile {

std::string log_table(const Profiler& profiler, Timing timing, Averaging averaging) {
  std::string out;
  out += "Min :   Avg :   Max :   # : Profile Name\n";
  out += "--------------------------------------------\n";
  for (const NodeId id : profiler.preorder()) {
    const Node& n = profiler.node(id);
    const SampleHistory& h = profiler.history(id);
    const Spread s =
        averaging == Averaging::kRunningMean
            ? n.stats(timing).spread()
            : (timing == Timing::kInclusive ? h.total_pct : h.self_pct).spread(averaging);
    fmt::format_to(std::back_inserter(out), "{:5.1f} : {:5.1f} : {:5.1f} : {:3} : {:{}}{}\n", s.min,
                   s.avg, s.max, n.calls, "", n.depth, n.name());
  }
  return out;
}

std::string tree_report(const Profiler& profiler, const TreeReportOptions& options) {
  std::string out;
  for (const NodeId id : profiler.preorder()) {
    const Node& n = profiler.node(id);
    for (u32 d = 0; d < n.depth; ++d) out += options.indent;
    fmt::format_to(std::back_inserter(out), "{} {:.{}f}%", n.name(), n.percent(options.timing),
                   options.decimals);
    if (options.show_calls) {
      fmt::format_to(std::back_inserter(out), " ({} call{})", n.calls, n.calls == 1 ? "" : "s");
    }
    if (options.show_values) {
      for (const ValueRecord* v : profiler.values(id)) {
        const ValueStats& s = v->last_frame;
        fmt::format_to(std::back_inserter(out), " [{} n={} min={:g} avg={:g} max={:g}]", v->name(),
                       s.count, s.min, s.avg(), s.max);
      }
    }
    out += '\n';
  }
  return out;
}

namespace {

// flat_view merges calling contexts by site in a keel::RbTree keyed by the site's address: the
// nodes come from one vector sized by the node count, so a frame's report allocates no node per
// row (an unordered_map allocated one per site, and hashed).
struct SiteRow : RbNode {
  SiteRow(const Site* s, usize r) : site(s), row(r) {}
  const Site* site;
  usize row;
};
struct BySite {
  static bool less(const Site* a, const Site* b) { return std::less<const Site*>{}(a, b); }
  bool operator()(const SiteRow& a, const SiteRow& b) const { return less(a.site, b.site); }
  bool operator()(const SiteRow& a, const Site* b) const { return less(a.site, b); }
  bool operator()(const Site* a, const SiteRow& b) const { return less(a, b.site); }
};

}  // namespace

std::vector<FlatRow> flat_view(const Profiler& profiler) {
  const std::vector<NodeId> preorder = profiler.preorder();
  std::vector<FlatRow> rows;
  rows.reserve(preorder.size());
  RbPool<SiteRow> site_pool(preorder.size());
  RbTree<SiteRow, BySite> by_site;
  const auto row_for = [&](const Site* site) -> FlatRow& {
    if (const SiteRow* found = by_site.find(site)) return rows[found->row];
    by_site.emplace(site_pool, site, rows.size());
    return rows.emplace_back(FlatRow{.site = site});
  };
  const f64 frame = static_cast<f64>(profiler.frame_ticks());
  for (const NodeId id : preorder) {
    const Node& n = profiler.node(id);
    FlatRow& r = row_for(n.site);
    ++r.nodes;
    r.calls += n.calls;
    r.self_ticks += n.self_ticks;
    r.avg_self_pct += n.self_stats.avg;
    // A context nested inside another context of the same site is already in that one's total.
    bool nested = false;
    for (NodeId p = n.parent; p != kNoNode && !nested; p = profiler.node(p).parent) {
      nested = profiler.node(p).site == n.site;
    }
    if (!nested) r.total_ticks += n.total_ticks;
  }
  for (FlatRow& r : rows) {
    r.self_pct = frame > 0 ? 100.0 * static_cast<f64>(r.self_ticks) / frame : 0.0;
    r.total_pct = frame > 0 ? 100.0 * static_cast<f64>(r.total_ticks) / frame : 0.0;
  }
  keel::stable_sort(rows, [](const FlatRow& a, const FlatRow& b) {
    if (a.self_ticks != b.self_ticks) return a.self_ticks > b.self_ticks;
    return std::strcmp(a.name(), b.name()) < 0;
  });
  return rows;
}

std::string flat_report(const Profiler& profiler) {
  const f64 ns_per_tick = profiler.tick_source().ns_per_tick();
  std::string out;
  out += " Self % : Total % :  Calls :    Self us :   Total us : Name\n";
  out += "------------------------------------------------------------------\n";
  for (const FlatRow& r : flat_view(profiler)) {
    fmt::format_to(std::back_inserter(out), "{:7.1f} : {:7.1f} : {:6} : {:10.3f} : {:10.3f} : {}\n",
                   r.self_pct, r.total_pct, r.calls,
                   static_cast<f64>(r.self_ticks) * ns_per_tick / 1000.0,
                   static_cast<f64>(r.total_ticks) * ns_per_tick / 1000.0, r.name());
  }
  return out;
}

}  // namespace keel::profile
