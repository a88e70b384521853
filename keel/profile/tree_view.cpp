#include "keel/profile/tree_view.h"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>

namespace keel::profile {

namespace {
bool has_children(const Profiler& p, NodeId id) { return p.node(id).first_child != kNoNode; }
}  // namespace

std::vector<TreeView::Row> TreeView::rows() const {
  std::vector<Row> out;
  std::vector<NodeId> stack;
  const auto push_children = [&](NodeId id) {
    const usize mark = stack.size();
    for (NodeId c = profiler_->node(id).first_child; c != kNoNode;
         c = profiler_->node(c).next_sibling) {
      stack.push_back(c);
    }
    std::reverse(stack.begin() + static_cast<std::ptrdiff_t>(mark), stack.end());
  };
  push_children(kRootNode);
  while (!stack.empty()) {
    const NodeId id = stack.back();
    stack.pop_back();
    const Row row{id, profiler_->node(id).depth, has_children(*profiler_, id), expanded(id)};
    out.push_back(row);
    if (row.expanded) push_children(id);
  }
  return out;
}

void TreeView::expand(NodeId id) {
  if (id >= profiler_->node_count()) return;
  if (expanded_.size() <= id) expanded_.resize(profiler_->node_count(), false);
  expanded_[id] = true;
}

void TreeView::collapse(NodeId id) {
  if (id < expanded_.size()) expanded_[id] = false;
}

void TreeView::expand_all() { expanded_.assign(profiler_->node_count(), true); }

std::string TreeView::render(Timing timing, int decimals) const {
  std::string out;
  for (const Row& row : rows()) {
    const Node& n = profiler_->node(row.node);
    const char marker = !row.has_children ? ' ' : (row.expanded ? '-' : '+');
    fmt::format_to(std::back_inserter(out), "{:{}}{} {} {:.{}f}%\n", "", (row.depth - 1) * 2,
                   marker, n.name(), n.percent(timing), decimals);
  }
  return out;
}

}  // namespace keel::profile
