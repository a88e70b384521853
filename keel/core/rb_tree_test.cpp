#include "keel/core/rb_tree.h"

#include "keel/core/testing/alloc_counter.h"
#include "keel/core/testing/assert_recorder.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <string>
#include <vector>

namespace keel {
namespace {

struct Item : RbNode {
  Item() = default;
  explicit Item(u32 k, u32 s = 0) : key(k), seq(s) {}
  u32 key = 0;
  u32 seq = 0;  // insertion order, to check stability
};
struct ByKey {
  bool operator()(const Item& a, const Item& b) const { return a.key < b.key; }
  bool operator()(const Item& a, u32 k) const { return a.key < k; }
  bool operator()(u32 k, const Item& b) const { return k < b.key; }
};
using Tree = RbTree<Item, ByKey>;

const Item& item(const RbNode* n) { return static_cast<const Item&>(*n); }
bool red(const RbNode* n) { return n != nullptr && n->color == RbColor::kRed; }

struct Check {
  usize nodes = 0;
  usize height = 0;
  std::string error;
};

// Returns the black height of the subtree (empty branches count as black); records the first
// broken invariant in check.error.
int black_height(const RbNode* n, const RbNode* parent, usize depth, Check& check) {
  if (n == nullptr) return 1;
  ++check.nodes;
  check.height = std::max(check.height, depth + 1);
  if (n->parent != parent && check.error.empty()) check.error = "parent pointer";
  if (red(n) && (red(n->left) || red(n->right)) && check.error.empty()) check.error = "red-red";
  const int l = black_height(n->left, n, depth + 1, check);
  const int r = black_height(n->right, n, depth + 1, check);
  if (l != r && check.error.empty()) check.error = "black height";
  return l + (red(n) ? 0 : 1);
}

::testing::AssertionResult valid(const Tree& tree) {
  Check check;
  if (red(tree.root())) return ::testing::AssertionFailure() << "red root";
  black_height(tree.root(), nullptr, 0, check);
  if (!check.error.empty()) return ::testing::AssertionFailure() << check.error;
  if (check.nodes != tree.size()) return ::testing::AssertionFailure() << "size";
  const f64 bound = 2.0 * std::log2(static_cast<f64>(tree.size()) + 1.0);
  if (static_cast<f64>(check.height) > bound) {
    return ::testing::AssertionFailure() << "height " << check.height << " > " << bound;
  }
  const Item* prev = nullptr;
  for (const Item& i : tree) {
    if (prev != nullptr && (i.key < prev->key || (i.key == prev->key && i.seq < prev->seq))) {
      return ::testing::AssertionFailure() << "in-order walk not sorted and stable";
    }
    prev = &i;
  }
  return ::testing::AssertionSuccess();
}

std::string shape(const RbNode* n) {
  if (n == nullptr) return "-";
  std::string s = std::to_string(item(n).key) + (red(n) ? "R" : "B");
  if (n->left == nullptr && n->right == nullptr) return s;
  return s + "(" + shape(n->left) + " " + shape(n->right) + ")";
}

TEST(RbTree, C2_07_AscendingOneToSeven) {
  std::vector<Item> items;
  for (u32 k = 1; k <= 7; ++k) items.emplace_back(k);
  Tree tree;
  for (Item& i : items) tree.insert(i);
  EXPECT_EQ(shape(tree.root()), "2B(1B 4R(3B 6B(5R 7R)))");
  EXPECT_EQ(tree.rotations(), 3u);
  EXPECT_TRUE(valid(tree));
}

TEST(RbTree, C2_08_DbfacegBalancedWithoutRotations) {
  std::vector<Item> items;
  for (const char c : std::string("DBFACEG")) items.emplace_back(static_cast<u32>(c));
  Tree tree;
  for (Item& i : items) tree.insert(i);
  const auto k = [](char c) { return std::to_string(static_cast<u32>(c)); };
  EXPECT_EQ(shape(tree.root()), k('D') + "B(" + k('B') + "B(" + k('A') + "R " + k('C') + "R) " +
                                    k('F') + "B(" + k('E') + "R " + k('G') + "R))");
  EXPECT_EQ(tree.rotations(), 0u);
}

void insert_all_checked(const std::vector<u32>& keys) {
  RbPool<Item> pool(keys.size());
  Tree tree;
  u64 worst_rotations = 0;
  for (usize i = 0; i < keys.size(); ++i) {
    const u64 before = tree.rotations();
    tree.emplace(pool, keys[i], static_cast<u32>(i));
    worst_rotations = std::max(worst_rotations, tree.rotations() - before);
  }
  EXPECT_LE(worst_rotations, 2u);
  EXPECT_TRUE(valid(tree));
  std::vector<u32> walked;
  for (const Item& i : tree) walked.push_back(i.key);
  std::vector<u32> sorted = keys;
  std::ranges::sort(sorted);
  EXPECT_EQ(walked, sorted);
  tree.clear();
  pool.reset();
  EXPECT_TRUE(tree.empty());
  EXPECT_EQ(tree.begin(), tree.end());
}

TEST(RbTree, C2_09_InvariantsAfter100kRandomInserts) {
  std::mt19937 rng(7);
  std::vector<u32> keys(100'000);
  for (u32& k : keys) k = rng() % 50'000;  // duplicates on purpose
  insert_all_checked(keys);
}

TEST(RbTree, C2_09_InvariantsAfter100kSortedInserts) {
  std::vector<u32> keys(100'000);
  std::iota(keys.begin(), keys.end(), 0u);
  insert_all_checked(keys);
  std::ranges::reverse(keys);
  insert_all_checked(keys);
}

TEST(RbTree, C2_09_ClearAndRebuildAllocatesNothing) {
  RbPool<Item> pool(1000);
  Tree tree;
  std::mt19937 rng(3);
  testing::AllocationScope scope;
  for (int frame = 0; frame < 5; ++frame) {
    tree.clear();
    pool.reset();
    for (int i = 0; i < 1000; ++i) tree.emplace(pool, rng() % 100);
    ASSERT_TRUE(valid(tree));
  }
  EXPECT_EQ(scope.count(), 0u) << scope.counts();
  EXPECT_EQ(pool.make(1u), nullptr);  // full
}

TEST(RbTree, FindAndLowerBound) {
  std::vector<Item> items;
  for (u32 k = 0; k < 100; k += 10) items.emplace_back(k);
  Tree tree;
  for (Item& i : items) tree.insert(i);
  const Item* found = tree.find(30u);
  ASSERT_NE(found, nullptr);
  EXPECT_EQ(found->key, 30u);
  EXPECT_EQ(tree.find(35u), nullptr);
  const auto next = tree.lower_bound(35u);
  ASSERT_NE(next, tree.end());
  EXPECT_EQ(next->key, 40u);
  EXPECT_EQ(tree.lower_bound(95u), tree.end());
}

TEST(EntryPoints, RbTreeEmptyAndPoolMisuse) {
  Tree tree;
  EXPECT_EQ(tree.begin(), tree.end());
  EXPECT_EQ(tree.find(1u), nullptr);
  EXPECT_EQ(tree.lower_bound(1u), tree.end());
  tree.clear();
  RbPool<Item> pool(0);
  EXPECT_EQ(pool.make(1u), nullptr);
  EXPECT_EQ(tree.emplace(pool, 1u), nullptr);  // full pool: nothing inserted
  EXPECT_TRUE(tree.empty());
  RbPool<Item> small(1);
  ASSERT_NE(small.make(1u), nullptr);
  if (KEEL_ASSERTS_ENABLED) {
    testing::AssertRecorder asserts;
    small.reserve(100);
    asserts.expect_asserted("reset() the pool first");
  }
}

}  // namespace
}  // namespace keel
