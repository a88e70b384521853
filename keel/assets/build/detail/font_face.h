// A TrueType/OpenType face through FreeType (rasterising, ABC widths, the kern table) and
// HarfBuzz (GPOS pair kerning by shaping character pairs). Internal to keel::assets_build.
#pragma once

#include "keel/assets/build/font_layout.h"
#include "keel/core/bytes.h"
#include "keel/core/error.h"
#include "keel/core/types.h"

#include <memory>
#include <span>
#include <string>
#include <vector>

namespace keel::assets::detail {

// One rendered glyph: 8-bit coverage, rows top to bottom.
struct GlyphImage {
  AbcWidths abc;           // a = left bearing, b = bitmap width, c = advance - a - b (pixels)
  s32 top = 0;             // rows above the baseline
  s32 rows = 0;            // bitmap height
  s32 advance = 0;         // a + b + c
  std::vector<u8> pixels;  // b * rows
};

// Vertical metrics at the current size, in whole pixels.
struct LineMetrics {
  s32 ascent = 0;       // above the baseline
  s32 descent = 0;      // below the baseline (positive)
  s32 line_height = 0;  // baseline to baseline
};

class FontFace {
 public:
  // Opens the first face of a font file's bytes (the face keeps its own copy).
  static Result<FontFace> open(ByteSpan file_bytes, std::string label);

  FontFace(FontFace&&) noexcept;
  FontFace& operator=(FontFace&&) noexcept;
  ~FontFace();

  const std::string& label() const;
  std::string family() const;  // "DejaVu Sans Bold"
  bool has(u32 code) const;    // the font maps this code point to a glyph

  // Pixel size (the em square in pixels, FreeType's pixel size). 0 or too large is an error.
  Status set_size(s32 pixels, bool antialias = true);
  LineMetrics line() const;
  // Renders a code point at the current size (hinted; anti-aliased unless set_size said not).
  Result<GlyphImage> render(u32 code) const;

  // Kerning in whole pixels for every ordered pair of `codes` that has any: FreeType's kern table
  // first, overridden by HarfBuzz's GPOS pair positioning where the font has one. Sorted by pair.
  struct Pair {
    u32 first = 0;
    u32 second = 0;
    s32 amount = 0;
  };
  std::vector<Pair> kerning(std::span<const u32> codes) const;
  // Only the kern table (FT_Get_Kerning), for tests.
  s32 kern_table(u32 first, u32 second) const;

 private:
  struct State;
  explicit FontFace(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

}  // namespace keel::assets::detail
