#include "keel/spatial/search.h"
#include "keel/spatial/binary_tree.h"
#include "keel/spatial/rb_tree.h"

#include "keel/core/testing/assert_recorder.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <map>
#include <numeric>
#include <random>
#include <span>
#include <string>
#include <vector>

namespace keel::spatial {
namespace {

u32 log2_floor_plus_one(usize n) { return static_cast<u32>(std::bit_width(n)); }

TEST(Search, C2_01_BinarySearchMatchesStdOnRandomSortedArrays) {
  std::mt19937 rng(11);
  for (int round = 0; round < 200; ++round) {
    std::vector<u32> items(rng() % 300);
    for (u32& v : items) v = rng() % 500;
    std::ranges::sort(items);
    const std::span<const u32> span(items);
    for (u32 key = 0; key < 500; key += 7) {
      const SearchResult r = binary_search(span, key);
      EXPECT_EQ(r.found(), std::binary_search(items.begin(), items.end(), key));
      if (r.found()) {
        EXPECT_EQ(items[*r.index], key);
        const auto range = std::equal_range(items.begin(), items.end(), key);
        EXPECT_GE(*r.index, static_cast<usize>(range.first - items.begin()));
        EXPECT_LT(*r.index, static_cast<usize>(range.second - items.begin()));
      }
      EXPECT_LE(r.probes, log2_floor_plus_one(items.size()));
    }
  }
}

TEST(Search, C2_01_WorstCaseProbesForTheBooksSizes) {
  std::vector<u32> phone_book(180'000);
  std::iota(phone_book.begin(), phone_book.end(), 0u);
  u32 worst = 0;
  for (u32 key = 0; key < 180'000; ++key) {
    const SearchResult r = binary_search(std::span<const u32>(phone_book), key);
    ASSERT_EQ(r.index, key);
    worst = std::max(worst, r.probes);
  }
  EXPECT_EQ(worst, 18u);  // the book: 18 operations even for the last entry
  std::vector<u32> eight(8);
  std::iota(eight.begin(), eight.end(), 0u);
  worst = 0;
  for (u32 key = 0; key <= 8; ++key) {  // 8 is missing: not-found costs count too
    worst = std::max(worst, binary_search(std::span<const u32>(eight), key).probes);
  }
  EXPECT_EQ(worst, 4u);  // floor(log2 8) + 1; the book's "3" counts halvings
}

TEST(Search, C2_02_LinearSearchAveragesHalfTheList) {
  std::vector<u32> items(180'000);
  std::iota(items.begin(), items.end(), 0u);
  std::mt19937 rng(5);
  u64 total = 0;
  constexpr u32 kKeys = 200;  // uniform keys, one in each of 200 equal strata
  constexpr u32 kStratum = 180'000 / kKeys;
  for (u32 i = 0; i < kKeys; ++i) {
    const u32 key = i * kStratum + rng() % kStratum;
    total += linear_search(std::span<const u32>(items), key).probes;
  }
  const f64 mean = static_cast<f64>(total) / kKeys;
  EXPECT_NEAR(mean, 90'000.0, 1'000.0);
  EXPECT_EQ(linear_search(std::span<const u32>(items), 179'999u).probes, 180'000u);
  EXPECT_EQ(linear_search(std::span<const u32>(items), 200'000u).probes, 180'000u);
  EXPECT_FALSE(linear_search(std::span<const u32>(items), 200'000u).found());
}

using CharTree = BinaryTree<char>;

std::string names(const CharTree& tree, const std::vector<NodeId>& ids) {
  std::string s;
  for (const NodeId id : ids) s += tree.node(id).element;
  return s;
}
char at(const CharTree& tree, NodeId id) { return id == kNoNode ? '-' : tree.node(id).element; }

TEST(BinaryTree, C2_04_BalancedFromSortedAToG) {
  const std::string letters = "ABCDEFG";
  const CharTree tree = CharTree::build_balanced(std::span<const char>(letters));
  const auto& d = tree.node(tree.root());
  EXPECT_EQ(d.element, 'D');
  EXPECT_EQ(at(tree, d.left), 'B');
  EXPECT_EQ(at(tree, d.right), 'F');
  EXPECT_EQ(at(tree, tree.node(d.left).left), 'A');
  EXPECT_EQ(at(tree, tree.node(d.left).right), 'C');
  EXPECT_EQ(at(tree, tree.node(d.right).left), 'E');
  EXPECT_EQ(at(tree, tree.node(d.right).right), 'G');
  std::vector<NodeId> path;
  ASSERT_TRUE(tree.find('G', &path).has_value());
  EXPECT_EQ(names(tree, path), "DFG");
  EXPECT_FALSE(tree.find('H', &path).has_value());
  EXPECT_EQ(tree.depth(), 3u);
}

TEST(BinaryTree, C2_05_NaiveSortedInsertionIsAList) {
  BinaryTree<u32> tree;
  for (u32 k = 1; k <= 1000; ++k) tree.insert(k);
  EXPECT_EQ(tree.depth(), 1000u);
  std::vector<NodeId> path;
  tree.find(1000u, &path);
  EXPECT_EQ(path.size(), 1000u);
}

TEST(BinaryTree, C2_06_RotationsKeepOrderAndChangeOnlyThreeNodes) {
  // Parent X above D so that "D's parent" is a node, not the root pointer.
  const std::string letters = "ABCDEFGX";
  CharTree tree;
  for (const char c : std::string("XDBFACEG")) tree.insert(c);
  const NodeId x = tree.root();
  const NodeId d = *tree.find('D');
  const NodeId b = *tree.find('B');
  const NodeId c = *tree.find('C');
  const auto before = tree.in_order();
  std::vector<CharTree::Node> old;
  for (NodeId i = 0; i < tree.size(); ++i) old.push_back(tree.node(i));

  ASSERT_TRUE(tree.rotate_clockwise(d));
  EXPECT_EQ(tree.node(x).left, b);  // B in D's old place
  EXPECT_EQ(tree.node(b).right, d);
  EXPECT_EQ(tree.node(d).left, c);
  EXPECT_EQ(tree.in_order(), before);
  EXPECT_EQ(names(tree, tree.in_order()), "ABCDEFGX");
  for (NodeId i = 0; i < tree.size(); ++i) {
    if (i == b || i == d || i == x) continue;
    EXPECT_EQ(tree.node(i).left, old[i].left) << tree.node(i).element;
    EXPECT_EQ(tree.node(i).right, old[i].right) << tree.node(i).element;
  }

  ASSERT_TRUE(tree.rotate_counterclockwise(b));  // undoes it
  for (NodeId i = 0; i < tree.size(); ++i) {
    EXPECT_EQ(tree.node(i).left, old[i].left) << tree.node(i).element;
    EXPECT_EQ(tree.node(i).right, old[i].right) << tree.node(i).element;
  }
  // At the root: the root pointer is the parent link.
  ASSERT_TRUE(tree.rotate_clockwise(x));
  EXPECT_EQ(tree.root(), d);
  EXPECT_EQ(names(tree, tree.in_order()), "ABCDEFGX");
  EXPECT_FALSE(tree.rotate_counterclockwise(x));  // X has no right child now
}

TEST(BinaryTree, RotationsWithEqualElementsFindTheParent) {
  BinaryTree<u32> tree;
  for (const u32 k : {5u, 5u, 5u, 7u}) tree.insert(k);
  ASSERT_TRUE(tree.rotate_counterclockwise(tree.root()));
  ASSERT_TRUE(tree.rotate_counterclockwise(tree.root()));
  const NodeId first = 0;                             // now below an equal element on its left
  EXPECT_FALSE(tree.rotate_counterclockwise(first));  // no right child
  EXPECT_EQ(tree.in_order().size(), 4u);
  ASSERT_TRUE(tree.rotate_clockwise(tree.node(tree.root()).left));
  EXPECT_EQ(tree.in_order().size(), 4u);
}

TEST(RbTree, ReExportedInSpatial) {
  struct Item : RbNode {
    explicit Item(int k) : key(k) {}
    int key;
  };
  struct ByKey {
    bool operator()(const Item& a, const Item& b) const { return a.key < b.key; }
  };
  RbPool<Item> pool(3);
  RbTree<Item, ByKey> tree;
  for (const int k : {3, 1, 2}) tree.emplace(pool, k);
  std::vector<int> keys;
  for (const Item& i : tree) keys.push_back(i.key);
  EXPECT_EQ(keys, (std::vector<int>{1, 2, 3}));
}

TEST(EntryPoints, SearchOnEmptyInputs) {
  const std::vector<int> none;
  EXPECT_FALSE(binary_search(std::span<const int>(none), 1).found());
  EXPECT_EQ(binary_search(std::span<const int>(none), 1).probes, 0u);
  EXPECT_FALSE(linear_search(std::span<const int>(none), 1).found());
  const CharTree empty = CharTree::build_balanced({});
  EXPECT_EQ(empty.root(), kNoNode);
  EXPECT_EQ(empty.depth(), 0u);
  EXPECT_FALSE(empty.find('A').has_value());
  EXPECT_TRUE(empty.in_order().empty());
}

TEST(EntryPoints, BinaryTreeRotateBadIds) {
  CharTree tree;
  tree.insert('A');
  EXPECT_FALSE(tree.rotate_clockwise(0));  // leaf: nothing to rotate
  if (KEEL_ASSERTS_ENABLED) {
    keel::testing::AssertRecorder asserts;
    EXPECT_FALSE(tree.rotate_clockwise(42));
    asserts.expect_asserted("not a node of this tree");
  } else {
    EXPECT_FALSE(tree.rotate_clockwise(42));
  }
}

}  // namespace
}  // namespace keel::spatial
