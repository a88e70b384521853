// An expandable tree-view model of a Profiler's call tree (the book's presentation of Table 9.1):
// at first only the first-level nodes (the root's children) are visible; expanding a node shows
// its children. A UI draws rows(); render() gives the same as text, "+" marking a collapsed node
// with children and "-" an expanded one.
#pragma once

#include "keel/core/types.h"
#include "keel/profile/profiler.h"

#include <string>
#include <vector>

namespace keel::profile {

class TreeView {
 public:
  struct Row {
    NodeId node = kNoNode;
    u32 depth = 0;  // 1 for first-level nodes
    bool has_children = false;
    bool expanded = false;
  };

  // The profiler must outlive the view; nodes it adds later appear collapsed.
  explicit TreeView(const Profiler& profiler) : profiler_(&profiler) {}

  std::vector<Row> rows() const;
  bool expanded(NodeId id) const { return id < expanded_.size() && expanded_[id]; }
  void expand(NodeId id);
  void collapse(NodeId id);
  void toggle(NodeId id) { expanded(id) ? collapse(id) : expand(id); }
  void expand_all();
  void collapse_all() { expanded_.clear(); }

  std::string render(Timing timing = Timing::kInclusive, int decimals = 0) const;

 private:
  const Profiler* profiler_;
  std::vector<bool> expanded_;
};

}  // namespace keel::profile
