#include "keel/assets/build/detail/font_face.h"

#include <ft2build.h>
#include FT_FREETYPE_H
#include <hb-ft.h>
#include <hb.h>

#include <algorithm>
#include <cmath>

namespace keel::assets::detail {
namespace {

s32 round26_6(long v) { return static_cast<s32>(std::lround(static_cast<double>(v) / 64.0)); }

}  // namespace

struct FontFace::State {
  std::string label;
  ByteBuffer bytes;  // FreeType reads the face from here for its whole life
  FT_Library library = nullptr;
  FT_Face face = nullptr;
  hb_font_t* hb = nullptr;
  bool antialias = true;

  ~State() {
    if (hb != nullptr) hb_font_destroy(hb);
    if (face != nullptr) FT_Done_Face(face);
    if (library != nullptr) FT_Done_FreeType(library);
  }
};

FontFace::FontFace(std::unique_ptr<State> state) : state_(std::move(state)) {}
FontFace::FontFace(FontFace&&) noexcept = default;
FontFace& FontFace::operator=(FontFace&&) noexcept = default;
FontFace::~FontFace() = default;

Result<FontFace> FontFace::open(ByteSpan file_bytes, std::string label) {
  auto state = std::make_unique<State>();
  state->label = std::move(label);
  state->bytes = to_buffer(file_bytes);
  if (FT_Init_FreeType(&state->library) != 0) {
    return fail(ErrorCode::kOutOfMemory, "{}: FreeType did not start", state->label);
  }
  if (state->bytes.empty()) return fail(ErrorCode::kCorrupt, "{}: empty font file", state->label);
  const auto* data = reinterpret_cast<const FT_Byte*>(state->bytes.data());  // NOLINT
  if (FT_New_Memory_Face(state->library, data, static_cast<FT_Long>(state->bytes.size()), 0,
                         &state->face) != 0) {
    return fail(ErrorCode::kCorrupt, "{}: not a font FreeType can read", state->label);
  }
  if (!FT_IS_SCALABLE(state->face)) {
    return fail(ErrorCode::kUnsupported, "{}: not a scalable (outline) font", state->label);
  }
  return FontFace(std::move(state));
}

const std::string& FontFace::label() const { return state_->label; }

std::string FontFace::family() const {
  std::string name = state_->face->family_name != nullptr ? state_->face->family_name : "";
  const char* style = state_->face->style_name;
  if (style != nullptr && std::string_view(style) != "Book" && std::string_view(style) != "Regular")
    name += std::string(" ") + style;
  return name;
}

bool FontFace::has(u32 code) const { return FT_Get_Char_Index(state_->face, code) != 0; }

Status FontFace::set_size(s32 pixels, bool antialias) {
  if (pixels <= 0 || pixels > 4096) {
    return fail(ErrorCode::kInvalidArgument, "{}: font size {} px (1 to 4096)", state_->label,
                pixels);
  }
  if (FT_Set_Pixel_Sizes(state_->face, 0, static_cast<FT_UInt>(pixels)) != 0) {
    return fail(ErrorCode::kUnsupported, "{}: FreeType cannot use size {} px", state_->label,
                pixels);
  }
  state_->antialias = antialias;
  if (state_->hb != nullptr) {
    hb_ft_font_changed(state_->hb);
  } else {
    state_->hb = hb_ft_font_create_referenced(state_->face);
  }
  return ok();
}

LineMetrics FontFace::line() const {
  const FT_Size_Metrics& m = state_->face->size->metrics;
  return {round26_6(m.ascender), round26_6(-m.descender), round26_6(m.height)};
}

Result<GlyphImage> FontFace::render(u32 code) const {
  FT_Face face = state_->face;
  const FT_Int32 flags =
      FT_LOAD_RENDER |
      (state_->antialias ? FT_LOAD_TARGET_NORMAL : (FT_LOAD_TARGET_MONO | FT_LOAD_MONOCHROME));
  if (FT_Load_Char(face, code, flags) != 0) {
    return fail(ErrorCode::kCorrupt, "{}: FreeType cannot render U+{:04X}", state_->label, code);
  }
  const FT_GlyphSlot slot = face->glyph;
  const FT_Bitmap& bm = slot->bitmap;
  GlyphImage image;
  image.advance = round26_6(slot->advance.x);
  image.abc.b = static_cast<s32>(bm.width);
  image.abc.a = bm.width > 0 ? slot->bitmap_left : 0;
  image.abc.c = image.advance - image.abc.a - image.abc.b;
  image.top = slot->bitmap_top;
  image.rows = static_cast<s32>(bm.rows);
  image.pixels.resize(usize{bm.width} * bm.rows);
  for (u32 y = 0; y < bm.rows; ++y) {
    const unsigned char* row = bm.buffer + static_cast<std::ptrdiff_t>(y) * bm.pitch;
    for (u32 x = 0; x < bm.width; ++x) {
      u8 v = 0;
      if (bm.pixel_mode == FT_PIXEL_MODE_MONO) {
        v = ((row[x / 8] >> (7 - x % 8)) & 1) != 0 ? 255 : 0;
      } else {
        v = row[x];
      }
      image.pixels[usize{y} * bm.width + x] = v;
    }
  }
  return image;
}

s32 FontFace::kern_table(u32 first, u32 second) const {
  FT_Face face = state_->face;
  if (!FT_HAS_KERNING(face)) return 0;
  FT_Vector v{};
  if (FT_Get_Kerning(face, FT_Get_Char_Index(face, first), FT_Get_Char_Index(face, second),
                     FT_KERNING_DEFAULT, &v) != 0) {
    return 0;
  }
  return round26_6(v.x);
}

std::vector<FontFace::Pair> FontFace::kerning(std::span<const u32> codes) const {
  std::vector<Pair> pairs;
  hb_font_t* font = state_->hb;
  if (font == nullptr) return pairs;
  hb_buffer_t* buffer = hb_buffer_create();
  for (u32 first : codes) {
    const hb_codepoint_t first_glyph = FT_Get_Char_Index(state_->face, first);
    if (first_glyph == 0) continue;
    const hb_position_t nominal = hb_font_get_glyph_h_advance(font, first_glyph);
    for (u32 second : codes) {
      s32 amount = kern_table(first, second);
      hb_buffer_clear_contents(buffer);
      const std::array<hb_codepoint_t, 2> text{first, second};
      hb_buffer_add_codepoints(buffer, text.data(), 2, 0, 2);
      hb_buffer_set_direction(buffer, HB_DIRECTION_LTR);
      hb_buffer_guess_segment_properties(buffer);
      hb_shape(font, buffer, nullptr, 0);
      unsigned int count = 0;
      const hb_glyph_info_t* info = hb_buffer_get_glyph_infos(buffer, &count);
      const hb_glyph_position_t* pos = hb_buffer_get_glyph_positions(buffer, &count);
      if (count == 2 && info[0].codepoint == first_glyph) {
        const s32 gpos = round26_6(pos[0].x_advance - nominal);
        if (gpos != 0) amount = gpos;
      }
      if (amount != 0) pairs.push_back({first, second, amount});
    }
  }
  hb_buffer_destroy(buffer);
  std::sort(pairs.begin(), pairs.end(), [](const Pair& a, const Pair& b) {
    return a.first != b.first ? a.first < b.first : a.second < b.second;
  });
  return pairs;
}

}  // namespace keel::assets::detail
