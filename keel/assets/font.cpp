#include "keel/assets/font.h"

#include "keel/assets/detail/little_endian.h"
#include "keel/core/assert.h"
#include "keel/pack/loader.h"

#include <algorithm>
#include <array>
#include <limits>

namespace keel::assets {
namespace {

using detail::get16;
using detail::get32;
using detail::put16;
using detail::put32;

constexpr usize kHeaderBytes = 36;
constexpr usize kGlyphBytes = 16;
constexpr usize kKerningBytes = 12;
constexpr s32 kMaxKerning = 32767;  // pixels; a larger amount marks a damaged chunk

// The pen moves in 64 bits and is clamped to s32 where it is handed out: a long string of wide
// glyphs (or a hostile chunk) cannot overflow it.
s32 clamp_pen(s64 pen) {
  return static_cast<s32>(
      std::clamp<s64>(pen, std::numeric_limits<s32>::min(), std::numeric_limits<s32>::max()));
}

Unexpected corrupt(usize offset, std::string_view what) {
  return fail_at(SourceLocation::bytes("font chunk", offset), ErrorCode::kCorrupt, "{}", what);
}

// Decodes one UTF-8 sequence at `i` (advancing it); malformed input gives U+FFFD.
u32 next_code_point(std::string_view s, usize& i) {
  const auto byte = [&](usize k) { return static_cast<u32>(static_cast<u8>(s[k])); };
  const u32 b0 = byte(i++);
  if (b0 < 0x80) return b0;
  usize extra = 0;
  u32 code = 0;
  if ((b0 & 0xE0) == 0xC0) {
    extra = 1;
    code = b0 & 0x1F;
  } else if ((b0 & 0xF0) == 0xE0) {
    extra = 2;
    code = b0 & 0x0F;
  } else if ((b0 & 0xF8) == 0xF0) {
    extra = 3;
    code = b0 & 0x07;
  } else {
    return 0xFFFD;
  }
  for (usize k = 0; k < extra; ++k) {
    if (i >= s.size() || (byte(i) & 0xC0) != 0x80) return 0xFFFD;
    code = (code << 6) | (byte(i++) & 0x3F);
  }
  return code;
}

}  // namespace

std::string font_atlas_name(std::string_view font_name) {
  return std::string(font_name) + "_atlas";
}

ByteBuffer encode_font(const FontData& font) {
  KEEL_ASSERT(
      std::is_sorted(font.glyphs.begin(), font.glyphs.end(),
                     [](const FontGlyph& a, const FontGlyph& b) { return a.code < b.code; }),
      "encode_font: glyphs must be sorted by code");
  KEEL_ASSERT(std::is_sorted(font.kerning.begin(), font.kerning.end(),
                             [](const FontKerning& a, const FontKerning& b) {
                               return a.first != b.first ? a.first < b.first : a.second < b.second;
                             }),
              "encode_font: kerning pairs must be sorted by (first, second)");
  ByteBuffer out;
  out.reserve(kHeaderBytes + font.glyphs.size() * kGlyphBytes +
              font.kerning.size() * kKerningBytes);
  put32(out, kFontMagic);
  put32(out, kFontVersion);
  put32(out, font.atlas_name_hash);
  for (u16 v : {font.atlas_width, font.atlas_height, font.pixel_size, font.border, font.cell_height,
                font.baseline, font.line_height, u16{0}}) {
    put16(out, v);
  }
  put32(out, static_cast<u32>(font.glyphs.size()));
  put32(out, static_cast<u32>(font.kerning.size()));
  for (const FontGlyph& g : font.glyphs) {
    put32(out, g.code);
    for (u16 v : {g.x, g.y, g.width, g.height}) put16(out, v);
    put16(out, static_cast<u16>(g.preadvance));
    put16(out, static_cast<u16>(g.postadvance));
  }
  for (const FontKerning& k : font.kerning) {
    put32(out, k.first);
    put32(out, k.second);
    put32(out, static_cast<u32>(k.amount));
  }
  return out;
}

std::span<const u16> quad_indices(u32 quads) {
  static const std::vector<u16> indices = [] {
    std::vector<u16> v;
    v.reserve(usize{kMaxQuads} * 6);
    for (u32 q = 0; q < kMaxQuads; ++q) {
      const u32 b = q * 4;
      for (u32 i : {b, b + 1, b + 2, b + 2, b + 1, b + 3}) v.push_back(static_cast<u16>(i));
    }
    return v;
  }();
  KEEL_ASSERT(quads <= kMaxQuads, "quad_indices: more quads than 16-bit indices can address");
  return std::span<const u16>(indices).first(usize{std::min(quads, kMaxQuads)} * 6);
}

Result<FontView> FontView::parse(ByteSpan bytes) {
  if (bytes.size() < kHeaderBytes) return corrupt(0, "truncated font header");
  if (get32(bytes, 0) != kFontMagic) return corrupt(0, "not a font chunk (bad magic)");
  if (get32(bytes, 4) != kFontVersion) {
    return fail_at(SourceLocation::bytes("font chunk", 4), ErrorCode::kUnsupported,
                   "font chunk version {} (this build reads {})", get32(bytes, 4), kFontVersion);
  }
  FontView view;
  view.bytes_ = bytes;
  view.atlas_name_hash_ = get32(bytes, 8);
  std::array<u16, 8> h{};
  for (usize i = 0; i < h.size(); ++i) h[i] = static_cast<u16>(get16(bytes, 12 + 2 * i));
  view.atlas_width_ = h[0];
  view.atlas_height_ = h[1];
  view.pixel_size_ = h[2];
  view.border_ = h[3];
  view.cell_height_ = h[4];
  view.baseline_ = h[5];
  view.line_height_ = h[6];
  view.glyph_count_ = get32(bytes, 28);
  view.kerning_count_ = get32(bytes, 32);
  if (view.baseline_ > view.cell_height_) return corrupt(22, "baseline below the cell");
  const u64 need = kHeaderBytes + u64{view.glyph_count_} * kGlyphBytes +
                   u64{view.kerning_count_} * kKerningBytes;
  if (need != bytes.size()) return corrupt(28, "glyph and kerning counts do not match the size");
  view.glyphs_at_ = kHeaderBytes;
  view.kerning_at_ = kHeaderBytes + usize{view.glyph_count_} * kGlyphBytes;
  for (u32 i = 0; i < view.glyph_count_; ++i) {
    const FontGlyph g = view.glyph(i);
    const usize at = view.glyphs_at_ + usize{i} * kGlyphBytes;
    if (i > 0 && view.glyph(i - 1).code >= g.code) {
      return corrupt(at, "glyph codes are not strictly ascending");
    }
    if (u32{g.x} + g.width > view.atlas_width_ || u32{g.y} + g.height > view.atlas_height_) {
      return corrupt(at + 4, "glyph rectangle outside the atlas");
    }
  }
  for (u32 i = 1; i < view.kerning_count_; ++i) {
    const FontKerning a = view.kerning_pair(i - 1);
    const FontKerning b = view.kerning_pair(i);
    if (a.first > b.first || (a.first == b.first && a.second >= b.second)) {
      return corrupt(view.kerning_at_ + usize{i} * kKerningBytes,
                     "kerning pairs are not strictly ascending");
    }
  }
  for (u32 i = 0; i < view.kerning_count_; ++i) {
    const s32 amount = view.kerning_pair(i).amount;
    if (amount < -kMaxKerning || amount > kMaxKerning) {
      return corrupt(view.kerning_at_ + usize{i} * kKerningBytes + 8,
                     "kerning amount outside +-32767 pixels");
    }
  }
  return view;
}

FontGlyph FontView::glyph(u32 index) const {
  KEEL_ASSERT(index < glyph_count_, "FontView::glyph: index past the glyph count");
  if (index >= glyph_count_) return {};
  const usize at = glyphs_at_ + usize{index} * kGlyphBytes;
  FontGlyph g;
  g.code = get32(bytes_, at);
  g.x = static_cast<u16>(get16(bytes_, at + 4));
  g.y = static_cast<u16>(get16(bytes_, at + 6));
  g.width = static_cast<u16>(get16(bytes_, at + 8));
  g.height = static_cast<u16>(get16(bytes_, at + 10));
  g.preadvance = static_cast<s16>(get16(bytes_, at + 12));
  g.postadvance = static_cast<s16>(get16(bytes_, at + 14));
  return g;
}

FontKerning FontView::kerning_pair(u32 index) const {
  KEEL_ASSERT(index < kerning_count_, "FontView::kerning_pair: index past the pair count");
  if (index >= kerning_count_) return {};
  const usize at = kerning_at_ + usize{index} * kKerningBytes;
  return {get32(bytes_, at), get32(bytes_, at + 4), static_cast<s32>(get32(bytes_, at + 8))};
}

bool FontView::find(u32 code, FontGlyph& out) const {
  u32 lo = 0;
  u32 hi = glyph_count_;
  while (lo < hi) {
    const u32 mid = lo + (hi - lo) / 2;
    const u32 c = get32(bytes_, glyphs_at_ + usize{mid} * kGlyphBytes);
    if (c == code) {
      out = glyph(mid);
      return true;
    }
    if (c < code) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return false;
}

s32 FontView::kerning(u32 first, u32 second) const {
  const u64 key = (u64{first} << 32) | second;
  u32 lo = 0;
  u32 hi = kerning_count_;
  while (lo < hi) {
    const u32 mid = lo + (hi - lo) / 2;
    const usize at = kerning_at_ + usize{mid} * kKerningBytes;
    const u64 k = (u64{get32(bytes_, at)} << 32) | get32(bytes_, at + 4);
    if (k == key) return static_cast<s32>(get32(bytes_, at + 8));
    if (k < key) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return 0;
}

template <class Visit>
TextRun FontView::walk(std::string_view utf8, s32 x, s32 y, Visit&& visit) const {
  TextRun run{0, x, y};
  s64 pen_x = x;
  s64 pen_y = y;
  u32 previous = 0;
  bool has_previous = false;
  FontGlyph fallback;
  const bool has_fallback = find('?', fallback);
  for (usize i = 0; i < utf8.size();) {
    const u32 code = next_code_point(utf8, i);
    if (code == '\n') {
      pen_x = x;
      pen_y += line_height_;
      has_previous = false;
      continue;
    }
    FontGlyph g;
    if (!find(code, g)) {
      if (!has_fallback) continue;
      g = fallback;
    }
    if (has_previous) pen_x += kerning(previous, g.code);
    visit(g, clamp_pen(pen_x + g.preadvance), clamp_pen(pen_y - baseline_));
    pen_x += g.advance();
    previous = g.code;
    has_previous = true;
    if (g.width > 0) ++run.glyphs;
  }
  run.pen_x = clamp_pen(pen_x);
  run.pen_y = clamp_pen(pen_y);
  return run;
}

TextRun FontView::layout(std::string_view utf8, s32 x, s32 y, std::vector<FontVertex>& out) const {
  const float su = atlas_width_ > 0 ? 1.0f / static_cast<float>(atlas_width_) : 0.0f;
  const float sv = atlas_height_ > 0 ? 1.0f / static_cast<float>(atlas_height_) : 0.0f;
  return walk(utf8, x, y, [&](const FontGlyph& g, s32 left, s32 top) {
    if (g.width == 0) return;
    const auto fx = static_cast<float>(left);
    const auto fy = static_cast<float>(top);
    const auto w = static_cast<float>(g.width);
    const auto h = static_cast<float>(g.height);
    const float u0 = static_cast<float>(g.x) * su;
    const float v0 = static_cast<float>(g.y) * sv;
    const float u1 = static_cast<float>(g.x + g.width) * su;
    const float v1 = static_cast<float>(g.y + g.height) * sv;
    out.push_back({fx, fy, u0, v0});
    out.push_back({fx + w, fy, u1, v0});
    out.push_back({fx, fy + h, u0, v1});
    out.push_back({fx + w, fy + h, u1, v1});
  });
}

s32 FontView::measure(std::string_view utf8) const {
  return walk(utf8, 0, 0, [](const FontGlyph&, s32, s32) {}).pen_x;
}

void register_font_type(pack::Loader& loader) {
  loader.register_type(
      pack::type_hash("Font"),
      [](pack::SetupContext& ctx) -> Result<void*> {
        Result<FontView> view = FontView::parse(ctx.primary());
        if (!view) return Unexpected(view.error());
        return static_cast<void*>(new FontView(*view));
      },
      [](void* asset) { delete static_cast<FontView*>(asset); });
}

}  // namespace keel::assets
