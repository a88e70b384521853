// keel::spatial::BinaryTree<T>: the book's binary search tree (Golden Rules ch. 2): a node is a
// left link, a right link and an element that is its own decision variable. Built balanced from
// sorted data, or grown by naive insertion (sorted input gives a list); searched by the book's
// algorithm (with the visited path, for teaching); rotated clockwise/counterclockwise.
//
//   const auto tree = keel::spatial::BinaryTree<char>::build_balanced(std::span("ABCDEFG", 7));
//   std::vector<keel::spatial::NodeId> path;
//   tree.find('G', &path);                    // visits D, F, G
//
// Nodes live in one vector and link by index (NodeId); kNoNode is an empty branch. There are no
// parent links (the book has none): a rotation finds the node's parent by searching from the root
// with the decision function, which is reversible (f(A,B) = !f(B,A)), so it gives the same path
// before and after any rotation. Equal elements go right.
#pragma once

#include "keel/core/assert.h"
#include "keel/core/types.h"

#include <algorithm>
#include <functional>
#include <optional>
#include <span>
#include <utility>
#include <vector>

namespace keel::spatial {

using NodeId = u32;
inline constexpr NodeId kNoNode = ~NodeId{0};

template <typename T, typename Less = std::less<>>
class BinaryTree {
 public:
  struct Node {
    T element{};
    NodeId left = kNoNode;
    NodeId right = kNoNode;
  };

  BinaryTree() = default;
  explicit BinaryTree(Less less) : less_(std::move(less)) {}

  // A balanced tree in binary-search order: the middle element is the root, recursively.
  // `sorted` must be sorted by less.
  static BinaryTree build_balanced(std::span<const T> sorted, Less less = {}) {
    BinaryTree tree(std::move(less));
    tree.nodes_.reserve(sorted.size());
    tree.root_ = tree.build_range(sorted, 0, sorted.size());
    return tree;
  }

  // Naive insertion: walk down as a search would, hang the element on the empty branch.
  NodeId insert(const T& element) {
    const NodeId id = static_cast<NodeId>(nodes_.size());
    nodes_.push_back(Node{.element = element});
    NodeId* link = &root_;
    while (*link != kNoNode) {
      Node& n = nodes_[*link];
      link = less_(element, n.element) ? &n.left : &n.right;
    }
    *link = id;
    return id;
  }

  // The book's search: from the root, stop when equal, else go left if lower, right otherwise.
  // `path`, when given, receives every node visited (the found one last).
  template <typename Key>
  std::optional<NodeId> find(const Key& key, std::vector<NodeId>* path = nullptr) const {
    if (path != nullptr) path->clear();
    NodeId at = root_;
    while (at != kNoNode) {
      if (path != nullptr) path->push_back(at);
      const Node& n = nodes_[at];
      if (less_(key, n.element)) {
        at = n.left;
      } else if (less_(n.element, key)) {
        at = n.right;
      } else {
        return at;
      }
    }
    return std::nullopt;
  }

  // Clockwise about p (book figure 2.5): s = p.left moves up into p's place, s's right branch
  // becomes p's left branch, p becomes s's right child. False (nothing changed) when p has no
  // left child.
  bool rotate_clockwise(NodeId p) { return rotate(p, &Node::left, &Node::right); }
  // The mirror image: p.right moves up.
  bool rotate_counterclockwise(NodeId p) { return rotate(p, &Node::right, &Node::left); }

  // Number of levels (0 when empty): the worst search costs this many probes.
  usize depth() const { return depth_of(root_); }
  std::vector<NodeId> in_order() const {
    std::vector<NodeId> out;
    out.reserve(nodes_.size());
    std::vector<NodeId> stack;
    NodeId at = root_;
    while (at != kNoNode || !stack.empty()) {
      while (at != kNoNode) {
        stack.push_back(at);
        at = nodes_[at].left;
      }
      at = stack.back();
      stack.pop_back();
      out.push_back(at);
      at = nodes_[at].right;
    }
    return out;
  }

  NodeId root() const { return root_; }
  const Node& node(NodeId id) const {
    KEEL_ASSERT(id < nodes_.size(), "BinaryTree::node: id {} is not a node of this tree", id);
    return nodes_[id];
  }
  usize size() const { return nodes_.size(); }
  bool empty() const { return nodes_.empty(); }

 private:
  NodeId build_range(std::span<const T> sorted, usize begin, usize end) {
    if (begin >= end) return kNoNode;
    const usize mid = begin + (end - begin) / 2;
    const NodeId id = static_cast<NodeId>(nodes_.size());
    nodes_.push_back(Node{.element = sorted[mid]});
    const NodeId left = build_range(sorted, begin, mid);
    const NodeId right = build_range(sorted, mid + 1, end);
    nodes_[id].left = left;
    nodes_[id].right = right;
    return id;
  }

  usize depth_of(NodeId id) const {  // iterative: a degenerate tree is as deep as it is long
    usize deepest = 0;
    std::vector<std::pair<NodeId, usize>> stack;
    if (id != kNoNode) stack.emplace_back(id, 1);
    while (!stack.empty()) {
      const auto [at, level] = stack.back();
      stack.pop_back();
      deepest = std::max(deepest, level);
      if (nodes_[at].left != kNoNode) stack.emplace_back(nodes_[at].left, level + 1);
      if (nodes_[at].right != kNoNode) stack.emplace_back(nodes_[at].right, level + 1);
    }
    return deepest;
  }

  // The link that points at p (its parent's child field, or the root), or nullptr if p is not in
  // the tree. The search is the decision path; with equal elements a rotation may put an equal
  // element on the left, so a failed search falls back to a scan.
  NodeId* link_to(NodeId p) {
    NodeId* link = &root_;
    while (*link != kNoNode && *link != p) {
      Node& n = nodes_[*link];
      link = less_(nodes_[p].element, n.element) ? &n.left : &n.right;
    }
    if (*link == p) return link;
    for (Node& n : nodes_) {
      if (n.left == p) return &n.left;
      if (n.right == p) return &n.right;
    }
    return nullptr;
  }

  bool rotate(NodeId p, NodeId Node::*up_side, NodeId Node::*other_side) {
    KEEL_ASSERT(p < nodes_.size(), "BinaryTree::rotate: id {} is not a node of this tree", p);
    if (p >= nodes_.size() || nodes_[p].*up_side == kNoNode) return false;
    NodeId* link = link_to(p);
    if (link == nullptr) return false;
    const NodeId s = nodes_[p].*up_side;
    nodes_[p].*up_side = nodes_[s].*other_side;  // 1: s's inner branch moves to p
    nodes_[s].*other_side = p;                   // 2: p hangs below s
    *link = s;                                   // 3: p's parent (or the root) points at s
    return true;
  }

  std::vector<Node> nodes_;
  NodeId root_ = kNoNode;
  [[no_unique_address]] Less less_{};
};

}  // namespace keel::spatial
