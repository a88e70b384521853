// A font atlas with its glyph boxes: the coverage in gray, each character's cell outlined (two
// alternating colours so neighbours stay apart) and its baseline marked. Small atlases are drawn
// at twice their size so the boxes stay visible.
#include "keel/assets/build/font_preview.h"
#include "keel/assets/build/detail/font_atlas.h"
#include "keel/assets/build/preview.h"
#include "keel/assets/font.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

namespace keel::assets {
namespace {

using Rgb = std::array<u8, 3>;

void put(Picture& p, u32 x, u32 y, Rgb c) {
  if (x >= p.width || y >= p.height) return;
  u8* px = &p.rgba[(usize{y} * p.width + x) * 4];
  px[0] = c[0];
  px[1] = c[1];
  px[2] = c[2];
  px[3] = 255;
}

}  // namespace

Picture font_atlas_picture(const FontView& font, std::span<const u8> atlas) {
  const u32 scale = font.atlas_width() < 512 && font.atlas_height() < 512 ? 2 : 1;
  Picture p;
  p.width = u32{font.atlas_width()} * scale;
  p.height = u32{font.atlas_height()} * scale;
  p.rgba.assign(usize{p.width} * p.height * 4, 255);
  for (u32 y = 0; y < p.height; ++y) {
    for (u32 x = 0; x < p.width; ++x) {
      const usize at = usize{y / scale} * font.atlas_width() + x / scale;
      const u8 v = at < atlas.size() ? atlas[at] : 0;
      put(p, x, y, {v, v, v});
    }
  }
  constexpr std::array<Rgb, 2> kBox{Rgb{0, 200, 255}, Rgb{255, 160, 0}};
  constexpr Rgb kBaseline{255, 40, 40};
  for (u32 i = 0; i < font.glyph_count(); ++i) {
    const FontGlyph g = font.glyph(i);
    if (g.width == 0 || g.height == 0) continue;
    const Rgb box = kBox[i % 2];
    const u32 x0 = g.x * scale;
    const u32 y0 = g.y * scale;
    const u32 x1 = (g.x + g.width) * scale - 1;
    const u32 y1 = (g.y + g.height) * scale - 1;
    for (u32 x = x0; x <= x1; ++x) {
      put(p, x, y0, box);
      put(p, x, y1, box);
    }
    for (u32 y = y0; y <= y1; ++y) {
      put(p, x0, y, box);
      put(p, x1, y, box);
    }
    const u32 base = (g.y + font.baseline()) * scale;
    for (u32 x = x0 + 1; x < x1 && base < y1; x += 2) put(p, x, base, kBaseline);
  }
  return p;
}

Picture font_text_picture(const FontView& font, std::span<const u8> atlas, std::string_view utf8) {
  constexpr s32 kMargin = 8;
  std::vector<FontVertex> quads;
  const TextRun run = font.layout(utf8, 0, font.baseline(), quads);
  // The extent of the quads (and of the pen, for text without ink).
  s32 right = run.pen_x;
  s32 bottom = run.pen_y + font.cell_height() - font.baseline();
  s32 left = 0;
  for (const FontVertex& v : quads) {
    right = std::max(right, static_cast<s32>(v.x));
    bottom = std::max(bottom, static_cast<s32>(v.y));
    left = std::min(left, static_cast<s32>(v.x));
  }
  Picture p;
  p.width = static_cast<u32>(right - left + 2 * kMargin);
  p.height = static_cast<u32>(bottom + 2 * kMargin);
  p.rgba.assign(usize{p.width} * p.height * 4, 255);
  std::vector<u8> ink(usize{p.width} * p.height, 0);
  for (usize q = 0; q + 3 < quads.size(); q += 4) {
    const FontVertex& a = quads[q];      // top left
    const FontVertex& b = quads[q + 3];  // bottom right
    const auto sx = static_cast<s32>(std::lround(a.u * font.atlas_width()));
    const auto sy = static_cast<s32>(std::lround(a.v * font.atlas_height()));
    const auto w = static_cast<s32>(b.x - a.x);
    const auto h = static_cast<s32>(b.y - a.y);
    for (s32 y = 0; y < h; ++y) {
      for (s32 x = 0; x < w; ++x) {
        const usize src =
            static_cast<usize>(sy + y) * font.atlas_width() + static_cast<usize>(sx + x);
        const s32 dx = static_cast<s32>(a.x) - left + kMargin + x;
        const s32 dy = static_cast<s32>(a.y) + kMargin + y;
        if (src >= atlas.size() || dx < 0 || dy < 0) continue;
        const usize dst = static_cast<usize>(dy) * p.width + static_cast<usize>(dx);
        if (dst < ink.size()) ink[dst] = std::max(ink[dst], atlas[src]);
      }
    }
  }
  for (usize i = 0; i < ink.size(); ++i) {
    const auto v = static_cast<u8>(255 - ink[i]);
    p.rgba[i * 4] = v;
    p.rgba[i * 4 + 1] = v;
    p.rgba[i * 4 + 2] = v;
  }
  return p;
}

Result<Picture> picture_of_font(const pack::PackFile& pack, std::string_view name) {
  const pack::PackItem* item = pack.find_item(name);
  if (item == nullptr) {
    return fail(ErrorCode::kNotFound, "{}: no asset named '{}'", pack.label(), name);
  }
  if (item->type_hash != pack::type_hash(kFontType)) {
    return fail(ErrorCode::kInvalidArgument, "{}: '{}' is not a font", pack.label(), name);
  }
  Result<ByteBuffer> chunk = pack.read_chunk(item->name_hash, item->primary);
  if (!chunk) return Unexpected(chunk.error());
  Result<FontView> font = FontView::parse(*chunk);
  if (!font) return Unexpected(font.error());
  Result<std::vector<u8>> atlas = detail::read_font_atlas(pack, *font);
  if (!atlas) return Unexpected(atlas.error());
  return font_atlas_picture(*font, *atlas);
}

}  // namespace keel::assets
