#include "keel/core/hash.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>

namespace keel {
namespace {

using namespace keel::literals;

// C3-01: RotateLeft(x,7) == (x<<7)|(x>>25); cycle lengths 32 for 7 and 25, 16 for 2, 8 for 4,
// 4 for 8.
int cycle_length(u32 start, int bits) {
  u32 x = rotate_left(start, bits);
  int steps = 1;
  while (x != start) {
    x = rotate_left(x, bits);
    ++steps;
  }
  return steps;
}

TEST(Hash, C3_01_RotateLeftAndCycleLengths) {
  for (u32 x : {0x00000001u, 0x80000000u, 0x12345678u, 0xDEADBEEFu}) {
    EXPECT_EQ(rotate_left(x, 7), (x << 7) | (x >> 25));
  }
  EXPECT_EQ(cycle_length(1, 7), 32);
  EXPECT_EQ(cycle_length(1, 25), 32);
  EXPECT_EQ(cycle_length(1, 2), 16);
  EXPECT_EQ(cycle_length(1, 4), 8);
  EXPECT_EQ(cycle_length(1, 8), 4);
}

// C3-02: the filename hash vectors.
TEST(Hash, C3_02_FilenameHashVectors) {
  EXPECT_EQ(filename_hash(""), 0u);
  EXPECT_EQ(filename_hash("a"), 0x61u);
  EXPECT_EQ(filename_hash("A"), 0x61u);
  EXPECT_EQ(filename_hash("ab"), 0x30E2u);
  EXPECT_EQ(filename_hash("Player"), 0xCC3E7678u);
  EXPECT_EQ(filename_hash("player"), 0xCC3E7678u);
  EXPECT_EQ(filename_hash("PLAYER"), 0xCC3E7678u);
  EXPECT_EQ(filename_hash("Alien"), 0x1D9A72F4u);
  EXPECT_EQ(filename_hash("Bullet"), 0x5D9B360Bu);
  EXPECT_EQ(filename_hash("textures/wall.tga"), 0x4A9FE0A5u);
  EXPECT_EQ(filename_hash("TEXTURES\\WALL.TGA"), 0x4A9FE0A5u);
  EXPECT_EQ(filename_hash("a/b"), 0x00186E62u);
  EXPECT_EQ(filename_hash("A\\B"), 0x00186E62u);
  EXPECT_EQ(filename_hash("abcdefgh"), 0x4D7D3F06u);
}

TEST(Hash, C3_02_KnownCollision) {
  EXPECT_EQ(filename_hash("aaaab"), 0x1C3870E8u);
  EXPECT_EQ(filename_hash("qaaaa"), 0x1C3870E8u);
  EXPECT_EQ(filename_hash("QAAAA"), 0x1C3870E8u);
}

TEST(Hash, C3_02_HighBytesArePolicy) {
  const std::string e9(1, static_cast<char>(0xE9));
  EXPECT_EQ(filename_hash(e9), 0xE9u);  // Keel's default: unsigned bytes
  EXPECT_EQ(filename_hash(e9, HighBytes::kSignExtend), 0xFFFFFFE9u);  // the book on signed char
  EXPECT_EQ(string_hash(e9), 0xE9u);
}

// C3-03: MakeHash of a u32 0x01020304 stored little-endian.
TEST(Hash, C3_03_MakeHashOfU32) {
  const u32 value = 0x01020304;
  if constexpr (std::endian::native == std::endian::little) {
    EXPECT_EQ(make_hash(value), 0x0080C101u);
  } else {
    EXPECT_EQ(make_hash(value),
              hash_bytes(std::span<const u8>(reinterpret_cast<const u8*>(&value), sizeof value)));
  }
  const u8 le[] = {0x04, 0x03, 0x02, 0x01};
  EXPECT_EQ(hash_bytes(le), 0x0080C101u);
}

TEST(Hash, StringIdsAreCompileTimeAndEqualRunTimeHash) {
  constexpr StringId stance = id("stance");
  static_assert(stance == "stance"_id);
  static_assert(stance.value == string_hash("stance"));
  EXPECT_EQ(runtime_id(std::string("stance")), stance);
  EXPECT_NE(id("Stance"), stance);  // ids are case-sensitive; filename_hash is not
}

TEST(Hash, Hash64IsStableAndIncrementalMatchesOneShot) {
  const std::string text = "The quick brown fox jumps over the lazy dog";
  EXPECT_EQ(hash64(text), hash64(text));
  EXPECT_NE(hash64(text), hash64(text, 1));
  EXPECT_NE(hash64("a"), hash64("b"));
  Hasher64 h;
  h.update(text.substr(0, 10));
  h.update(text.substr(10));
  EXPECT_EQ(h.digest(), hash64(text));
}

}  // namespace
}  // namespace keel
