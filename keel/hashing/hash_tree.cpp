#include "keel/hashing/hash_tree.h"

#include "keel/core/assert.h"

#include <utility>

namespace keel::hashing::detail {

namespace {
// A node at depth 32 agrees with the searched hash in all 32 bits, so a walk never needs a bit
// beyond 31.
constexpr u32 kHashBits = 32;

bool bit(Hash hash, u32 depth) { return ((hash >> depth) & 1u) != 0; }
}  // namespace

HashTreeCore::HashTreeCore(HashTreeCore&& other) noexcept
    : options_(other.options_),
      root_(std::exchange(other.root_, nullptr)),
      free_(std::exchange(other.free_, nullptr)),
      count_(std::exchange(other.count_, 0)),
      free_count_(std::exchange(other.free_count_, 0)),
      blocks_(std::move(other.blocks_)) {}

HashTreeCore& HashTreeCore::operator=(HashTreeCore&& other) noexcept {
  if (this != &other) {
    options_ = other.options_;
    root_ = std::exchange(other.root_, nullptr);
    free_ = std::exchange(other.free_, nullptr);
    count_ = std::exchange(other.count_, 0);
    free_count_ = std::exchange(other.free_count_, 0);
    blocks_ = std::move(other.blocks_);
  }
  return *this;
}

HashTreeNode** HashTreeCore::find_link(Hash hash) {
  HashTreeNode** link = &root_;
  for (u32 depth = 0; *link != nullptr && (*link)->hash != hash; ++depth) {
    KEEL_ASSERT(depth < kHashBits, "hash tree deeper than 32 levels: corrupt tree");
    link = bit(hash, depth) ? &(*link)->right : &(*link)->left;
  }
  return link;
}

void* HashTreeCore::find(Hash hash) const {
  const HashTreeNode* node = root_;
  for (u32 depth = 0; node != nullptr; ++depth) {
    if (node->hash == hash) return node->data;
    KEEL_ASSERT(depth < kHashBits, "hash tree deeper than 32 levels: corrupt tree");
    node = bit(hash, depth) ? node->right : node->left;
  }
  return nullptr;
}

void* HashTreeCore::find_if(Hash hash, TreeMatchFn match, const void* context) const {
  const HashTreeNode* node = root_;
  for (u32 depth = 0; node != nullptr; ++depth) {
    if (node->hash == hash) {
      for (const HashTreeNode* n = node; n != nullptr; n = n->chain) {
        if (match(n->data, context)) return n->data;
      }
      return nullptr;
    }
    KEEL_ASSERT(depth < kHashBits, "hash tree deeper than 32 levels: corrupt tree");
    node = bit(hash, depth) ? node->right : node->left;
  }
  return nullptr;
}

usize HashTreeCore::visits(Hash hash) const {
  usize visited = 0;
  const HashTreeNode* node = root_;
  for (u32 depth = 0; node != nullptr; ++depth) {
    ++visited;
    if (node->hash == hash) break;
    node = bit(hash, depth) ? node->right : node->left;
  }
  return visited;
}

void HashTreeCore::for_each(TreeVisitFn visit, void* context) const {
  std::vector<const HashTreeNode*> stack;
  if (root_ != nullptr) stack.push_back(root_);
  while (!stack.empty()) {
    const HashTreeNode* node = stack.back();
    stack.pop_back();
    visit(node->hash, node->data, context);
    for (const HashTreeNode* n = node->chain; n != nullptr; n = n->chain) {
      visit(n->hash, n->data, context);
    }
    if (node->right != nullptr) stack.push_back(node->right);
    if (node->left != nullptr) stack.push_back(node->left);
  }
}

void HashTreeCore::add_free_items(std::span<HashTreeNode> nodes) {
  for (HashTreeNode& node : nodes) release_node(&node);
}

Result<HashTreeNode*> HashTreeCore::take_node() {
  if (free_ == nullptr) {
    if (options_.growth == Growth::kFixed) {
      return fail(ErrorCode::kOverflow,
                  "hash tree has no free nodes ({} items stored); add_free_items() or grow",
                  count_);
    }
    const usize n = options_.block_nodes == 0 ? 1 : options_.block_nodes;
    blocks_.push_back(std::make_unique<HashTreeNode[]>(n));
    add_free_items(std::span<HashTreeNode>(blocks_.back().get(), n));
  }
  HashTreeNode* node = free_;
  free_ = node->left;
  --free_count_;
  *node = HashTreeNode{};
  return node;
}

void HashTreeCore::release_node(HashTreeNode* node) {
  *node = HashTreeNode{};
  node->left = free_;
  free_ = node;
  ++free_count_;
}

Status HashTreeCore::add(Hash hash, void* data) {
  KEEL_ASSERT(data != nullptr, "a hash tree cannot store null data (null means missing)");
  if (data == nullptr) {
    return fail(ErrorCode::kInvalidArgument, "hash tree: null data (null means missing)");
  }
  HashTreeNode** link = find_link(hash);
  if (*link != nullptr) {
    if (!options_.chaining) {
      return fail(ErrorCode::kAlreadyExists, "hash 0x{:08X} is already in the tree", hash);
    }
    HashTreeNode* last = *link;
    for (HashTreeNode* n = *link; n != nullptr; n = n->chain) {
      if (n->data == data) {
        return fail(ErrorCode::kAlreadyExists, "item is already in the tree under 0x{:08X}", hash);
      }
      last = n;
    }
    Result<HashTreeNode*> node = take_node();
    if (!node) return Unexpected(node.error());
    (*node)->hash = hash;
    (*node)->data = data;
    last->chain = *node;
  } else {
    Result<HashTreeNode*> node = take_node();  // allocation never moves existing nodes
    if (!node) return Unexpected(node.error());
    (*node)->hash = hash;
    (*node)->data = data;
    *link = *node;
  }
  ++count_;
  return ok();
}

Status HashTreeCore::remove(Hash hash) {
  HashTreeNode** link = find_link(hash);
  if (*link == nullptr) return fail(ErrorCode::kNotFound, "no item with hash 0x{:08X}", hash);
  return remove(hash, (*link)->data);
}

Status HashTreeCore::remove(Hash hash, const void* data) {
  HashTreeNode** link = find_link(hash);
  HashTreeNode* node = *link;
  if (node == nullptr) return fail(ErrorCode::kNotFound, "no item with hash 0x{:08X}", hash);
  if (node->data == data) {
    if (node->chain != nullptr) {
      HashTreeNode* next = node->chain;  // promote the next item with the same hash
      node->data = next->data;
      node->chain = next->chain;
      release_node(next);
    } else {
      remove_node(link);
    }
    --count_;
    return ok();
  }
  for (HashTreeNode** prev = &node->chain; *prev != nullptr; prev = &(*prev)->chain) {
    if ((*prev)->data == data) {
      HashTreeNode* gone = *prev;
      *prev = gone->chain;
      release_node(gone);
      --count_;
      return ok();
    }
  }
  return fail(ErrorCode::kNotFound, "item not in the tree under 0x{:08X}", hash);
}

// The book's removal: copy the left (else right) child's contents up, step by step, until the
// current node is a leaf; unlink that leaf and free it.
void HashTreeCore::remove_node(HashTreeNode** link) {
  HashTreeNode* current = *link;
  for (;;) {
    HashTreeNode** next_link = current->left != nullptr    ? &current->left
                               : current->right != nullptr ? &current->right
                                                           : nullptr;
    if (next_link == nullptr) break;
    HashTreeNode* next = *next_link;
    current->hash = next->hash;
    current->data = next->data;
    current->chain = next->chain;  // the chain travels with its head
    link = next_link;
    current = next;
  }
  *link = nullptr;
  release_node(current);
}

void HashTreeCore::remove_all() {
  std::vector<HashTreeNode*> stack;
  if (root_ != nullptr) stack.push_back(root_);
  while (!stack.empty()) {
    HashTreeNode* node = stack.back();
    stack.pop_back();
    if (node->left != nullptr) stack.push_back(node->left);
    if (node->right != nullptr) stack.push_back(node->right);
    for (HashTreeNode* n = node->chain; n != nullptr;) {
      HashTreeNode* next = n->chain;
      release_node(n);
      n = next;
    }
    release_node(node);
  }
  root_ = nullptr;
  count_ = 0;
}

void HashTreeCore::clear() {
  root_ = nullptr;
  free_ = nullptr;
  count_ = 0;
  free_count_ = 0;
  blocks_.clear();
}

}  // namespace keel::hashing::detail
