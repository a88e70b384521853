#include "keel/assets/build/font_builder.h"

#include "keel/assets/build/detail/font_face.h"
#include "keel/assets/build/font_layout.h"

#include <algorithm>
#include <limits>

namespace keel::assets {
namespace {

using detail::FontFace;
using detail::GlyphImage;

constexpr s32 kMaxSide = 4096;
constexpr s32 kMaxBorder = 64;

// makefont's MapFont at one size: every character's cell, the row height, the baseline.
struct Mapping {
  std::vector<GlyphImage> images;
  std::vector<GlyphCell> cells;
  std::vector<s32> widths;  // atlas widths: cell width, 0 for characters without ink
  s32 row_height = 0;
  s32 baseline = 0;  // from the cell's top, border included
  s32 line_height = 0;
  bool overflow = false;  // the ink alone exceeded the texture area: mapping stopped early
};

// Stops early (overflow) once the rendered ink exceeds `max_area`: no texture of that area can
// hold the characters, and memory stays bounded at large sizes.
Result<Mapping> map_font(FontFace& face, std::span<const u32> codes, s32 size,
                         const FontOptions& options, u64 max_area) {
  if (Status sized = face.set_size(size, options.antialias); !sized)
    return Unexpected(sized.error());
  const detail::LineMetrics line = face.line();
  Mapping m;
  s32 above = line.ascent;
  s32 below = line.descent;
  u64 ink_area = 0;
  for (u32 code : codes) {
    Result<GlyphImage> image = face.render(code);
    if (!image) return Unexpected(image.error());
    ink_area += image->pixels.size();
    if (ink_area > max_area) {
      m.overflow = true;
      return m;
    }
    if (image->rows > 0) {
      above = std::max(above, image->top);
      below = std::max(below, image->rows - image->top);
    }
    const GlyphCell cell = glyph_cell(image->abc, options.border);
    m.widths.push_back(image->abc.b > 0 ? cell.width : 0);
    m.cells.push_back(cell);
    m.images.push_back(std::move(*image));
  }
  m.row_height = above + below + 2 * options.border;
  m.baseline = above + options.border;
  m.line_height = std::max(line.line_height, 1);
  return m;
}

bool fits(const Mapping& m, s32 width, s32 height) {
  return !m.overflow && pack_cells(m.widths, m.row_height, width, height).has_value();
}

Status check_options(const FontOptions& options) {
  if (options.size < 0 || options.size > kMaxSide) {
    return fail(ErrorCode::kInvalidArgument, "font size {} px (1 to {})", options.size, kMaxSide);
  }
  if ((options.fit_width == 0) != (options.fit_height == 0) || options.fit_width < 0 ||
      options.fit_height < 0 || options.fit_width > kMaxSide || options.fit_height > kMaxSide) {
    return fail(ErrorCode::kInvalidArgument, "texture size {}x{} (both 1 to {})", options.fit_width,
                options.fit_height, kMaxSide);
  }
  if (options.size == 0 && options.fit_width == 0) {
    return fail(ErrorCode::kInvalidArgument, "give a size, a texture size to fit, or both");
  }
  if (options.border < 0 || options.border > kMaxBorder) {
    return fail(ErrorCode::kInvalidArgument, "border {} px (0 to {})", options.border, kMaxBorder);
  }
  return ok();
}

// Draws every glyph into its cell and fills in the records.
void render_atlas(const Mapping& m, std::span<const u32> codes, std::span<const CellPosition> at,
                  FontBuild& out) {
  FontData& font = out.font;
  out.atlas.assign(usize{font.atlas_width} * font.atlas_height, 0);
  for (usize i = 0; i < codes.size(); ++i) {
    const GlyphImage& image = m.images[i];
    const GlyphCell& cell = m.cells[i];
    FontGlyph g;
    g.code = codes[i];
    const bool ink = m.widths[i] > 0;
    g.x = static_cast<u16>(ink ? at[i].x : 0);
    g.y = static_cast<u16>(ink ? at[i].y : 0);
    g.width = static_cast<u16>(m.widths[i]);
    g.height = static_cast<u16>(ink ? m.row_height : 0);
    // A character without ink takes no atlas space: its whole advance is post-advance.
    g.preadvance = static_cast<s16>(ink ? cell.preadvance : 0);
    g.postadvance = static_cast<s16>(ink ? cell.postadvance : image.advance);
    font.glyphs.push_back(g);
    if (!ink) continue;
    out.used_area += u64{g.width} * g.height;
    const s32 left = g.x + cell.ink_offset;
    const s32 top = g.y + m.baseline - image.top;
    for (s32 y = 0; y < image.rows; ++y) {
      for (s32 x = 0; x < image.abc.b; ++x) {
        const usize dst =
            static_cast<usize>(top + y) * font.atlas_width + static_cast<usize>(left + x);
        out.atlas[dst] = image.pixels[static_cast<usize>(y) * image.abc.b + static_cast<usize>(x)];
      }
    }
  }
}

}  // namespace

std::vector<u32> ascii_characters() {
  std::vector<u32> codes;
  for (u32 c = 32; c < 127; ++c) codes.push_back(c);
  return codes;
}

double FontBuild::packing_efficiency() const {
  const double area = double(font.atlas_width) * double(font.atlas_height);
  return area > 0 ? double(used_area) / area : 0.0;
}

Result<FontBuild> build_font(ByteSpan font_file, std::string_view label,
                             const FontOptions& options) {
  if (Status valid = check_options(options); !valid) return Unexpected(valid.error());
  Result<FontFace> face = FontFace::open(font_file, std::string(label));
  if (!face) return Unexpected(face.error());

  FontBuild out;
  out.family = face->family();
  std::vector<u32> codes = options.characters.empty() ? ascii_characters() : options.characters;
  std::sort(codes.begin(), codes.end());
  codes.erase(std::unique(codes.begin(), codes.end()), codes.end());
  std::erase_if(codes, [&](u32 code) {
    if (face->has(code)) return false;
    if (code < 32 || (code >= 127 && code < 160)) return true;  // control characters: no glyph
    out.missing.push_back(code);
    return true;
  });
  if (codes.empty())
    return fail(ErrorCode::kNotFound, "{}: none of the characters is in the font", label);

  const u64 fit_area = static_cast<u64>(options.fit_width) * static_cast<u64>(options.fit_height);
  s32 size = options.size;
  if (size == 0) {
    // The book's search: the largest size whose characters fit the texture.
    Status error = ok();
    size = search_font_size([&](s32 s) {
      ++out.size_tests;
      Result<Mapping> m = map_font(*face, codes, s, options, fit_area);
      if (!m) {
        if (error) error = Unexpected(m.error());
        return false;
      }
      return fits(*m, options.fit_width, options.fit_height);
    });
    if (!error) return Unexpected(error.error());
    if (size == 0) {
      return fail(ErrorCode::kInvalidArgument, "{}: the characters fit a {}x{} texture at no size",
                  label, options.fit_width, options.fit_height);
    }
  }
  Result<Mapping> m = map_font(*face, codes, size, options,
                               options.fit_width > 0 ? fit_area : u64{kMaxSide} * kMaxSide);
  if (!m) return Unexpected(m.error());
  if (m->overflow) {
    if (options.fit_width > 0) {
      return fail(ErrorCode::kInvalidArgument, "{}: {} px characters do not fit a {}x{} texture",
                  label, size, options.fit_width, options.fit_height);
    }
    return fail(ErrorCode::kInvalidArgument, "{}: {} px characters fit no texture up to {}x{}",
                label, size, kMaxSide, kMaxSide);
  }
  AtlasSize atlas{options.fit_width, options.fit_height};
  if (atlas.width == 0) {
    const std::optional<AtlasSize> smallest = smallest_atlas(m->widths, m->row_height, kMaxSide);
    if (!smallest) {
      return fail(ErrorCode::kInvalidArgument, "{}: {} px characters fit no texture up to {}x{}",
                  label, size, kMaxSide, kMaxSide);
    }
    atlas = *smallest;
  }
  const auto placed = pack_cells(m->widths, m->row_height, atlas.width, atlas.height);
  if (!placed) {
    return fail(ErrorCode::kInvalidArgument, "{}: {} px characters do not fit a {}x{} texture",
                label, size, atlas.width, atlas.height);
  }
  if (m->row_height > std::numeric_limits<u16>::max()) {
    return fail(ErrorCode::kInvalidArgument, "{}: {} px is too large", label, size);
  }
  FontData& font = out.font;
  font.atlas_width = static_cast<u16>(atlas.width);
  font.atlas_height = static_cast<u16>(atlas.height);
  font.pixel_size = static_cast<u16>(size);
  font.border = static_cast<u16>(options.border);
  font.cell_height = static_cast<u16>(m->row_height);
  font.baseline = static_cast<u16>(m->baseline);
  font.line_height = static_cast<u16>(std::min(m->line_height, 65535));
  render_atlas(*m, codes, *placed, out);
  if (options.kerning) {
    for (const auto& pair : face->kerning(codes)) {
      font.kerning.push_back({pair.first, pair.second, pair.amount});
    }
  }
  return out;
}

bool append_utf8(std::string_view s, std::vector<u32>& out) {
  for (usize i = 0; i < s.size();) {
    const auto b0 = static_cast<u8>(s[i]);
    const usize len = b0 < 0x80         ? 1
                      : (b0 >> 5) == 6  ? 2
                      : (b0 >> 4) == 14 ? 3
                      : (b0 >> 3) == 30 ? 4
                                        : 0;
    if (len == 0 || i + len > s.size()) return false;
    u32 code = len == 1 ? b0 : (b0 & (0x7Fu >> len));
    for (usize k = 1; k < len; ++k) {
      const auto b = static_cast<u8>(s[i + k]);
      if ((b & 0xC0) != 0x80) return false;
      code = (code << 6) | (b & 0x3Fu);
    }
    out.push_back(code);
    i += len;
  }
  return true;
}

}  // namespace keel::assets
