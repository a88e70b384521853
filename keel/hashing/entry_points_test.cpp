// Entry points of the hashing module given bad caller input: each returns an error or asserts
// with a message naming the mistake, and none crashes in a release build (issue 17, section 4).
#include "keel/core/hash.h"
#include "keel/core/testing/assert_recorder.h"
#include "keel/hashing/collision_check.h"
#include "keel/hashing/dna.h"
#include "keel/hashing/factory.h"
#include "keel/hashing/hash_list.h"
#include "keel/hashing/hash_table.h"
#include "keel/hashing/hash_tree.h"
#include "keel/hashing/name_registry.h"
#include "keel/hashing/string_table.h"
#include "keel/hashing/text_lines.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace keel::hashing {
namespace {

using keel::testing::AssertRecorder;

struct Thing {
  virtual ~Thing() = default;
};

TEST(EntryPoints, HashContainersZeroSizesAndNullData) {
  AssertRecorder asserts;
  HashTable<int> table(0);  // asserted; release builds use one bucket
  asserts.expect_assert_count(1, "at least one bucket");
  EXPECT_EQ(table.bucket_count(), 1u);
  int v = 7;
  EXPECT_TRUE(table.add(5, &v));
  EXPECT_EQ(table.find(5), &v);
  (void)table.bucket(3);  // past the buckets: asserted, wraps in release
  asserts.expect_assert_count(2, "bucket 3 of 1");

  HashList<int> list;
  EXPECT_EQ(list.find(1), nullptr);  // empty: simply missing
  const Status null_add = list.add(1, nullptr);
  EXPECT_FALSE(null_add);
  EXPECT_EQ(list.count(), 0u);
  HashTree<int> tree;
  EXPECT_EQ(tree.find(1), nullptr);
  EXPECT_FALSE(tree.add(1, nullptr));
  EXPECT_EQ(tree.count(), 0u);
  EXPECT_FALSE(tree.remove(1));
  asserts.expect_assert_count(4, "null data");
}

TEST(EntryPoints, HashListCallOrder) {
  AssertRecorder asserts;
  HashList<int> list;
  int a = 1;
  list.defer_sort();
  ASSERT_TRUE(list.add(10, &a));
  (void)list.find(10);  // before sort(): asserted, no crash
  asserts.expect_assert_count(1, "before sort()");
  ASSERT_TRUE(list.sort());
  EXPECT_EQ(list.find(10), &a);
  EXPECT_FALSE(list.remove(99));  // missing: an error value
}

TEST(EntryPoints, DnaLayoutFieldIndexesAndRanges) {
  AssertRecorder asserts;
  Result<DnaLayout> layout = DnaLayout::make("l", {{"a", 0, 2, 4}});
  ASSERT_TRUE(layout);
  EXPECT_EQ(layout->set(0, 5, 1).error().code(), ErrorCode::kOutOfRange);
  EXPECT_EQ(layout->get(0xFF, 5), 0u);
  asserts.expect_assert_count(1, "field 5 of 1");
  EXPECT_EQ(layout->field(9).name, "");
  asserts.expect_assert_count(2, "field 9 of 1");
  EXPECT_EQ(layout->legal_count(0, 7), 4u);
  asserts.expect_assert_count(3, "field range");
  EXPECT_EQ(layout->legal_count(3, 1), 0u);
  EXPECT_FALSE(layout->encode({}));  // wrong number of values
  EXPECT_FALSE(DnaLayout::make("empty name", {{"", 0, 1, 2}}));
}

TEST(EntryPoints, NamesUnregisteredEmptyOrWithoutCreator) {
  AssertRecorder asserts;
  Factory<Thing> factory;
  EXPECT_EQ(factory.create("Nothing").error().code(), ErrorCode::kNotFound);
  EXPECT_EQ(factory.create("").error().code(), ErrorCode::kNotFound);
  EXPECT_EQ(factory.create(u32{0}), nullptr);
  EXPECT_EQ(factory.create(u32{42}), nullptr);
  EXPECT_EQ(factory.add("Empty", Factory<Thing>::Creator{}).error().code(),
            ErrorCode::kInvalidArgument);
  EXPECT_EQ(factory.type_count(), 0u);
  EXPECT_FALSE(factory.alias("x", 1));

  NameRegistry names;
  EXPECT_EQ(names.find("missing"), NameRegistry::kUndefined);
  EXPECT_EQ(names.define("zero", NameRegistry::kUndefined).error().code(),
            ErrorCode::kInvalidArgument);
  asserts.expect_assert_count(1, "id 0 means undefined");
  EXPECT_EQ(names.size(), 0u);
}

TEST(EntryPoints, StringTablesAndNameListsGivenEmptyInput) {
  Result<StringTable> empty = StringTable::parse("", "keys.txt", "", "english.txt");
  ASSERT_TRUE(empty);
  EXPECT_EQ(empty->size(), 0u);
  EXPECT_EQ(empty->find("TITLE"), "TITLE");  // no text: the key itself
  EXPECT_EQ(empty->find(""), "");
  EXPECT_FALSE(StringTable::parse("A\nB\n", "keys.txt", "only one\n", "english.txt"));
  EXPECT_FALSE(StringTable::load("/nonexistent/keys.txt", "/nonexistent/texts.txt"));
  EXPECT_FALSE(empty->set_language("extra line\n", "french.txt"));

  Result<CollisionReport> none = check_names("", "names.txt", *parse_name_hash("filename"));
  ASSERT_TRUE(none);
  EXPECT_EQ(none->collisions, 0u);
  EXPECT_FALSE(parse_name_hash(""));
  EXPECT_FALSE(check_names_file("/nonexistent/names.txt", *parse_name_hash("filename")));
  Result<std::vector<TextLine>> lines = split_lines("", "x");
  ASSERT_TRUE(lines);
  EXPECT_TRUE(lines->empty());
}

}  // namespace
}  // namespace keel::hashing
