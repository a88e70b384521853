// Checks 13-16 (Golden Rules ch. 6 makefont) on the layout alone, with made-up ABC widths.
#include "keel/assets/build/font_layout.h"

#include <gtest/gtest.h>

#include <vector>

namespace keel::assets {
namespace {

TEST(FontCheck, C13_ReservedCellWidth) {
  EXPECT_EQ(glyph_cell({2, 17, 2}).width, 21);
  EXPECT_EQ(glyph_cell({2, 26, -5}).width, 28);
  const GlyphCell c = glyph_cell({-3, 10, 1});
  EXPECT_EQ(c.width, 11);
  EXPECT_EQ(c.pen_offset, 3);  // the book steps right by |A| before drawing...
  EXPECT_EQ(c.ink_offset, 0);  // ...so the ink starts at the cell's left edge
  EXPECT_EQ(glyph_cell({2, 17, 2}).ink_offset, 2);
  EXPECT_EQ(glyph_cell({2, 17, 2}).pen_offset, 0);
}

TEST(FontCheck, C14_AdvanceIsPreserved) {
  for (const AbcWidths abc : {AbcWidths{2, 17, 2}, AbcWidths{2, 26, -5}, AbcWidths{-3, 10, 1},
                              AbcWidths{-4, 9, -2}, AbcWidths{0, 0, 7}}) {
    for (s32 border : {0, 1, 3}) {
      const GlyphCell c = glyph_cell(abc, border);
      EXPECT_EQ(c.preadvance + c.width + c.postadvance, abc.a + abc.b + abc.c)
          << abc.a << "," << abc.b << "," << abc.c << " border " << border;
    }
  }
  const GlyphCell regular = glyph_cell({2, 17, 2});
  EXPECT_EQ(regular.preadvance, 0);
  EXPECT_EQ(regular.postadvance, 0);
  EXPECT_EQ(regular.preadvance + regular.width + regular.postadvance, 21);
  const GlyphCell italic = glyph_cell({2, 26, -5});
  EXPECT_EQ(italic.preadvance, 0);
  EXPECT_EQ(italic.postadvance, -5);
  EXPECT_EQ(italic.preadvance + italic.width + italic.postadvance, 23);
  const GlyphCell bordered = glyph_cell({2, 26, -5}, 2);  // W' = W + 2b, pre' = pre - b, ...
  EXPECT_EQ(bordered.width, 32);
  EXPECT_EQ(bordered.preadvance, -2);
  EXPECT_EQ(bordered.postadvance, -7);
}

std::vector<s32> calls_of(s32 limit, s32& result) {
  std::vector<s32> calls;
  result = search_font_size([&](s32 s) {
    calls.push_back(s);
    return s <= limit;
  });
  return calls;
}

TEST(FontCheck, C15_SizeSearch) {
  s32 result = 0;
  EXPECT_EQ(calls_of(37, result), (std::vector<s32>{16, 32, 64, 48, 40, 36, 38, 37}));
  EXPECT_EQ(result, 37);
  EXPECT_EQ(calls_of(10, result), (std::vector<s32>{16, 8, 12, 10, 11}));
  EXPECT_EQ(result, 10);
  std::vector<s32> calls;
  EXPECT_EQ(search_font_size([&](s32 s) {
              calls.push_back(s);
              return false;
            }),
            0);
  EXPECT_EQ(calls, (std::vector<s32>{16, 8, 4, 2, 1}));
  // Everything fits: the search stops at the largest allowed size.
  EXPECT_EQ(search_font_size([](s32) { return true; }, 16, 100), 100);
}

bool overlap(CellPosition a, s32 aw, CellPosition b, s32 bw, s32 h) {
  return a.x < b.x + bw && b.x < a.x + aw && a.y < b.y + h && b.y < a.y + h;
}

TEST(FontCheck, C16_PackedCellsDoNotOverlapAndStayInside) {
  std::vector<s32> widths;
  for (s32 i = 0; i < 95; ++i) widths.push_back(3 + (i * 7) % 19);
  const s32 row = 14;
  const auto placed = pack_cells(widths, row, 256, 128);
  ASSERT_TRUE(placed);
  for (usize i = 0; i < widths.size(); ++i) {
    const CellPosition p = (*placed)[i];
    EXPECT_GE(p.x, 0);
    EXPECT_GE(p.y, 0);
    EXPECT_LE(p.x + widths[i], 256);
    EXPECT_LE(p.y + row, 128);
    for (usize j = 0; j < i; ++j) {
      EXPECT_FALSE(overlap(p, widths[i], (*placed)[j], widths[j], row)) << i << " and " << j;
    }
  }
  EXPECT_FALSE(pack_cells(widths, row, 64, 64));                   // too small
  EXPECT_FALSE(pack_cells(std::vector<s32>{300}, row, 256, 256));  // wider than the texture
}

TEST(FontLayout, SmallestAtlasPacksTightly) {
  const std::vector<s32> widths(100, 20);  // 2000 px of cells, 10 px high
  const auto atlas = smallest_atlas(widths, 10);
  ASSERT_TRUE(atlas);
  // 512 wide: 25 per row, 4 rows = 40 high; 1024x20 has the same area but is less square.
  EXPECT_EQ(atlas->width, 512);
  EXPECT_EQ(atlas->height, 40);
}

TEST(EntryPoints, FontLayoutZeroSizes) {
  EXPECT_FALSE(pack_cells(std::vector<s32>{1}, 0, 16, 16));
  EXPECT_FALSE(pack_cells(std::vector<s32>{1}, 4, 0, 16));
  EXPECT_TRUE(pack_cells(std::vector<s32>{}, 4, 16, 16));
  EXPECT_FALSE(smallest_atlas(std::vector<s32>{1}, 0));
  EXPECT_FALSE(smallest_atlas(std::vector<s32>{8192}, 4));
  EXPECT_EQ(search_font_size([](s32) { return true; }, 0, 0), 0);
}

}  // namespace
}  // namespace keel::assets
