#include "keel/assets/atlas.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <limits>
#include <vector>

namespace keel::assets {
namespace {

AtlasData sample_atlas() {
  AtlasData a;
  a.texture_name_hash = 0xABCD;
  a.width = 64;
  a.height = 32;
  a.frames = {{"ships/player", 0, 0, 32, 32, 0.5f, 0.5f},
              {"star", 32, 0, 8, 8, 0.5f, 0.5f},
              {"shots/bullet", 40, 0, 16, 8, 0.25f, 0.75f}};
  return a;
}

ByteBuffer sample_bytes() {
  Result<ByteBuffer> bytes = encode_atlas(sample_atlas());
  EXPECT_TRUE(bytes) << bytes.error().to_string();
  return bytes ? *bytes : ByteBuffer{};
}

TEST(AtlasView, RoundTripsEveryFrame) {
  const ByteBuffer bytes = sample_bytes();
  Result<AtlasView> view = AtlasView::parse(bytes);
  ASSERT_TRUE(view) << view.error().to_string();
  EXPECT_EQ(view->texture_name_hash(), 0xABCDu);
  EXPECT_EQ(view->width(), 64);
  EXPECT_EQ(view->height(), 32);
  ASSERT_EQ(view->frame_count(), 3u);
  for (const AtlasData::Frame& f : sample_atlas().frames) {
    const std::optional<AtlasFrame> got = view->find(f.name);
    ASSERT_TRUE(got) << f.name;
    EXPECT_EQ(got->name, f.name);
    EXPECT_EQ(got->name_hash, string_hash(f.name));
    EXPECT_EQ(got->x, f.x);
    EXPECT_EQ(got->y, f.y);
    EXPECT_EQ(got->width, f.width);
    EXPECT_EQ(got->height, f.height);
    EXPECT_EQ(got->pivot_x, f.pivot_x);
    EXPECT_EQ(got->pivot_y, f.pivot_y);
    EXPECT_EQ(view->find_hash(string_hash(f.name)), got);
  }
  EXPECT_FALSE(view->find("ships/enemy"));
  EXPECT_FALSE(view->find(""));
}

TEST(AtlasView, IteratesInAscendingHashOrder) {
  const ByteBuffer bytes = sample_bytes();
  Result<AtlasView> view = AtlasView::parse(bytes);
  ASSERT_TRUE(view);
  std::vector<std::string_view> names;
  Hash previous = 0;
  for (const AtlasFrame& f : *view) {
    if (!names.empty()) {
      EXPECT_LT(previous, f.name_hash);
    }
    previous = f.name_hash;
    names.push_back(f.name);
  }
  ASSERT_EQ(names.size(), 3u);
  EXPECT_NE(std::find(names.begin(), names.end(), "star"), names.end());
}

TEST(AtlasView, UvIsTheFrameInsetByHalfATexel) {
  const ByteBuffer bytes = sample_bytes();
  Result<AtlasView> view = AtlasView::parse(bytes);
  ASSERT_TRUE(view);
  const AtlasUv uv = view->uv(*view->find("star"));
  EXPECT_FLOAT_EQ(uv.u0, 32.5f / 64);
  EXPECT_FLOAT_EQ(uv.v0, 0.5f / 32);
  EXPECT_FLOAT_EQ(uv.u1, 39.5f / 64);
  EXPECT_FLOAT_EQ(uv.v1, 7.5f / 32);
  const AtlasUv exact = view->uv(*view->find("star"), 0);
  EXPECT_FLOAT_EQ(exact.u0, 0.5f);
  EXPECT_FLOAT_EQ(exact.u1, 40.0f / 64);
}

TEST(AtlasView, EncoderRefusesFramesOutsideTheTexture) {
  AtlasData a = sample_atlas();
  a.frames.push_back({"wide", 60, 0, 8, 8, 0.5f, 0.5f});
  Result<ByteBuffer> bytes = encode_atlas(a);
  ASSERT_FALSE(bytes);
  EXPECT_NE(bytes.error().to_string().find("wide"), std::string::npos);
  a.frames.back() = {"star", 0, 0, 1, 1, 0.5f, 0.5f};  // the same name twice
  EXPECT_FALSE(encode_atlas(a));
}

// Every prefix of a good chunk is refused (never read past its end).
TEST(AtlasView, RefusesEveryTruncation) {
  const ByteBuffer bytes = sample_bytes();
  for (usize n = 0; n + 3 < bytes.size(); ++n) {
    EXPECT_FALSE(AtlasView::parse(ByteSpan(bytes).first(n))) << n;
  }
}

void set32(ByteBuffer& b, usize at, u32 v) {
  for (int i = 0; i < 4; ++i) b[at + i] = static_cast<std::byte>(v >> (8 * i));
}
void set16(ByteBuffer& b, usize at, u32 v) {
  for (int i = 0; i < 2; ++i) b[at + i] = static_cast<std::byte>(v >> (8 * i));
}

std::string parse_error(const ByteBuffer& b) {
  Result<AtlasView> view = AtlasView::parse(b, "test.kpk");
  return view ? std::string("accepted") : view.error().to_string();
}

TEST(AtlasView, LocatesDamagedFields) {
  const ByteBuffer good = sample_bytes();
  ByteBuffer b = good;
  set32(b, 0, 0);
  EXPECT_NE(parse_error(b).find("magic"), std::string::npos);
  b = good;
  set32(b, 4, 9);
  EXPECT_NE(parse_error(b).find("version 9"), std::string::npos);
  b = good;
  set32(b, 16, 0x7FFFFFFF);  // frame count
  EXPECT_NE(parse_error(b).find("frame count"), std::string::npos);
  b = good;
  set16(b, kAtlasHeaderBytes + 4, 60);  // first frame's x: now past the right edge
  EXPECT_NE(parse_error(b).find("outside the texture"), std::string::npos);
  b = good;
  set16(b, kAtlasHeaderBytes + 8, 0);  // zero width
  EXPECT_NE(parse_error(b).find("empty"), std::string::npos);
  b = good;
  set32(b, kAtlasHeaderBytes + 24, 1000);  // name length
  EXPECT_NE(parse_error(b).find("past the strings"), std::string::npos);
  b = good;
  set32(b, kAtlasHeaderBytes, 0);  // a name hash that does not match
  EXPECT_NE(parse_error(b).find("hash does not match"), std::string::npos);
  b = good;
  // The first two records swapped: out of order.
  std::swap_ranges(b.begin() + kAtlasHeaderBytes, b.begin() + kAtlasHeaderBytes + kAtlasFrameBytes,
                   b.begin() + kAtlasHeaderBytes + kAtlasFrameBytes);
  EXPECT_NE(parse_error(b).find("ascending"), std::string::npos);
  b = good;
  set32(b, kAtlasHeaderBytes + 12, std::bit_cast<u32>(std::numeric_limits<f32>::infinity()));
  EXPECT_NE(parse_error(b).find("pivot"), std::string::npos);
  b = good;
  b[b.size() - 4] = std::byte{'X'};  // inside the last name: its hash no longer matches
  const std::string e = parse_error(b);
  EXPECT_TRUE(e.find("hash does not match") != std::string::npos ||
              e.find("ascending") != std::string::npos)
      << e;
  EXPECT_NE(parse_error(good), "");
  EXPECT_EQ(parse_error(good), "accepted");
}

TEST(AtlasView, ErrorsNameTheLabelAndOffset) {
  ByteBuffer b = sample_bytes();
  set16(b, kAtlasHeaderBytes + kAtlasFrameBytes + 4, 63);  // second frame's x
  const std::string e = parse_error(b);
  EXPECT_NE(e.find("test.kpk"), std::string::npos) << e;
  EXPECT_NE(e.find(std::to_string(kAtlasHeaderBytes + kAtlasFrameBytes + 4)), std::string::npos)
      << e;
}

TEST(AtlasView, TextureNameIsTheAtlasNamePlusTexture) {
  EXPECT_EQ(atlas_texture_name("sprites"), "sprites_texture");
}

}  // namespace
}  // namespace keel::assets
