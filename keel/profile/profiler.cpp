#include "keel/profile/profiler.h"

#include "keel/core/assert.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace keel::profile {

const Site& frame_site() {
  static constexpr Site site{"Frame", __FILE__, __LINE__};
  return site;
}

Profiler::Profiler(const ProfilerOptions& options)
    : ticks_(options.ticks != nullptr ? options.ticks : &CpuTickSource::instance()),
      cpu_(ticks_ == &CpuTickSource::instance()),
      trace_(options.trace),
      trace_target_(options.trace),
      errors_to_stderr_(options.errors_to_stderr) {
  const bool smoothing_ok = options.smoothing > 0.0 && options.smoothing <= 1.0;
  KEEL_ASSERT(smoothing_ok, "ProfilerOptions::smoothing must be in (0, 1], got {}",
              options.smoothing);
  smoothing_ = smoothing_ok ? options.smoothing : kDefaultSmoothing;
  span_smoothing_ = smoothing_ / SmoothedStats::kSpanSlowdown;
  const usize reserve = std::max<usize>(options.reserve_nodes, 1);
  nodes_.reserve(reserve);
  history_.reserve(reserve);
  zone_of_.reserve(reserve);
  nested_.reserve(reserve);
  Node root;
  root.site = options.root != nullptr ? options.root : &frame_site();
  nodes_.push_back(root);
  add_node_bookkeeping(kRootNode, *root.site);
}

void Profiler::add_node_bookkeeping(NodeId id, const Site& site) {
  history_.emplace_back();
  bool nested = false;
  for (NodeId p = id == kRootNode ? kNoNode : nodes_[id].parent; p != kNoNode && !nested;
       p = nodes_[p].parent) {
    nested = nodes_[p].site == &site;
  }
  nested_.push_back(nested);
  u32 zone = 0;
  while (zone < zones_.size() && zones_[zone].site != &site) ++zone;
  if (zone == zones_.size()) {
    Zone z;
    z.site = &site;
    zones_.push_back(z);
  }
  ++zones_[zone].nodes;
  zone_of_.push_back(zone);
}

void Profiler::begin_frame() {
  if (frame_open_) {
    report("begin_frame while a frame is open (missing end_frame); ending it now");
    end_frame();
  } else if (current_ != kRootNode) {
    close_open_samples(now(), "begin_frame");
  }
  for (Node& n : nodes_) {
    n.acc_ticks = 0;
    n.acc_child_ticks = 0;
    n.acc_calls = 0;
  }
  for (ValueRecord& v : values_) v.frame.reset();
  frame_start_ = now();
  nodes_[kRootNode].enter_tick = frame_start_;
  frame_open_ = true;
}

void Profiler::end_frame() {
  const u64 t = now();
  if (!frame_open_) {
    report("end_frame without begin_frame; ignored");
    return;
  }
  close_open_samples(t, "end_frame");

  Node& root = nodes_[kRootNode];
  root.acc_ticks = t > frame_start_ ? t - frame_start_ : 0;
  root.acc_calls = 1;
  for (usize i = 1; i < nodes_.size(); ++i) {
    nodes_[nodes_[i].parent].acc_child_ticks += nodes_[i].acc_ticks;
  }
  const u64 frame = root.acc_ticks;
  const f64 scale = frame > 0 ? 100.0 / static_cast<f64>(frame) : 0.0;
  for (usize i = 0; i < nodes_.size(); ++i) {
    Node& n = nodes_[i];
    n.calls = n.acc_calls;
    n.total_ticks = n.acc_ticks;
    n.self_ticks = n.acc_ticks > n.acc_child_ticks ? n.acc_ticks - n.acc_child_ticks : 0;
    n.total_pct = static_cast<f64>(n.total_ticks) * scale;
    n.self_pct = static_cast<f64>(n.self_ticks) * scale;
    n.total_stats.add(n.total_pct);
    n.self_stats.add(n.self_pct);
    history_[i].add(n.calls, n.self_ticks, n.total_ticks, n.self_pct, n.total_pct, smoothing_,
                    span_smoothing_);
  }
  fold_frame_into_zones(scale);
  for (ValueRecord& v : values_) v.last_frame = v.frame;
  if (trace_ != nullptr) trace_->push(root.site, frame_start_, t, 0);
  last_frame_ticks_ = frame;
  ++frame_count_;
  frame_open_ = false;
}

void Profiler::fold_frame_into_zones(f64 scale) {
  for (Zone& z : zones_) {
    z.calls = 0;
    z.self_ticks = 0;
    z.total_ticks = 0;
  }
  for (usize i = 0; i < nodes_.size(); ++i) {
    const Node& n = nodes_[i];
    Zone& z = zones_[zone_of_[i]];
    z.calls += n.calls;
    z.self_ticks += n.self_ticks;
    if (!nested_[i]) z.total_ticks += n.total_ticks;
  }
  for (Zone& z : zones_) {
    z.self_pct = static_cast<f64>(z.self_ticks) * scale;
    z.total_pct = static_cast<f64>(z.total_ticks) * scale;
    z.history.add(z.calls, z.self_ticks, z.total_ticks, z.self_pct, z.total_pct, smoothing_,
                  span_smoothing_);
  }
}

void Profiler::leave_named(const char* name) {
  const u64 t = now();
  if (current_ != kRootNode) {
    const char* open = nodes_[current_].site->name;
    if (open == name || std::strcmp(open, name) == 0) {
      close_current(t);
      return;
    }
  }
  leave_mismatched(nullptr, name, t);
}

void Profiler::record_value(const ValueSite& site, f64 value) {
  u32 v = nodes_[current_].first_value;
  while (v != kNoValue && values_[v].site != &site) v = values_[v].next;
  if (v == kNoValue) {
    v = static_cast<u32>(values_.size());
    ValueRecord record;
    record.site = &site;
    record.node = current_;
    record.next = nodes_[current_].first_value;
    values_.push_back(record);
    nodes_[current_].first_value = v;
  }
  values_[v].frame.add(value);
  values_[v].overall.add(value);
}

NodeId Profiler::find_or_add_child(NodeId parent, const Site& site) {
  for (NodeId c = nodes_[parent].first_child; c != kNoNode; c = nodes_[c].next_sibling) {
    if (nodes_[c].site == &site) return c;
  }
  const auto id = static_cast<NodeId>(nodes_.size());
  Node n;
  n.site = &site;
  n.parent = parent;
  n.depth = nodes_[parent].depth + 1;
  nodes_.push_back(n);
  add_node_bookkeeping(id, site);
  Node& p = nodes_[parent];
  if (p.last_child == kNoNode) {
    p.first_child = id;
  } else {
    nodes_[p.last_child].next_sibling = id;
  }
  p.last_child = id;
  return id;
}

void Profiler::leave_mismatched(const Site* site, const char* name, u64 t) {
  const auto matches = [&](NodeId id) {
    const Site* s = nodes_[id].site;
    if (site != nullptr) return s == site;
    return s->name == name || std::strcmp(s->name, name) == 0;
  };
  NodeId k = current_;
  while (k != kRootNode && !matches(k)) k = nodes_[k].parent;
  if (k == kRootNode) {
    if (current_ == kRootNode) {
      report(
          fmt::format("end of '{}' without a matching begin (no sample is open); ignored", name));
    } else {
      report(fmt::format("end of '{}' while '{}' is open and '{}' is not; ignored", name,
                         nodes_[current_].name(), name));
    }
    return;
  }
  while (current_ != k) {
    report(fmt::format("end of '{}' while '{}' is open (missing end of '{}'); closing it", name,
                       nodes_[current_].name(), nodes_[current_].name()));
    close_current(t);
  }
  close_current(t);
}

void Profiler::close_open_samples(u64 t, std::string_view why) {
  while (current_ != kRootNode) {
    report(fmt::format("missing end of '{}' at {}; closing it", nodes_[current_].name(), why));
    close_current(t);
  }
}

void Profiler::report(std::string message) {
  ++error_count_;
  if (errors_to_stderr_ && error_count_ <= kMaxPrintedErrors) {
    fmt::print(stderr, "keel profile: {}\n", message);
    if (error_count_ == kMaxPrintedErrors) {
      fmt::print(stderr, "keel profile: further errors are counted but not printed\n");
    }
  }
  if (errors_.size() == kMaxKeptErrors) errors_.erase(errors_.begin());
  errors_.push_back(std::move(message));
}

void Profiler::clear_errors() {
  error_count_ = 0;
  errors_.clear();
}

std::vector<NodeId> Profiler::preorder() const {
  std::vector<NodeId> out;
  out.reserve(nodes_.size());
  std::vector<NodeId> stack{kRootNode};
  while (!stack.empty()) {
    const NodeId id = stack.back();
    stack.pop_back();
    out.push_back(id);
    const usize mark = stack.size();
    for (NodeId c = nodes_[id].first_child; c != kNoNode; c = nodes_[c].next_sibling) {
      stack.push_back(c);
    }
    std::reverse(stack.begin() + static_cast<std::ptrdiff_t>(mark), stack.end());
  }
  return out;
}

NodeId Profiler::find_child(NodeId parent, std::string_view name) const {
  if (parent >= nodes_.size()) return kNoNode;
  for (NodeId c = nodes_[parent].first_child; c != kNoNode; c = nodes_[c].next_sibling) {
    if (name == nodes_[c].name()) return c;
  }
  return kNoNode;
}

NodeId Profiler::find(std::string_view path) const {
  NodeId id = kRootNode;
  while (!path.empty() && id != kNoNode) {
    const usize slash = path.find('/');
    id = find_child(id, path.substr(0, slash));
    path = slash == std::string_view::npos ? std::string_view{} : path.substr(slash + 1);
  }
  return id;
}

std::vector<const ValueRecord*> Profiler::values(NodeId id) const {
  std::vector<const ValueRecord*> out;
  if (id >= nodes_.size()) return out;
  for (u32 v = nodes_[id].first_value; v != kNoValue; v = values_[v].next) {
    out.push_back(&values_[v]);
  }
  std::reverse(out.begin(), out.end());  // first recorded first
  return out;
}

const ValueRecord* Profiler::find_value(NodeId id, std::string_view name) const {
  if (id >= nodes_.size()) return nullptr;
  for (u32 v = nodes_[id].first_value; v != kNoValue; v = values_[v].next) {
    if (name == values_[v].name()) return &values_[v];
  }
  return nullptr;
}

void Profiler::reset_node(NodeId id) {
  if (id >= nodes_.size()) {
    report(fmt::format("reset_node({}): no such node (the profiler has {}); ignored", id,
                       nodes_.size()));
    return;
  }
  Node& n = nodes_[id];
  n.self_stats.reset();
  n.total_stats.reset();
  history_[id].reset();
  for (u32 v = n.first_value; v != kNoValue; v = values_[v].next) values_[v].overall.reset();
}

void Profiler::reset_all() {
  for (NodeId id = 0; id < nodes_.size(); ++id) reset_node(id);
  for (Zone& z : zones_) z.history.reset();
}

}  // namespace keel::profile
