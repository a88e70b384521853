// The hierarchical per-frame profiler (object API).
//
// A Profiler owns one call tree: one node per calling context (the same site under two parents is
// two nodes; a recursive call nests one level deeper). Between begin_frame() and end_frame() the
// root node spans the frame, which is 100%. enter()/leave() bracket a sample; end_frame() turns the
// frame's ticks into per-node calls, total (inclusive) and self (exclusive) time and percentages,
// and folds them into min/avg/max across frames, under both the seed's running mean and Shiny's
// exponential averaging (stats.h), per node and per site (the flat profile's rows, zones()).
//
// Hot path: enter() finds the child by site address, first through a per-node cache of the last
// child hit, then its next sibling, then the first child (children are kept in first-visit order,
// so a frame that repeats the previous frame's order always hits one of these). Only a site's
// first visit under a parent walks the child list and allocates a node.
//
// Misuse never crashes: an end that does not match the open node, an end without a begin, a
// sample left open at end_frame() or a begin_frame() inside a frame is repaired (open samples are
// closed at that moment), counted in error_count() and described in errors() (also printed to
// stderr unless disabled).
//
// A Profiler is used by one thread; the TraceBuffer it feeds may be read from any thread.
// Most code uses the thread-local profiler through the macros in keel/profile/profile.h.
#pragma once

#include "keel/core/assert.h"
#include "keel/core/types.h"
#include "keel/profile/site.h"
#include "keel/profile/stats.h"
#include "keel/profile/tick_source.h"
#include "keel/profile/trace_buffer.h"

#include <string>
#include <string_view>
#include <vector>

namespace keel::profile {

// Inclusive: a node's time includes its children's (the book's tree view; totals across a subtree
// can exceed 100%). Exclusive: self time only (the seed's log table; all nodes sum to 100%).
enum class Timing : u8 { kInclusive, kExclusive };

inline constexpr u32 kNoValue = 0xFFFF'FFFFu;

struct Node {
  const Site* site = nullptr;
  NodeId parent = kNoNode;
  NodeId first_child = kNoNode;
  NodeId last_child = kNoNode;
  NodeId next_sibling = kNoNode;
  NodeId last_hit = kNoNode;  // look-up cache: the child entered last
  u32 first_value = kNoValue;
  u32 depth = 0;  // root 0

  // The frame in progress (cleared by begin_frame).
  u64 enter_tick = 0;
  u64 acc_ticks = 0;
  u64 acc_child_ticks = 0;
  u32 acc_calls = 0;

  // The last completed frame.
  u32 calls = 0;
  u64 total_ticks = 0;
  u64 self_ticks = 0;
  f64 total_pct = 0.0;
  f64 self_pct = 0.0;

  // Across frames since the last reset (every frame counts, 0% when the node was not visited).
  PercentStats self_stats;
  PercentStats total_stats;

  const char* name() const { return site->name; }
  f64 percent(Timing t) const { return t == Timing::kInclusive ? total_pct : self_pct; }
  u64 ticks(Timing t) const { return t == Timing::kInclusive ? total_ticks : self_ticks; }
  const PercentStats& stats(Timing t) const {
    return t == Timing::kInclusive ? total_stats : self_stats;
  }
};

// Values recorded on a node with record_value (KEEL_PROFILE_VALUE).
struct ValueRecord {
  const ValueSite* site = nullptr;
  NodeId node = kNoNode;
  u32 next = kNoValue;
  ValueStats frame;       // the frame in progress
  ValueStats last_frame;  // the last completed frame
  ValueStats overall;     // since the last reset

  const char* name() const { return site->name; }
};

// One site with every calling context merged (a row of the flat profile). Recursion: a context
// nested in another context of the same site adds to hits and self time but not again to total.
struct Zone {
  const Site* site = nullptr;
  u32 nodes = 0;  // calling contexts merged into this zone
  // The last completed frame.
  u64 calls = 0;
  u64 self_ticks = 0;
  u64 total_ticks = 0;
  f64 self_pct = 0.0;
  f64 total_pct = 0.0;
  SampleHistory history;  // across frames since the last reset

  const char* name() const { return site->name; }
};

struct ProfilerOptions {
  const TickSource* ticks = nullptr;  // nullptr: CpuTickSource::instance()
  const Site* root = nullptr;         // nullptr: frame_site() ("Frame")
  TraceBuffer* trace = nullptr;       // not owned; nullptr: no trace events
  bool errors_to_stderr = true;
  usize reserve_nodes = 256;
  // Shiny's exponential averaging: the weight of the newest frame, in (0, 1] (stats.h). Other
  // values are a programmer error (asserted; release builds use kDefaultSmoothing).
  f64 smoothing = 0.1;
};

inline constexpr f64 kDefaultSmoothing = 0.1;

class Profiler {
 public:
  static constexpr usize kMaxKeptErrors = 64;
  static constexpr u64 kMaxPrintedErrors = 16;

  explicit Profiler(const ProfilerOptions& options = {});
  Profiler(const Profiler&) = delete;
  Profiler& operator=(const Profiler&) = delete;

  // --- frame boundaries -------------------------------------------------------------------
  void begin_frame();
  void end_frame();
  bool frame_open() const { return frame_open_; }
  u64 frame_count() const { return frame_count_; }       // completed frames
  u64 frame_ticks() const { return last_frame_ticks_; }  // length of the last completed frame

  // --- samples (hot path) -----------------------------------------------------------------
  void enter(const Site& site) {
    const NodeId parent = current_;
    NodeId c = nodes_[parent].last_hit;
    if (c == kNoNode || nodes_[c].site != &site) {
      c = c == kNoNode ? kNoNode : nodes_[c].next_sibling;
      if (c == kNoNode || nodes_[c].site != &site) {
        c = nodes_[parent].first_child;
        if (c == kNoNode || nodes_[c].site != &site) c = find_or_add_child(parent, site);
      }
      nodes_[parent].last_hit = c;
    }
    Node& n = nodes_[c];
    ++n.acc_calls;
    current_ = c;
    n.enter_tick = now();
  }

  // Ends the sample of `site`, which should be the open one (scoped samples).
  void leave(const Site& site) {
    const u64 t = now();
    if (current_ == kRootNode || nodes_[current_].site != &site) [[unlikely]] {
      leave_mismatched(&site, site.name, t);
      return;
    }
    close_current(t);
  }

  // Ends the open sample by name (KEEL_PROFILE_END): compares the name's address, then its text.
  void leave_named(const char* name);

  // Records a value on the open node (the root when none is open).
  void record_value(const ValueSite& site, f64 value);

  u64 now() const { return cpu_ ? read_cpu_ticks() : ticks_->now(); }

  // --- results ----------------------------------------------------------------------------
  // An id that is not a node is a programmer error (asserted; release builds return the root).
  const Node& node(NodeId id) const { return nodes_[checked(id)]; }
  const Node& root() const { return nodes_[kRootNode]; }
  usize node_count() const { return nodes_.size(); }
  NodeId current() const { return current_; }
  // Nodes in pre-order (parent before children, children in first-visit order).
  std::vector<NodeId> preorder() const;
  // The child of `parent` named `name` (the first, if several sites share it).
  NodeId find_child(NodeId parent, std::string_view name) const;
  // "A/C/F" from the root; kNoNode if missing.
  NodeId find(std::string_view path) const;
  std::vector<const ValueRecord*> values(NodeId id) const;
  const ValueRecord* find_value(NodeId id, std::string_view name) const;
  // Hits, self/total ticks and % of node `id` across frames (both averagings).
  const SampleHistory& history(NodeId id) const { return history_[checked(id)]; }
  // One zone per site seen, in first-visit order (zone 0 is the root's site).
  const std::vector<Zone>& zones() const { return zones_; }
  f64 smoothing() const { return smoothing_; }

  // Clears the cross-frame statistics (min/avg/max and overall values) of one node or of all
  // (reset_all clears the zones' too). An id that is not a node is ignored and reported.
  void reset_node(NodeId id);
  void reset_all();

  // --- diagnostics ------------------------------------------------------------------------
  u64 error_count() const { return error_count_; }
  const std::vector<std::string>& errors() const { return errors_; }  // the last kMaxKeptErrors
  void clear_errors();

  const TickSource& tick_source() const { return *ticks_; }
  TraceBuffer* trace() const { return trace_; }
  // Turns recording into the trace buffer on or off (no effect without a buffer).
  void set_tracing(bool on) { trace_ = on ? trace_target_ : nullptr; }

 private:
  void close_current(u64 t) {
    Node& n = nodes_[current_];
    const u64 elapsed = t > n.enter_tick ? t - n.enter_tick : 0;
    n.acc_ticks += elapsed;
    if (trace_ != nullptr) trace_->push(n.site, n.enter_tick, t, n.depth);
    current_ = n.parent;
  }
  NodeId find_or_add_child(NodeId parent, const Site& site);
  void add_node_bookkeeping(NodeId id, const Site& site);
  NodeId checked(NodeId id) const {
    KEEL_ASSERT(id < nodes_.size(), "profile node id {} out of range (the profiler has {})", id,
                nodes_.size());
    return id < nodes_.size() ? id : kRootNode;
  }
  void fold_frame_into_zones(f64 scale);
  void leave_mismatched(const Site* site, const char* name, u64 t);
  void close_open_samples(u64 t, std::string_view why);
  void report(std::string message);

  const TickSource* ticks_;
  bool cpu_;
  TraceBuffer* trace_;
  TraceBuffer* trace_target_;
  bool errors_to_stderr_;
  std::vector<Node> nodes_;
  std::vector<ValueRecord> values_;
  // Parallel to nodes_, touched only by end_frame and the reports (kept off the hot path).
  std::vector<SampleHistory> history_;
  std::vector<u32> zone_of_;
  std::vector<bool> nested_;  // an ancestor has the same site
  std::vector<Zone> zones_;
  f64 smoothing_ = kDefaultSmoothing;
  f64 span_smoothing_ = kDefaultSmoothing / SmoothedStats::kSpanSlowdown;
  NodeId current_ = kRootNode;
  bool frame_open_ = false;
  u64 frame_start_ = 0;
  u64 frame_count_ = 0;
  u64 last_frame_ticks_ = 0;
  u64 error_count_ = 0;
  std::vector<std::string> errors_;
};

// RAII sample on an explicit profiler (the macros use the thread's profiler).
class ScopedSample {
 public:
  ScopedSample(Profiler& profiler, const Site& site) : profiler_(&profiler), site_(&site) {
    profiler_->enter(site);
  }
  ~ScopedSample() { profiler_->leave(*site_); }
  ScopedSample(const ScopedSample&) = delete;
  ScopedSample& operator=(const ScopedSample&) = delete;

 private:
  Profiler* profiler_;
  const Site* site_;
};

}  // namespace keel::profile
