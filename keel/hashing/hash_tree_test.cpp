#include "keel/hashing/hash_tree.h"

#include <gtest/gtest.h>

#include <random>
#include <unordered_map>
#include <vector>

namespace keel::hashing {
namespace {

struct Item {
  int id = 0;
};

// Every node's hash agrees with the bits its path fixes (bit d chooses the branch at depth d);
// returns the number of items seen (chains included).
usize check_prefixes(const HashTreeNode* node, u32 depth, Hash path_bits) {
  if (node == nullptr) return 0;
  const Hash mask = depth == 0 ? 0u : (depth >= 32 ? 0xFFFFFFFFu : (1u << depth) - 1u);
  EXPECT_EQ(node->hash & mask, path_bits & mask) << "depth " << depth;
  usize n = 0;
  for (const HashTreeNode* c = node; c != nullptr; c = c->chain) {
    EXPECT_EQ(c->hash, node->hash);
    ++n;
  }
  if (depth >= 32) {
    EXPECT_TRUE(node->left == nullptr && node->right == nullptr);  // 32 bits fix the whole hash
    return n;
  }
  return n + check_prefixes(node->left, depth + 1, path_bits) +
         check_prefixes(node->right, depth + 1, path_bits | (1u << depth));
}

// C3-09: placement by bit d at depth d (derived).
TEST(HashTree, C3_09_PlacementByBitPerLevel) {
  Item i0{0}, i2{2}, i1{1}, i6{6};
  HashTree<Item> tree;
  ASSERT_TRUE(tree.add(0x0, &i0));
  ASSERT_TRUE(tree.add(0x2, &i2));
  ASSERT_TRUE(tree.add(0x1, &i1));
  ASSERT_TRUE(tree.add(0x6, &i6));
  const HashTreeNode* root = tree.root();
  ASSERT_NE(root, nullptr);
  EXPECT_EQ(root->hash, 0x0u);
  ASSERT_NE(root->left, nullptr);
  EXPECT_EQ(root->left->hash, 0x2u);  // bit0 = 0
  ASSERT_NE(root->right, nullptr);
  EXPECT_EQ(root->right->hash, 0x1u);  // bit0 = 1
  ASSERT_NE(root->left->right, nullptr);
  EXPECT_EQ(root->left->right->hash, 0x6u);  // bit0 = 0, bit1 = 1
  EXPECT_EQ(root->left->left, nullptr);
  EXPECT_EQ(tree.find(0x0), &i0);
  EXPECT_EQ(tree.find(0x2), &i2);
  EXPECT_EQ(tree.find(0x1), &i1);
  EXPECT_EQ(tree.find(0x6), &i6);
  EXPECT_EQ(tree.find(0x4), nullptr);
  EXPECT_EQ(tree.visits(0x0), 1u);  // the first key added is the root
  EXPECT_EQ(tree.visits(0x6), 3u);
  EXPECT_EQ(tree.count(), 4u);
}

// C3-10: the book's removal (Figure 3.5 shape) and a randomized run against unordered_map.
TEST(HashTree, C3_10_RemovalShufflesDataUp) {
  Item a{'A'}, b{'B'}, c{'C'}, d{'D'}, e{'E'};
  HashTree<Item> tree;
  ASSERT_TRUE(tree.add(0x0, &a));  // root
  ASSERT_TRUE(tree.add(0x4, &b));  // root.left        (bit0 = 0)
  ASSERT_TRUE(tree.add(0x1, &c));  // root.right       (bit0 = 1)
  ASSERT_TRUE(tree.add(0x8, &d));  // root.left.left   (bit0 = 0, bit1 = 0)
  ASSERT_TRUE(tree.add(0x2, &e));  // root.left.right  (bit0 = 0, bit1 = 1)
  const HashTreeNode* node_a = tree.root();
  const HashTreeNode* node_b = node_a->left;
  const HashTreeNode* node_c = node_a->right;
  const HashTreeNode* node_d = node_b->left;
  const HashTreeNode* node_e = node_b->right;
  ASSERT_EQ(node_d->data, &d);
  const usize free_before = tree.free_count();

  ASSERT_TRUE(tree.remove(0x0));
  EXPECT_EQ(tree.root(), node_a);  // nodes stay; data moves
  EXPECT_EQ(node_a->data, &b);     // step 1: B's contents into A's node
  EXPECT_EQ(node_a->hash, 0x4u);
  EXPECT_EQ(node_a->left, node_b);
  EXPECT_EQ(node_b->data, &d);  // step 2: D's contents into the old B node
  EXPECT_EQ(node_b->hash, 0x8u);
  EXPECT_EQ(node_b->left, nullptr);  // the old D node was unlinked and freed
  EXPECT_EQ(node_b->right, node_e);
  EXPECT_EQ(node_a->right, node_c);
  EXPECT_EQ(tree.free_count(), free_before + 1);
  EXPECT_EQ(tree.count(), 4u);
  EXPECT_EQ(tree.find(0x0), nullptr);
  EXPECT_EQ(tree.find(0x4), &b);
  EXPECT_EQ(tree.find(0x1), &c);
  EXPECT_EQ(tree.find(0x8), &d);
  EXPECT_EQ(tree.find(0x2), &e);
  EXPECT_EQ(check_prefixes(tree.root(), 0, 0), 4u);
  EXPECT_EQ(tree.remove(0x0).error().code(), ErrorCode::kNotFound);

  // Randomized: 10^4 mixed operations; small hash range forces deep shared prefixes.
  std::mt19937 rng(10);
  std::vector<Item> pool(4096);
  std::unordered_map<Hash, Item*> reference;
  HashTree<Item> random_tree;
  usize next_item = 0;
  for (int step = 0; step < 10000; ++step) {
    const Hash h = step % 2 == 0 ? static_cast<Hash>(rng() % 2048) : static_cast<Hash>(rng());
    if (reference.contains(h)) {
      ASSERT_TRUE(random_tree.remove(h));
      reference.erase(h);
    } else if (rng() % 3 != 0) {
      Item* item = &pool[next_item++ % pool.size()];
      ASSERT_TRUE(random_tree.add(h, item));
      reference.emplace(h, item);
    } else if (!reference.empty()) {
      const Hash victim = reference.begin()->first;
      ASSERT_TRUE(random_tree.remove(victim));
      reference.erase(victim);
    }
    if (step % 500 == 0) {
      ASSERT_EQ(check_prefixes(random_tree.root(), 0, 0), reference.size());
    }
  }
  EXPECT_EQ(random_tree.count(), reference.size());
  EXPECT_EQ(check_prefixes(random_tree.root(), 0, 0), reference.size());
  for (const auto& [h, item] : reference) EXPECT_EQ(random_tree.find(h), item);
  usize visited = 0;
  random_tree.for_each([&](Hash h, Item* item) {
    EXPECT_EQ(reference.at(h), item);
    ++visited;
  });
  EXPECT_EQ(visited, reference.size());
}

// C3-11: Clear + AddFreeItems(N) gives exactly N adds without heap use; the (N+1)-th add fails
// (Growth::kFixed) or allocates one owned block (Growth::kGrow).
TEST(HashTree, C3_11_FreeListPolicy) {
  constexpr usize kNodes = 16;
  std::vector<Item> items(kNodes + 1);
  HashTreeNode nodes[kNodes];
  HashTree<Item> fixed(HashTreeOptions{.growth = Growth::kFixed});
  EXPECT_EQ(fixed.add(99, &items[0]).error().code(), ErrorCode::kOverflow);  // no nodes yet
  fixed.clear();
  fixed.add_free_items(nodes);
  EXPECT_EQ(fixed.free_count(), kNodes);
  for (usize i = 0; i < kNodes; ++i) {
    ASSERT_TRUE(fixed.add(static_cast<Hash>(i * 7919), &items[i]));
  }
  EXPECT_EQ(fixed.free_count(), 0u);
  EXPECT_EQ(fixed.owned_blocks(), 0u);  // no heap allocation
  for (usize i = 0; i < kNodes; ++i) EXPECT_EQ(fixed.find(static_cast<Hash>(i * 7919)), &items[i]);
  Status extra = fixed.add(0xABCDEF, &items[kNodes]);
  ASSERT_FALSE(extra);
  EXPECT_EQ(extra.error().code(), ErrorCode::kOverflow);
  EXPECT_EQ(fixed.count(), kNodes);
  EXPECT_EQ(fixed.find(0xABCDEF), nullptr);

  // A removal returns its node; the next add reuses it.
  ASSERT_TRUE(fixed.remove(7919));
  EXPECT_EQ(fixed.free_count(), 1u);
  ASSERT_TRUE(fixed.add(0xABCDEF, &items[kNodes]));
  // remove_all keeps the storage, clear forgets it.
  fixed.remove_all();
  EXPECT_EQ(fixed.count(), 0u);
  EXPECT_EQ(fixed.free_count(), kNodes);
  fixed.clear();
  EXPECT_EQ(fixed.free_count(), 0u);

  // Every node the tree hands out is one of the external nodes.
  HashTree<Item> external(HashTreeOptions{.growth = Growth::kFixed});
  external.add_free_items(nodes);
  for (usize i = 0; i < kNodes; ++i) ASSERT_TRUE(external.add(static_cast<Hash>(i), &items[i]));
  std::vector<const HashTreeNode*> stack{external.root()};
  usize seen = 0;
  while (!stack.empty()) {
    const HashTreeNode* n = stack.back();
    stack.pop_back();
    if (n == nullptr) continue;
    EXPECT_TRUE(n >= &nodes[0] && n < &nodes[0] + kNodes);
    ++seen;
    stack.push_back(n->left);
    stack.push_back(n->right);
  }
  EXPECT_EQ(seen, kNodes);

  HashTree<Item> growing(HashTreeOptions{.growth = Growth::kGrow, .block_nodes = 8});
  growing.add_free_items(nodes);
  for (usize i = 0; i < kNodes; ++i) ASSERT_TRUE(growing.add(static_cast<Hash>(i), &items[i]));
  EXPECT_EQ(growing.owned_blocks(), 0u);
  ASSERT_TRUE(growing.add(0xABCDEF, &items[kNodes]));  // the (N+1)-th add allocates a block
  EXPECT_EQ(growing.owned_blocks(), 1u);
  EXPECT_EQ(growing.free_count(), 7u);
  EXPECT_EQ(growing.find(0xABCDEF), &items[kNodes]);
}

// C3-12: collision chaining; both same-hash items are found by (hash, match); removing one
// leaves the other; a chain moves with its head when removal shuffles data up.
TEST(HashTree, C3_12_CollisionChaining) {
  Item x{1}, y{2}, z{3}, root_item{4};
  HashTree<Item> tree(HashTreeOptions{.chaining = true});
  ASSERT_TRUE(tree.add(0x0, &root_item));
  ASSERT_TRUE(tree.add(0x1C3870E8, &x));  // e.g. filename_hash("aaaab")
  ASSERT_TRUE(tree.add(0x1C3870E8, &y));  // and filename_hash("qaaaa")
  EXPECT_EQ(tree.count(), 3u);
  EXPECT_EQ(tree.find(0x1C3870E8, [](const Item& i) { return i.id == 1; }), &x);
  EXPECT_EQ(tree.find(0x1C3870E8, [](const Item& i) { return i.id == 2; }), &y);
  EXPECT_EQ(tree.find(0x1C3870E8, [](const Item& i) { return i.id == 3; }), nullptr);
  EXPECT_EQ(tree.find(0x1C3870E8), &x);

  // Removing the root shuffles the chained node up; the chain comes along.
  ASSERT_TRUE(tree.remove(0x0));
  EXPECT_EQ(tree.root()->hash, 0x1C3870E8u);
  EXPECT_EQ(tree.find(0x1C3870E8, [](const Item& i) { return i.id == 2; }), &y);

  ASSERT_TRUE(tree.remove(0x1C3870E8, &x));
  EXPECT_EQ(tree.find(0x1C3870E8, [](const Item& i) { return i.id == 1; }), nullptr);
  EXPECT_EQ(tree.find(0x1C3870E8, [](const Item& i) { return i.id == 2; }), &y);
  EXPECT_EQ(tree.find(0x1C3870E8), &y);
  ASSERT_TRUE(tree.add(0x1C3870E8, &z));
  ASSERT_TRUE(tree.remove(0x1C3870E8, &z));  // a chained (non-head) item
  EXPECT_EQ(tree.count(), 1u);
  EXPECT_EQ(tree.remove(0x1C3870E8, &z).error().code(), ErrorCode::kNotFound);
}

// Erratum 19: a duplicate hash is rejected without chaining; with chaining only the same
// (hash, pointer) is rejected.
TEST(HashTree, Erratum19_DuplicateAdds) {
  Item a{1}, b{2};
  HashTree<Item> plain;
  ASSERT_TRUE(plain.add(5, &a));
  EXPECT_EQ(plain.add(5, &b).error().code(), ErrorCode::kAlreadyExists);
  EXPECT_EQ(plain.add(5, &a).error().code(), ErrorCode::kAlreadyExists);
  EXPECT_EQ(plain.find(5), &a);
  EXPECT_EQ(plain.count(), 1u);
  HashTree<Item> chained(HashTreeOptions{.chaining = true});
  ASSERT_TRUE(chained.add(5, &a));
  ASSERT_TRUE(chained.add(5, &b));
  EXPECT_EQ(chained.add(5, &b).error().code(), ErrorCode::kAlreadyExists);
  EXPECT_EQ(chained.count(), 2u);
}

TEST(HashTree, FullDepthHashesAndMove) {
  // Hashes that share 31 low bits end up 31 levels deep and are still told apart.
  std::vector<Item> items(33);
  HashTree<Item> tree;
  for (u32 i = 0; i < 32; ++i) ASSERT_TRUE(tree.add(1u << i, &items[i]));
  ASSERT_TRUE(tree.add(0, &items[32]));
  for (u32 i = 0; i < 32; ++i) EXPECT_EQ(tree.find(1u << i), &items[i]);
  EXPECT_EQ(check_prefixes(tree.root(), 0, 0), 33u);
  HashTree<Item> moved = std::move(tree);
  EXPECT_EQ(moved.find(1u << 31), &items[31]);
  EXPECT_EQ(moved.count(), 33u);
}

}  // namespace
}  // namespace keel::hashing
