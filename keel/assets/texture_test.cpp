#include "keel/assets/texture.h"

#include "keel/pack/format.h"

#include <gtest/gtest.h>

#include <array>
#include <vector>

namespace keel::assets {
namespace {

// A chunk written by hand, so the runtime view is tested without the build library.
ByteBuffer make_chunk(TextureFormat format, u32 w, u32 h, u32 levels) {
  std::array<u8, kTextureHeaderSize> header{};
  u8* p = header.data();
  pack::store_u32(p, kTextureMagic);
  p[4] = kTextureVersion;
  p[6] = kTextureHeaderSize;
  pack::store_u32(p + 8, string_hash("brick"));
  pack::store_u32(p + 12, w);
  pack::store_u32(p + 16, h);
  p[20] = static_cast<u8>(format);
  p[21] = static_cast<u8>(levels);
  p[22] = static_cast<u8>(TextureFilter::kTrilinear);
  p[23] = static_cast<u8>(TextureWrap::kClamp);
  pack::store_u32(p + 28, static_cast<u32>(chain_bytes(format, w, h, levels)));
  ByteBuffer out = to_buffer(as_bytes(std::span<const u8>(header)));
  out.resize(kTextureHeaderSize + chain_bytes(format, w, h, levels));
  return out;
}

TEST(TextureFormat, LevelSizesAndBytes) {
  EXPECT_EQ(max_levels(256, 256), 9u);
  EXPECT_EQ(max_levels(128, 128), 8u);
  EXPECT_EQ(max_levels(256, 64), 9u);
  EXPECT_EQ(max_levels(1, 1), 1u);
  EXPECT_EQ(max_levels(0, 5), 0u);
  EXPECT_EQ(level_extent(64, 7), 1u);
  EXPECT_EQ(level_bytes(TextureFormat::kBC1, 1, 1), 8u);
  EXPECT_EQ(level_bytes(TextureFormat::kBC3, 5, 8), 2u * 2 * 16);
  EXPECT_EQ(level_bytes(TextureFormat::kR5G6B5, 3, 3), 18u);
  EXPECT_EQ(chain_bytes(TextureFormat::kA8R8G8B8, 256, 256, 9), 349524u);
  EXPECT_EQ(format_name(TextureFormat::kA4R4G4B4), "A4R4G4B4");
  EXPECT_EQ(format_name(static_cast<TextureFormat>(0)), "?");
}

TEST(TextureView, ReadsHeaderAndLevelsLargestFirst) {
  const ByteBuffer chunk = make_chunk(TextureFormat::kA8R8G8B8, 256, 64, 9);
  auto t = Texture::view(chunk);
  ASSERT_TRUE(t.has_value()) << t.error().to_string();
  EXPECT_EQ(t->name_hash(), string_hash("brick"));
  EXPECT_EQ(t->width(), 256u);
  EXPECT_EQ(t->height(), 64u);
  EXPECT_EQ(t->level_count(), 9u);
  EXPECT_EQ(t->filter(), TextureFilter::kTrilinear);
  EXPECT_EQ(t->wrap(), TextureWrap::kClamp);
  EXPECT_EQ(t->level(0).data.size(), 256u * 64 * 4);
  EXPECT_EQ(t->level(0).data.data(), chunk.data() + kTextureHeaderSize);
  EXPECT_EQ(t->level(6).width, 4u);
  EXPECT_EQ(t->level(6).height, 1u);
  EXPECT_EQ(t->level(8).width, 1u);
  EXPECT_EQ(t->level(8).data.data() + 4, chunk.data() + chunk.size());
}

TEST(TextureView, RejectsDamagedChunksWithOffsets) {
  const ByteBuffer good = make_chunk(TextureFormat::kBC1, 16, 16, 5);
  ASSERT_TRUE(Texture::view(good).has_value());
  const auto broken = [&](usize offset, u8 value) {
    ByteBuffer b = good;
    b[offset] = static_cast<std::byte>(value);
    return Texture::view(b, "t.kpk");
  };
  auto magic = broken(0, 'X');
  ASSERT_FALSE(magic.has_value());
  EXPECT_EQ(magic.error().code(), ErrorCode::kCorrupt);
  EXPECT_EQ(broken(20, 0).error().where().offset, 20u);             // format 0
  EXPECT_EQ(broken(20, 99).error().where().offset, 20u);            // unknown format
  EXPECT_EQ(broken(21, 6).error().code(), ErrorCode::kOutOfRange);  // 6 levels for 16x16
  EXPECT_EQ(broken(21, 0).error().code(), ErrorCode::kOutOfRange);
  EXPECT_EQ(broken(22, 3).error().where().offset, 22u);
  EXPECT_EQ(broken(23, 3).error().where().offset, 23u);
  EXPECT_EQ(broken(24, 2).error().code(), ErrorCode::kUnsupported);
  EXPECT_EQ(broken(12, 0).error().where().offset, 12u);  // width 0
  ByteBuffer shorter(good.begin(), good.end() - 1);
  EXPECT_EQ(Texture::view(shorter).error().code(), ErrorCode::kUnderflow);
  ByteBuffer longer = good;
  longer.push_back(std::byte{0});
  EXPECT_EQ(Texture::view(longer).error().code(), ErrorCode::kTrailingData);
  EXPECT_EQ(Texture::view(ByteSpan{}).error().code(), ErrorCode::kUnderflow);
}

}  // namespace
}  // namespace keel::assets
