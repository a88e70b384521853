#include "keel/assets/font.h"

#include "keel/core/testing/alloc_counter.h"

#include <gtest/gtest.h>

namespace keel::assets {
namespace {

// Three glyphs: 'A' (kerned against 'V'), 'V', '?' and a space without ink.
FontData sample_font() {
  FontData f;
  f.atlas_name_hash = 0x1234;
  f.atlas_width = 64;
  f.atlas_height = 32;
  f.pixel_size = 12;
  f.border = 1;
  f.cell_height = 16;
  f.baseline = 12;
  f.line_height = 15;
  f.glyphs = {
      {' ', 0, 0, 0, 0, 0, 4},
      {'?', 30, 0, 8, 16, -1, -1},
      {'A', 0, 0, 12, 16, -1, -2},
      {'V', 12, 16, 10, 16, -1, 0},
  };
  f.kerning = {{'A', 'V', -2}, {'V', 'A', -1}};
  return f;
}

TEST(FontView, RoundTripsEveryField) {
  const FontData f = sample_font();
  const ByteBuffer bytes = encode_font(f);
  Result<FontView> view = FontView::parse(bytes);
  ASSERT_TRUE(view) << view.error().to_string();
  EXPECT_EQ(view->atlas_name_hash(), 0x1234u);
  EXPECT_EQ(view->atlas_width(), 64);
  EXPECT_EQ(view->atlas_height(), 32);
  EXPECT_EQ(view->pixel_size(), 12);
  EXPECT_EQ(view->border(), 1);
  EXPECT_EQ(view->cell_height(), 16);
  EXPECT_EQ(view->baseline(), 12);
  EXPECT_EQ(view->line_height(), 15);
  ASSERT_EQ(view->glyph_count(), 4u);
  for (u32 i = 0; i < 4; ++i) EXPECT_EQ(view->glyph(i), f.glyphs[i]);
  ASSERT_EQ(view->kerning_count(), 2u);
  EXPECT_EQ(view->kerning_pair(0), f.kerning[0]);
  EXPECT_EQ(view->kerning('A', 'V'), -2);
  EXPECT_EQ(view->kerning('V', 'A'), -1);
  EXPECT_EQ(view->kerning('A', 'A'), 0);
  FontGlyph g;
  EXPECT_TRUE(view->find('V', g));
  EXPECT_EQ(g.x, 12);
  EXPECT_FALSE(view->find('B', g));
}

TEST(FontView, LayoutIsOneQuadPerGlyphWithKerning) {
  const ByteBuffer bytes = encode_font(sample_font());
  const FontView view = *FontView::parse(bytes);
  std::vector<FontVertex> v;
  // A: pen 10 -> quad at 9, advance 9; kerning A,V -2 -> V at 17 - 1 = 16.
  const TextRun run = view.layout("AV A", 10, 40, v);
  EXPECT_EQ(run.glyphs, 3u);  // the space has no quad
  ASSERT_EQ(v.size(), 12u);
  EXPECT_FLOAT_EQ(v[0].x, 9.0f);
  EXPECT_FLOAT_EQ(v[0].y, 28.0f);  // baseline 40 - cell baseline 12
  EXPECT_FLOAT_EQ(v[3].x, 21.0f);
  EXPECT_FLOAT_EQ(v[3].y, 44.0f);
  EXPECT_FLOAT_EQ(v[0].u, 0.0f);
  EXPECT_FLOAT_EQ(v[3].u, 12.0f / 64.0f);
  EXPECT_FLOAT_EQ(v[4].x, 16.0f);
  EXPECT_FLOAT_EQ(v[4].v, 0.5f);
  // V advances 9 -> 26, space 4 -> 30, no kerning across the space: A at 29.
  EXPECT_FLOAT_EQ(v[8].x, 29.0f);
  EXPECT_EQ(run.pen_x, 39);
  EXPECT_EQ(view.measure("AV A"), 29);
}

TEST(FontView, NewlinesAndMissingCharacters) {
  const ByteBuffer bytes = encode_font(sample_font());
  const FontView view = *FontView::parse(bytes);
  std::vector<FontVertex> v;
  const TextRun run = view.layout("A\nZ", 0, 20, v);  // Z is missing: shown as '?'
  ASSERT_EQ(run.glyphs, 2u);
  EXPECT_EQ(run.pen_y, 35);
  EXPECT_FLOAT_EQ(v[4].x, -1.0f);
  EXPECT_FLOAT_EQ(v[4].y, 23.0f);
  EXPECT_EQ(view.measure("\xff\xfe"), 12);  // malformed UTF-8 -> U+FFFD -> '?' twice
}

TEST(FontView, LayoutAllocatesNothingWithReservedBuffer) {
  const ByteBuffer bytes = encode_font(sample_font());
  const FontView view = *FontView::parse(bytes);
  std::vector<FontVertex> v;
  v.reserve(64);
  (void)quad_indices(4);
  testing::AllocationScope scope;
  view.layout("AVAVAV", 0, 0, v);
  EXPECT_EQ(scope.count(), 0u);
}

TEST(FontView, QuadIndicesAreConstantAndShared) {
  const std::span<const u16> a = quad_indices(2);
  ASSERT_EQ(a.size(), 12u);
  const std::vector<u16> expect{0, 1, 2, 2, 1, 3, 4, 5, 6, 6, 5, 7};
  EXPECT_EQ(std::vector<u16>(a.begin(), a.end()), expect);
  EXPECT_EQ(quad_indices(100).data(), a.data());
  EXPECT_EQ(quad_indices(kMaxQuads).back(), 65535);
}

TEST(FontView, RejectsDamagedChunks) {
  const ByteBuffer good = encode_font(sample_font());
  EXPECT_FALSE(FontView::parse(ByteSpan(good).first(10)));
  ByteBuffer bad = good;
  bad[0] = std::byte{'X'};
  EXPECT_EQ(FontView::parse(bad).error().code(), ErrorCode::kCorrupt);
  bad = good;
  bad[4] = std::byte{9};
  EXPECT_EQ(FontView::parse(bad).error().code(), ErrorCode::kUnsupported);
  bad = good;
  bad[28] = std::byte{200};  // glyph count
  Result<FontView> r = FontView::parse(bad);
  ASSERT_FALSE(r);
  EXPECT_TRUE(r.error().where().binary);
  EXPECT_EQ(r.error().where().offset, 28u);
  bad = good;
  bad[36 + 16 + 4] = std::byte{60};  // '?' x = 60 + 8 > 64
  EXPECT_NE(FontView::parse(bad).error().message().find("outside the atlas"), std::string::npos);
  bad = good;
  bad[36] = std::byte{'Z'};  // first code 'Z' > '?'
  EXPECT_NE(FontView::parse(bad).error().message().find("ascending"), std::string::npos);
  bad = good;
  bad[36 + 64] = std::byte{'W'};  // kerning pair 0 = (W, V) > (V, A)
  EXPECT_NE(FontView::parse(bad).error().message().find("kerning"), std::string::npos);
  bad = good;
  bad[36 + 64 + 11] = std::byte{0x7F};  // kerning amount 2^31 - ...: the pen would overflow
  r = FontView::parse(bad);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().where().offset, 36u + 64u + 8u);
  EXPECT_NE(r.error().message().find("kerning amount"), std::string::npos);
}

TEST(FontView, LongLinesDoNotOverflowThePen) {
  const ByteBuffer bytes = encode_font(sample_font());
  Result<FontView> view = FontView::parse(bytes);
  ASSERT_TRUE(view);
  const std::string line(1 << 20, 'A');  // a million glyphs of a few pixels each: well past 2^21
  EXPECT_GT(view->measure(line), 1 << 20);
}

TEST(EntryPoints, FontViewEmptyAndTruncatedInput) {
  EXPECT_FALSE(FontView::parse({}));
  FontData empty;
  const ByteBuffer bytes = encode_font(empty);
  Result<FontView> view = FontView::parse(bytes);
  ASSERT_TRUE(view);
  std::vector<FontVertex> v;
  EXPECT_EQ(view->layout("abc", 0, 0, v).glyphs, 0u);
  EXPECT_EQ(view->measure(""), 0);
  FontGlyph g;
  EXPECT_FALSE(view->find('a', g));
  EXPECT_EQ(view->kerning('a', 'b'), 0);
}

TEST(EntryPoints, FontAtlasName) { EXPECT_EQ(font_atlas_name("Sans"), "Sans_atlas"); }

}  // namespace
}  // namespace keel::assets
