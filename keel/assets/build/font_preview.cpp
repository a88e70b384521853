// A font atlas with its glyph boxes: the coverage in gray, each character's cell outlined (two
// alternating colours so neighbours stay apart) and its baseline marked. Small atlases are drawn
// at twice their size so the boxes stay visible.
#include "keel/assets/build/font_preview.h"
#include "keel/assets/build/detail/font_atlas.h"
#include "keel/assets/build/preview.h"
#include "keel/assets/font.h"

#include <array>

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
