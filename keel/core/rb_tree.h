// keel::RbTree<T, Less>: an intrusive red-black tree (Golden Rules ch. 2). The nodes are the
// caller's objects (T derives from keel::RbNode), so the tree itself never allocates; with nodes
// from an RbPool<T> a tree rebuilt every frame allocates nothing after the first frame.
//
// clang-format off
//   struct Sprite : keel::RbNode { f32 depth; u32 id; };
//   struct Farther { bool operator()(const Sprite& a, const Sprite& b) const { return a.depth > b.depth; } };
//   keel::RbPool<Sprite> pool(1024);                 // one allocation, up front
//   keel::RbTree<Sprite, Farther> order;
//   for (...) order.emplace(pool, Sprite{.depth = d, .id = i});  // nullptr when the pool is full
//   for (const Sprite& s : order) draw(s);          // back to front; equal keys in insertion order
//   order.clear(); pool.reset();                     // next frame: O(1) clear, no per-node delete
// clang-format on
//
// Insertion follows the book's cases (new node red; uncle red: recolour and move up; uncle black:
// at most two rotations). There is no erase, by design: the book's uses (sorting translucent
// objects, ordering a report) rebuild the tree each time. Equal keys go to the right, so an
// in-order walk is a stable sort. rotations() counts rotations since construction, for tests.
#pragma once

#include "keel/core/assert.h"
#include "keel/core/types.h"

#include <concepts>
#include <functional>
#include <iterator>
#include <utility>
#include <vector>

namespace keel {

enum class RbColor : u8 { kRed, kBlack };

// The links a tree node needs. Derive the node type from it; the tree owns the links while the
// node is inserted (until clear()).
struct RbNode {
  RbNode* parent = nullptr;
  RbNode* left = nullptr;
  RbNode* right = nullptr;
  RbColor color = RbColor::kRed;
};

// Fixed-capacity storage for tree nodes: make() constructs in place until the capacity is used
// up (then returns nullptr), reset() forgets every node without giving memory back. Pointers stay
// valid until reset().
template <typename T>
class RbPool {
 public:
  explicit RbPool(usize capacity) { nodes_.reserve(capacity); }

  template <typename... Args>
  T* make(Args&&... args) {
    if (nodes_.size() == nodes_.capacity()) return nullptr;
    return &nodes_.emplace_back(std::forward<Args>(args)...);
  }
  void reset() { nodes_.clear(); }
  // Room for at least n nodes; only when the pool is empty (live nodes must not move).
  void reserve(usize n) {
    KEEL_ASSERT(nodes_.empty() || n <= nodes_.capacity(),
                "RbPool::reserve would move live nodes: reset() the pool first");
    if (nodes_.empty()) nodes_.reserve(n);
  }
  usize size() const { return nodes_.size(); }
  usize capacity() const { return nodes_.capacity(); }

 private:
  std::vector<T> nodes_;
};

template <typename T, typename Less = std::less<T>>
requires std::derived_from<T, RbNode>
class RbTree {
 public:
  class Iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = T;
    using difference_type = std::ptrdiff_t;
    using pointer = T*;
    using reference = T&;

    Iterator() = default;
    explicit Iterator(RbNode* n) : node_(n) {}
    T& operator*() const { return static_cast<T&>(*node_); }
    T* operator->() const { return static_cast<T*>(node_); }
    Iterator& operator++() {
      node_ = successor(node_);
      return *this;
    }
    Iterator operator++(int) {
      Iterator old = *this;
      node_ = successor(node_);
      return old;
    }
    bool operator==(const Iterator&) const = default;

   private:
    RbNode* node_ = nullptr;
  };

  RbTree() = default;
  explicit RbTree(Less less) : less_(std::move(less)) {}
  RbTree(const RbTree&) = delete;
  RbTree& operator=(const RbTree&) = delete;

  // Links node in. The node must not be in a tree (its links are overwritten).
  void insert(T& node) {
    RbNode* n = &node;
    n->left = n->right = nullptr;
    n->color = RbColor::kRed;
    RbNode* parent = nullptr;
    RbNode** link = &root_;
    while (*link != nullptr) {
      parent = *link;
      link = less_(node, static_cast<const T&>(*parent)) ? &parent->left : &parent->right;
    }
    n->parent = parent;
    *link = n;
    ++size_;
    fix_after_insert(n);
  }

  // Makes a node in pool and links it in; nullptr (nothing inserted) when the pool is full.
  template <typename... Args>
  T* emplace(RbPool<T>& pool, Args&&... args) {
    T* node = pool.make(std::forward<Args>(args)...);
    if (node != nullptr) insert(*node);
    return node;
  }

  // Forgets every node in O(1); the nodes' memory is the caller's (reset the pool).
  void clear() {
    root_ = nullptr;
    size_ = 0;
  }

  // The first node not less than key (key compares with T through Less both ways), or end().
  template <typename Key>
  Iterator lower_bound(const Key& key) const {
    RbNode* n = root_;
    RbNode* found = nullptr;
    while (n != nullptr) {
      if (less_(static_cast<const T&>(*n), key)) {
        n = n->right;
      } else {
        found = n;
        n = n->left;
      }
    }
    return Iterator(found);
  }
  // A node equal to key, or nullptr.
  template <typename Key>
  T* find(const Key& key) const {
    const Iterator it = lower_bound(key);
    if (it == end() || less_(key, *it)) return nullptr;
    return &*it;
  }

  Iterator begin() const { return Iterator(leftmost(root_)); }
  Iterator end() const { return Iterator(); }
  bool empty() const { return size_ == 0; }
  usize size() const { return size_; }
  const RbNode* root() const { return root_; }
  u64 rotations() const { return rotations_; }

  static RbNode* successor(RbNode* n) {
    if (n->right != nullptr) return leftmost(n->right);
    RbNode* p = n->parent;
    while (p != nullptr && n == p->right) {
      n = p;
      p = p->parent;
    }
    return p;
  }

 private:
  static RbNode* leftmost(RbNode* n) {
    if (n == nullptr) return nullptr;
    while (n->left != nullptr) n = n->left;
    return n;
  }
  static bool is_red(const RbNode* n) { return n != nullptr && n->color == RbColor::kRed; }

  // The link that points at n: its parent's child field or the root.
  RbNode*& link_to(RbNode* n) {
    if (n->parent == nullptr) return root_;
    return n->parent->left == n ? n->parent->left : n->parent->right;
  }

  // Clockwise about p (the book's figure 2.5): s = p.left takes p's place.
  void rotate_clockwise(RbNode* p) {
    RbNode* s = p->left;
    link_to(p) = s;
    s->parent = p->parent;
    p->left = s->right;
    if (s->right != nullptr) s->right->parent = p;
    s->right = p;
    p->parent = s;
    ++rotations_;
  }
  void rotate_counterclockwise(RbNode* p) {
    RbNode* s = p->right;
    link_to(p) = s;
    s->parent = p->parent;
    p->right = s->left;
    if (s->left != nullptr) s->left->parent = p;
    s->left = p;
    p->parent = s;
    ++rotations_;
  }

  void fix_after_insert(RbNode* n) {
    while (is_red(n->parent)) {
      RbNode* parent = n->parent;
      RbNode* grand = parent->parent;  // exists: a red parent is never the root
      const bool parent_is_left = grand->left == parent;
      RbNode* uncle = parent_is_left ? grand->right : grand->left;
      if (is_red(uncle)) {  // case 1: recolour, continue from the grandparent
        parent->color = RbColor::kBlack;
        uncle->color = RbColor::kBlack;
        grand->color = RbColor::kRed;
        n = grand;
        continue;
      }
      if (parent_is_left) {
        if (n == parent->right) {  // case 3: turn into case 2
          rotate_counterclockwise(parent);
          n = parent;
          parent = n->parent;
        }
        parent->color = RbColor::kBlack;  // case 2
        grand->color = RbColor::kRed;
        rotate_clockwise(grand);
      } else {
        if (n == parent->left) {
          rotate_clockwise(parent);
          n = parent;
          parent = n->parent;
        }
        parent->color = RbColor::kBlack;
        grand->color = RbColor::kRed;
        rotate_counterclockwise(grand);
      }
      break;
    }
    root_->color = RbColor::kBlack;
  }

  RbNode* root_ = nullptr;
  usize size_ = 0;
  u64 rotations_ = 0;
  [[no_unique_address]] Less less_{};
};

}  // namespace keel
