#include "keel/assets/build/detail/font_atlas.h"

#include "keel/assets/build/texture_writer.h"
#include "keel/assets/texture.h"

namespace keel::assets::detail {

// One level (fonts are drawn at their size: no mip-maps, as the book's Levels(1)), A8: the
// coverage is the alpha, the colour comes from the vertices. Clamped, so the atlas' last column
// never bleeds into its first.
u32 add_font_atlas(pipeline::OutputFile& out, std::string_view atlas_name, const FontBuild& build) {
  const PixelsU8 pixels{.width = build.font.atlas_width,
                        .height = build.font.atlas_height,
                        .channels = 1,
                        .data = build.atlas};
  const Result<ByteBuffer> chunk = write_texture({.name = atlas_name,
                                                  .format = TextureFormat::kA8,
                                                  .filter = TextureFilter::kBilinear,
                                                  .wrap = TextureWrap::kClamp,
                                                  .quality = BlockQuality::kFast,
                                                  .premultiply = false},
                                                 std::span(&pixels, 1));
  if (!chunk) return 0;
  const u32 locator = out.add_chunk(atlas_name, pipeline::kBlockGeneral, *chunk);
  if (locator != 0) out.add_item(atlas_name, "Texture", locator);
  return locator;
}

Result<std::vector<u8>> read_font_atlas(const pack::PackFile& pack, const FontView& font) {
  const pack::PackItem* item = pack.find_item_hash(font.atlas_name_hash());
  if (item == nullptr) {
    return fail(ErrorCode::kNotFound, "{}: the font's atlas texture is missing", pack.label());
  }
  Result<ByteBuffer> bytes = pack.read_chunk(item->name_hash, item->primary);
  if (!bytes) return Unexpected(bytes.error());
  Result<Texture> texture = Texture::view(*bytes, pack.label());
  if (!texture) return Unexpected(texture.error());
  if (texture->width() != font.atlas_width() || texture->height() != font.atlas_height() ||
      (texture->format() != TextureFormat::kA8 && texture->format() != TextureFormat::kL8)) {
    return fail(ErrorCode::kCorrupt, "{}: atlas '{}' is {}x{} {}, the font needs {}x{} A8 or L8",
                pack.label(), item->name, texture->width(), texture->height(),
                format_name(texture->format()), font.atlas_width(), font.atlas_height());
  }
  const TextureLevel level = texture->level(0);
  const std::span<const u8> pixels = as_u8(level.data);
  return std::vector<u8>(pixels.begin(), pixels.end());
}

}  // namespace keel::assets::detail
