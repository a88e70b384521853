#include "keel/assets/build/detail/font_atlas.h"

namespace keel::assets::detail {

// Until the texture chunk format lands: the raw 8-bit rows.
u32 add_font_atlas(pipeline::OutputFile& out, std::string_view atlas_name, const FontBuild& build) {
  const u32 chunk = out.add_chunk(atlas_name, pipeline::kBlockGeneral,
                                  as_bytes(std::span<const u8>(build.atlas)));
  if (chunk != 0) out.add_item(atlas_name, "Texture", chunk);
  return chunk;
}

Result<std::vector<u8>> read_font_atlas(const pack::PackFile& pack, const FontView& font) {
  const pack::PackItem* item = pack.find_item_hash(font.atlas_name_hash());
  if (item == nullptr) {
    return fail(ErrorCode::kNotFound, "{}: the font's atlas texture is missing", pack.label());
  }
  Result<ByteBuffer> bytes = pack.read_chunk(item->name_hash, item->primary);
  if (!bytes) return Unexpected(bytes.error());
  const usize need = usize{font.atlas_width()} * font.atlas_height();
  if (bytes->size() != need) {
    return fail(ErrorCode::kCorrupt, "{}: atlas '{}' holds {} bytes, the font needs {}x{}",
                pack.label(), item->name, bytes->size(), font.atlas_width(), font.atlas_height());
  }
  const std::span<const u8> pixels = as_u8(ByteSpan(*bytes));
  return std::vector<u8>(pixels.begin(), pixels.end());
}

}  // namespace keel::assets::detail
