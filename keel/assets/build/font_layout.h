// The book's font layout (Golden Rules ch. 6, makefont's MapFont): ABC widths become reserved
// cells with pre- and post-advance, cells are packed into the texture in rows, and the size
// search finds the largest size whose characters fit. No FreeType here: the rasteriser supplies
// the ABC widths (font_builder.h).
#pragma once

#include "keel/core/types.h"

#include <functional>
#include <optional>
#include <span>
#include <vector>

namespace keel::assets {

// GDI's ABC widths in pixels: A = move before drawing, B = glyph (ink) width, C = move after.
struct AbcWidths {
  s32 a = 0;
  s32 b = 0;
  s32 c = 0;
};

// Where a character sits inside its reserved cell and how it moves the cursor.
struct GlyphCell {
  s32 width = 0;        // reserved width B + max(A,0) + max(C,0) + 2 * border
  s32 pen_offset = 0;   // the book's "step right by |A|" when A < 0 (0 otherwise)
  s32 ink_offset = 0;   // where the ink starts in the cell: max(A,0) + border
  s32 preadvance = 0;   // min(A,0) - border
  s32 postadvance = 0;  // min(C,0) - border
};

GlyphCell glyph_cell(AbcWidths abc, s32 border = 0);

// The book's size search: start at `first` (16), double while `fits`, then binary search the
// open interval between the last size that fitted and the first that did not. Returns the
// largest size that fits, 0 when none does. Sizes above `max_size` count as not fitting.
s32 search_font_size(const std::function<bool(s32)>& fits, s32 first = 16, s32 max_size = 4096);

struct CellPosition {
  s32 x = 0;
  s32 y = 0;
};

// Packs cells of the given widths, all `row_height` tall, into rows of a width x height texture:
// widest first, each into the first row with room (first-fit decreasing on shelves). Positions
// are returned in the input order; nullopt when they do not all fit.
std::optional<std::vector<CellPosition>> pack_cells(std::span<const s32> widths, s32 row_height,
                                                    s32 width, s32 height);

struct AtlasSize {
  s32 width = 0;
  s32 height = 0;
};

// The smallest texture (by area; then the squarer one) that holds the cells: widths are powers
// of two from 64 to max_side, heights multiples of 4 and at most twice the width. Nullopt when
// nothing up to max_side fits.
std::optional<AtlasSize> smallest_atlas(std::span<const s32> widths, s32 row_height,
                                        s32 max_side = 4096);

}  // namespace keel::assets
