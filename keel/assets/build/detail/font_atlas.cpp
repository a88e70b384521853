#include "keel/assets/build/detail/font_atlas.h"

namespace keel::assets::detail {

// Until the texture chunk format lands: the raw 8-bit rows.
u32 add_font_atlas(pipeline::OutputFile& out, std::string_view atlas_name, const FontBuild& build) {
  const u32 chunk = out.add_chunk(atlas_name, pipeline::kBlockGeneral,
                                  as_bytes(std::span<const u8>(build.atlas)));
  if (chunk != 0) out.add_item(atlas_name, "Texture", chunk);
  return chunk;
}

}  // namespace keel::assets::detail
