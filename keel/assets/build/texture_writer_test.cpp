#include "keel/assets/build/texture_writer.h"

#include <gtest/gtest.h>

#include <vector>

namespace keel::assets {
namespace {

TEST(TextureWriter, EightBitAtlasAsA8AndL8) {
  std::vector<u8> atlas(8 * 4);
  for (usize i = 0; i < atlas.size(); ++i) atlas[i] = static_cast<u8>(i * 8);
  const PixelsU8 level{.width = 8, .height = 4, .channels = 1, .data = atlas};
  for (TextureFormat format : {TextureFormat::kA8, TextureFormat::kL8}) {
    auto chunk = write_texture({.name = "font", .format = format}, std::span(&level, 1));
    ASSERT_TRUE(chunk.has_value()) << chunk.error().to_string();
    auto t = Texture::view(*chunk);
    ASSERT_TRUE(t.has_value()) << t.error().to_string();
    EXPECT_EQ(t->format(), format);
    EXPECT_EQ(t->level_count(), 1u);
    EXPECT_EQ(t->name_hash(), string_hash("font"));
    const std::span<const u8> bytes = as_u8(t->level(0).data);
    EXPECT_EQ(std::vector<u8>(bytes.begin(), bytes.end()), atlas);
  }
}

TEST(TextureWriter, PackedFormatsRoundTrip) {
  Image image(2, 1);
  image.at(0, 0) = {1.0f, 0.0f, 0.0f, 1.0f};
  image.at(1, 0) = {0.0f, 1.0f, 1.0f, 0.0f};
  const auto u16_at = [](const ByteBuffer& b, usize i) {
    return static_cast<u32>(b[i * 2]) | static_cast<u32>(b[i * 2 + 1]) << 8;
  };
  const ByteBuffer argb = encode_level(image, TextureFormat::kA8R8G8B8, BlockQuality::kFast);
  EXPECT_EQ(argb, (ByteBuffer{std::byte{0}, std::byte{0}, std::byte{255}, std::byte{255},
                              std::byte{255}, std::byte{255}, std::byte{0}, std::byte{0}}));
  const ByteBuffer xrgb = encode_level(image, TextureFormat::kX8R8G8B8, BlockQuality::kFast);
  EXPECT_EQ(xrgb[7], std::byte{255});
  const ByteBuffer r565 = encode_level(image, TextureFormat::kR5G6B5, BlockQuality::kFast);
  EXPECT_EQ(u16_at(r565, 0), 0xF800u);
  EXPECT_EQ(u16_at(r565, 1), 0x07FFu);
  const ByteBuffer a1 = encode_level(image, TextureFormat::kA1R5G5B5, BlockQuality::kFast);
  EXPECT_EQ(u16_at(a1, 0), 0xFC00u);
  EXPECT_EQ(u16_at(a1, 1), 0x03FFu);
  const ByteBuffer a4 = encode_level(image, TextureFormat::kA4R4G4B4, BlockQuality::kFast);
  EXPECT_EQ(u16_at(a4, 0), 0xFF00u);
  EXPECT_EQ(u16_at(a4, 1), 0x00FFu);
}

TEST(EntryPoints, TextureWriterRejectsBadLevels) {
  const std::vector<u8> px(16 * 4, 0);
  const PixelsU8 l0{.width = 4, .height = 4, .channels = 4, .data = px};
  const PixelsU8 wrong{.width = 4, .height = 4, .channels = 4, .data = px};
  const PixelsU8 two[] = {l0, wrong};
  EXPECT_FALSE(write_texture({.name = "t"}, std::span<const PixelsU8>{}).has_value());
  EXPECT_FALSE(write_texture({.name = "t"}, std::span(two)).has_value());
  const PixelsU8 short_data{.width = 8, .height = 8, .channels = 4, .data = px};
  EXPECT_FALSE(write_texture({.name = "t"}, std::span(&short_data, 1)).has_value());
  const PixelsU8 zero{.width = 0, .height = 0, .channels = 4, .data = {}};
  EXPECT_FALSE(write_texture({.name = "t"}, std::span(&zero, 1)).has_value());
  EXPECT_FALSE(
      write_texture({.name = "t", .format = static_cast<TextureFormat>(77)}, std::span(&l0, 1))
          .has_value());
}

TEST(TextureWriter, BlockFormatsDecodeCloseToTheSource) {
  Image image(8, 8);
  for (u32 y = 0; y < 8; ++y) {
    for (u32 x = 0; x < 8; ++x)
      image.at(x, y) = {(x + y) / 14.0f, 1.0f - (x + y) / 14.0f, 0.5f, 1.0f};
  }
  for (TextureFormat f : {TextureFormat::kBC1, TextureFormat::kBC2, TextureFormat::kBC3,
                          TextureFormat::kBC4, TextureFormat::kBC5}) {
    for (BlockQuality q : {BlockQuality::kFast, BlockQuality::kBest}) {
      const ByteBuffer bytes = encode_level(image, f, q);
      ASSERT_EQ(bytes.size(), level_bytes(f, 8, 8));
      const std::vector<u8> back = decode_level_rgba8(f, {8, 8, 0, bytes});
      ASSERT_EQ(back.size(), 8u * 8 * 4);
      const std::vector<u8> src = image.to_rgba8();
      for (usize i = 0; i < back.size(); i += 4) {
        EXPECT_NEAR(back[i], src[i], 24) << format_name(f) << " q" << int(q) << " pixel " << i / 4;
        if (f != TextureFormat::kBC4) {
          EXPECT_NEAR(back[i + 1], src[i + 1], 24)
              << format_name(f) << " q" << int(q) << " pixel " << i / 4;
        }
      }
    }
  }
}

}  // namespace
}  // namespace keel::assets
