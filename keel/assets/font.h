// The load-ready bitmap font (Golden Rules ch. 6 makefont; Citizen's bitmap text): a font chunk
// that describes where each character sits in an 8-bit atlas texture and how far it moves the
// cursor, read in place by FontView. A string becomes one vertex buffer, four vertices per glyph,
// drawn with one shared constant index buffer (six indices per quad) in one draw call.
//
//   auto font = keel::assets::FontView::parse(chunk_bytes);        // checks every count
//   std::vector<keel::assets::FontVertex> vertices;
//   keel::assets::TextRun run = font->layout("Hello", 10, 40, vertices);  // 5 quads, kerned
//   std::span<const u16> indices = keel::assets::quad_indices(run.glyphs);  // constant buffer
//
// Chunk layout (little-endian, 4-byte aligned):
//
//   u32 magic "KFNT" | u32 version (1) | u32 atlas_name_hash (pack name hash of the atlas texture)
//   u16 atlas_width | u16 atlas_height | u16 pixel_size | u16 border
//   u16 cell_height | u16 baseline (from a cell's top) | u16 line_height | u16 reserved (0)
//   (cell_height and baseline include the border; every glyph's height is cell_height)
//   u32 glyph_count | u32 kerning_count
//   glyph_count   x { u32 code; u16 x, y, width, height; s16 preadvance, postadvance }  ascending
//   kerning_count x { u32 first; u32 second; s32 amount }                ascending (first, second)
//
// A glyph's quad starts at pen + preadvance and is `width` wide; afterwards the pen moves by
// preadvance + width + postadvance (the book's A + B + C), plus the kerning of the next pair.
#pragma once

#include "keel/core/bytes.h"
#include "keel/core/error.h"
#include "keel/core/types.h"

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace keel::pack {
class Loader;
}  // namespace keel::pack

namespace keel::assets {

inline constexpr u32 kFontMagic = 0x544E464Bu;  // "KFNT" read as a little-endian u32
inline constexpr u32 kFontVersion = 1;
inline constexpr std::string_view kFontType = "Font";

// One character's rectangle in the atlas and its cursor moves (pixels).
struct FontGlyph {
  u32 code = 0;  // Unicode code point
  u16 x = 0;
  u16 y = 0;
  u16 width = 0;
  u16 height = 0;
  s16 preadvance = 0;   // cursor move before drawing (the book's min(A, 0) - border)
  s16 postadvance = 0;  // cursor move after drawing (min(C, 0) - border)

  s32 advance() const { return preadvance + width + postadvance; }
  friend bool operator==(const FontGlyph&, const FontGlyph&) = default;
};

// Extra cursor move between two characters (negative: closer together).
struct FontKerning {
  u32 first = 0;
  u32 second = 0;
  s32 amount = 0;
  friend bool operator==(const FontKerning&, const FontKerning&) = default;
};

// Everything a font chunk holds, for the encoder and tests.
struct FontData {
  u32 atlas_name_hash = 0;
  u16 atlas_width = 0;
  u16 atlas_height = 0;
  u16 pixel_size = 0;
  u16 border = 0;
  u16 cell_height = 0;
  u16 baseline = 0;
  u16 line_height = 0;
  std::vector<FontGlyph> glyphs;     // ascending code
  std::vector<FontKerning> kerning;  // ascending (first, second), no zero amounts
};

// The chunk bytes of `font` (glyphs and kerning must already be sorted; asserted).
ByteBuffer encode_font(const FontData& font);

// The name of the texture asset that holds a font's atlas: "<font>_atlas".
std::string font_atlas_name(std::string_view font_name);

// One vertex of a glyph quad: position in pixels (y down) and atlas coordinates in [0, 1].
struct FontVertex {
  float x = 0;
  float y = 0;
  float u = 0;
  float v = 0;
};

// What layout() did: the quads it appended and where the pen ended.
struct TextRun {
  u32 glyphs = 0;  // quads appended (4 vertices each)
  s32 pen_x = 0;   // the cursor after the last character
  s32 pen_y = 0;   // the baseline of the last line
};

// Six u16 indices per quad (0,1,2, 2,1,3 + 4k) for up to kMaxQuads quads: one constant buffer
// shared by every string. Asserts (and clamps in release) when `quads` exceeds kMaxQuads.
inline constexpr u32 kMaxQuads = 65536 / 4;
std::span<const u16> quad_indices(u32 quads);

class FontView {
 public:
  // Checks the header, every count against the chunk's size, rectangles inside the atlas and
  // the sort orders; a bad chunk is a located error (byte offset), never an out-of-bounds read.
  static Result<FontView> parse(ByteSpan bytes);

  u32 atlas_name_hash() const { return atlas_name_hash_; }
  u16 atlas_width() const { return atlas_width_; }
  u16 atlas_height() const { return atlas_height_; }
  u16 pixel_size() const { return pixel_size_; }
  u16 border() const { return border_; }
  u16 cell_height() const { return cell_height_; }
  u16 baseline() const { return baseline_; }
  u16 line_height() const { return line_height_; }

  u32 glyph_count() const { return glyph_count_; }
  FontGlyph glyph(u32 index) const;  // asserts index < glyph_count()
  u32 kerning_count() const { return kerning_count_; }
  FontKerning kerning_pair(u32 index) const;  // asserts index < kerning_count()

  // The glyph of a code point, or nullptr-like: found == false.
  bool find(u32 code, FontGlyph& out) const;
  s32 kerning(u32 first, u32 second) const;  // 0 when the pair is not kerned

  // Lays out UTF-8 text with its baseline starting at (x, y): appends 4 vertices per visible
  // glyph to `out` (top-left, top-right, bottom-left, bottom-right). '\n' starts a new line
  // line_height() lower; characters the font lacks show as '?' when it has one, else nothing.
  TextRun layout(std::string_view utf8, s32 x, s32 y, std::vector<FontVertex>& out) const;
  // The pen's x after the text's last line (no vertices).
  s32 measure(std::string_view utf8) const;

 private:
  template <class Visit>
  TextRun walk(std::string_view utf8, s32 x, s32 y, Visit&& visit) const;

  ByteSpan bytes_;
  u32 atlas_name_hash_ = 0;
  u16 atlas_width_ = 0;
  u16 atlas_height_ = 0;
  u16 pixel_size_ = 0;
  u16 border_ = 0;
  u16 cell_height_ = 0;
  u16 baseline_ = 0;
  u16 line_height_ = 0;
  u32 glyph_count_ = 0;
  u32 kerning_count_ = 0;
  usize glyphs_at_ = 0;   // byte offset of the glyph records
  usize kerning_at_ = 0;  // byte offset of the kerning records
};

// Registers the "Font" asset type with a pack loader: each asset becomes a heap FontView over
// its primary chunk, checked once (deleted by the teardown). find_as<FontView>(name) then returns
// it.
void register_font_type(pack::Loader& loader);

}  // namespace keel::assets
