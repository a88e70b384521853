// Hash tree: a binary trie over the hash bits (Golden Rules ch. 3, "The Hash Tree"), the book's
// preferred structure.
//
//   HashTreeNode nodes[64];               // storage handed to the tree (or let it grow)
//   HashTree<Sprite> tree;
//   tree.add_free_items(nodes);
//   tree.add(filename_hash("ship.tga"), &ship);
//   Sprite* s = tree.find(filename_hash("ship.tga"));
//
// At depth d (root = 0) bit d of the hash picks the branch: 0 left, 1 right, so a node's
// position fixes the first `depth` bits of every hash stored at or below it. Find and add walk
// down until the hash matches or the child is missing: O(depth) <= 33 nodes. An item's depth
// depends on when it was added, so add the most frequently searched items first: the first one
// becomes the root and is found after one node visit.
//
// Remove (book): the data of the left child (else the right child) is copied up into the
// removed node, repeatedly, until a leaf is reached; only that leaf is unlinked and returned to
// the free list. Only data moves, never subtrees, so every node keeps its prefix bits.
//
// Nodes come from a free list. add_free_items() hands external nodes to the tree (no heap
// use); with Growth::kGrow an empty free list allocates a block of nodes the tree owns, with
// Growth::kFixed add() fails with kOverflow instead. clear() empties the tree and forgets all
// nodes (external ones and owned blocks); remove_all() returns the nodes to the free list.
//
// Duplicate hashes: without chaining, adding a hash that is already present fails with
// kAlreadyExists. With chaining, items with equal hashes hang off one node in a chain of full
// nodes; adding the same (hash, pointer) twice fails with kAlreadyExists.
//
// The tree stores pointers, never owns or copies the data; null data cannot be stored.
// A `const HashTree&` is the book's StaticHashTree (search only).
#pragma once

#include "keel/core/error.h"
#include "keel/core/hash.h"
#include "keel/core/types.h"

#include <concepts>
#include <memory>
#include <span>
#include <type_traits>
#include <vector>

namespace keel::hashing {

// One tree node (the book's HashTreeItem). Public so storage can be preallocated anywhere.
struct HashTreeNode {
  HashTreeNode* left = nullptr;   // bit clear; also the free-list link
  HashTreeNode* right = nullptr;  // bit set
  HashTreeNode* chain = nullptr;  // next item with the same hash (chaining)
  Hash hash = 0;
  void* data = nullptr;
};

enum class Growth : u8 { kGrow, kFixed };

struct HashTreeOptions {
  bool chaining = false;
  Growth growth = Growth::kGrow;
  usize block_nodes = 64;  // nodes per owned block when growing
};

namespace detail {

using TreeMatchFn = bool (*)(const void* data, const void* context);
using TreeVisitFn = void (*)(Hash hash, void* data, void* context);

class HashTreeCore {
 public:
  explicit HashTreeCore(HashTreeOptions options) : options_(options) {}
  ~HashTreeCore() = default;
  HashTreeCore(const HashTreeCore&) = delete;
  HashTreeCore& operator=(const HashTreeCore&) = delete;
  HashTreeCore(HashTreeCore&& other) noexcept;
  HashTreeCore& operator=(HashTreeCore&& other) noexcept;

  const HashTreeOptions& options() const { return options_; }
  usize count() const { return count_; }
  usize free_count() const { return free_count_; }
  usize owned_blocks() const { return blocks_.size(); }
  const HashTreeNode* root() const { return root_; }

  void* find(Hash hash) const;
  void* find_if(Hash hash, TreeMatchFn match, const void* context) const;
  usize visits(Hash hash) const;  // nodes a find(hash) looks at, hit or miss
  void for_each(TreeVisitFn visit, void* context) const;

  void add_free_items(std::span<HashTreeNode> nodes);
  Status add(Hash hash, void* data);
  Status remove(Hash hash);
  Status remove(Hash hash, const void* data);
  void remove_all();
  void clear();

 private:
  HashTreeNode** find_link(Hash hash);
  Result<HashTreeNode*> take_node();
  void release_node(HashTreeNode* node);
  void remove_node(HashTreeNode** link);

  HashTreeOptions options_;
  HashTreeNode* root_ = nullptr;
  HashTreeNode* free_ = nullptr;
  usize count_ = 0;
  usize free_count_ = 0;
  std::vector<std::unique_ptr<HashTreeNode[]>> blocks_;
};

}  // namespace detail

template <typename T>
class HashTree {
 public:
  explicit HashTree(HashTreeOptions options = {}) : core_(options) {}

  usize count() const { return core_.count(); }
  bool empty() const { return core_.count() == 0; }
  usize free_count() const { return core_.free_count(); }
  usize owned_blocks() const { return core_.owned_blocks(); }
  const HashTreeNode* root() const { return core_.root(); }
  const HashTreeOptions& options() const { return core_.options(); }

  // The item stored under `hash` (with chaining: the first one added), or nullptr.
  T* find(Hash hash) const { return static_cast<T*>(core_.find(hash)); }
  // The item under `hash` for which match(item) is true, or nullptr.
  template <std::predicate<const T&> Match>
  T* find(Hash hash, const Match& match) const {
    return static_cast<T*>(core_.find_if(hash, &call_match<Match>, &match));
  }
  usize visits(Hash hash) const { return core_.visits(hash); }
  // visit(hash, T*) for every item (pre-order; chained items after their head).
  template <typename Visit>
  void for_each(Visit&& visit) const {
    core_.for_each(&call_visit<std::remove_reference_t<Visit>>, &visit);
  }

  void add_free_items(std::span<HashTreeNode> nodes) { core_.add_free_items(nodes); }
  Status add(Hash hash, T* data) {
    return core_.add(hash, const_cast<std::remove_const_t<T>*>(data));
  }
  Status remove(Hash hash) { return core_.remove(hash); }  // the item find(hash) returns
  Status remove(Hash hash, const T* data) { return core_.remove(hash, data); }
  void remove_all() { core_.remove_all(); }
  void clear() { core_.clear(); }

 private:
  template <typename Match>
  static bool call_match(const void* data, const void* context) {
    return (*static_cast<const Match*>(context))(*static_cast<const T*>(data));
  }
  template <typename Visit>
  static void call_visit(Hash hash, void* data, void* context) {
    (*static_cast<Visit*>(context))(hash, static_cast<T*>(data));
  }

  detail::HashTreeCore core_;
};

}  // namespace keel::hashing
