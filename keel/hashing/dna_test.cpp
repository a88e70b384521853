#include "keel/hashing/dna.h"

#include <gtest/gtest.h>

#include <vector>

namespace keel::hashing {
namespace {

TEST(DnaLayout, DescriptionIsChecked) {
  EXPECT_TRUE(DnaLayout::make("ok", {{"a", 0, 3, 5}, {"b", 3, 29, 1u << 29}}));
  EXPECT_EQ(DnaLayout::make("x", {{"a", 0, 3, 9}}).error().code(), ErrorCode::kOutOfRange);
  EXPECT_EQ(DnaLayout::make("x", {{"a", 30, 3, 2}}).error().code(), ErrorCode::kOutOfRange);
  EXPECT_EQ(DnaLayout::make("x", {{"a", 0, 0, 1}}).error().code(), ErrorCode::kOutOfRange);
  EXPECT_EQ(DnaLayout::make("x", {{"a", 0, 4, 2}, {"b", 3, 1, 2}}).error().code(),
            ErrorCode::kInvalidArgument);  // overlap
  EXPECT_EQ(DnaLayout::make("x", {{"a", 0, 1, 2}, {"a", 1, 1, 2}}).error().code(),
            ErrorCode::kAlreadyExists);
  EXPECT_FALSE(DnaLayout::make("x", {{"", 0, 1, 2}}));
  auto whole = DnaLayout::make("whole", {{"all", 0, 32, 0xFFFFFFFFu}});
  ASSERT_TRUE(whole);
  EXPECT_EQ(whole->used_bits(), 0xFFFFFFFFu);
  EXPECT_EQ(*whole->encode(std::vector<u32>{0xFFFFFFFEu}), 0xFFFFFFFEu);
  EXPECT_FALSE(whole->validate(0xFFFFFFFFu));
}

TEST(DnaLayout, GenesCanBeFlipped) {
  auto layout = DnaLayout::make("m", {{"type", 0, 8, 256}, {"fog", 8, 1, 2}});
  ASSERT_TRUE(layout);
  const u32 code = *layout->encode(std::vector<u32>{17, 1});
  EXPECT_EQ(code, 0x111u);
  EXPECT_EQ(*layout->set(code, *layout->find_field("fog"), 0), 0x11u);
  EXPECT_EQ(layout->get(code, 0), 17u);
  EXPECT_FALSE(layout->set(code, 1, 2));
  EXPECT_FALSE(layout->encode(std::vector<u32>{1}));                     // wrong arity
  EXPECT_EQ(layout->decode(0x200).error().code(), ErrorCode::kCorrupt);  // unused bit set
  EXPECT_FALSE(layout->find_field("missing").has_value());
}

}  // namespace
}  // namespace keel::hashing
