// The font processor (Golden Rules ch. 6 makefont, through FreeType and HarfBuzz): rasterises the
// requested characters of a TrueType/OpenType file into an 8-bit atlas with the book's layout and
// size search, and produces the load-ready font (keel/assets/font.h). The Font handler and the
// keel-font tool both call build_font; the tool also writes the book's outputs (8-bit TGA and a
// command file) and an AngelCode BMFont text file.
//
//   FontOptions options;
//   options.characters = ascii_characters();
//   options.fit_width = options.fit_height = 256;        // the largest size that fits 256x256
//   Result<FontBuild> font = build_font(ttf_bytes, "DejaVuSans.ttf", options);
#pragma once

#include "keel/assets/font.h"
#include "keel/core/bytes.h"
#include "keel/core/error.h"
#include "keel/core/types.h"

#include <string>
#include <string_view>
#include <vector>

namespace keel::assets {

// Appends the code points of a UTF-8 string (Characters("...") in the Font command and
// keel-font's --text); false on malformed UTF-8 (a bad lead or continuation byte, a cut sequence).
bool append_utf8(std::string_view utf8, std::vector<u32>& out);

struct FontOptions {
  std::vector<u32> characters;  // code points, any order; duplicates are ignored
  s32 size = 0;                 // pixel size (em square); 0: the largest that fits the texture
  s32 fit_width = 0;            // texture size; 0: the smallest atlas that holds `size`
  s32 fit_height = 0;
  s32 border = 0;         // empty pixels around every cell (clean bilinear filtering)
  bool antialias = true;  // 8-bit coverage; false: 0 or 255
  bool kerning = true;    // FreeType kern table + HarfBuzz GPOS pairs
};

// The printable ASCII characters 32..126, the default character set.
std::vector<u32> ascii_characters();

struct FontBuild {
  FontData font;             // atlas_name_hash is left 0: the caller names the atlas
  std::vector<u8> atlas;     // font.atlas_width * font.atlas_height coverage values, rows top down
  std::vector<u32> missing;  // requested code points the font has no glyph for
  std::string family;        // "DejaVu Sans"
  u64 used_area = 0;         // pixels inside glyph cells
  u32 size_tests = 0;        // MapFont calls the size search made (0 with a fixed size)

  double packing_efficiency() const;  // used_area / atlas area
};

// Errors: unreadable font, no character the font has, a fixed size that does not fit the given
// texture, a texture no size fits, sizes or borders out of range.
Result<FontBuild> build_font(ByteSpan font_file, std::string_view label,
                             const FontOptions& options);

// The book's makefont outputs: the atlas as an 8-bit grayscale TGA, and a command file with a
// Texture block for that TGA and the Font block describing every character in ascending order.
ByteBuffer font_tga(const FontBuild& build);
std::string font_command_file(const FontBuild& build, std::string_view name,
                              std::string_view tga_file);
// AngelCode BMFont text format (.fnt): info, common, one page, chars, kernings.
std::string font_bmfont_text(const FontBuild& build, std::string_view page_file);

}  // namespace keel::assets
