// keel-asset show for an Atlas: its texture over a checkerboard with every frame's box outlined.
#include "keel/assets/atlas.h"
#include "keel/assets/build/preview.h"
#include "keel/assets/build/texture_writer.h"
#include "keel/assets/texture.h"
#include "keel/pack/format.h"

namespace keel::assets {
namespace {

void put(Picture& p, u32 x, u32 y, u8 r, u8 g, u8 b) {
  if (x >= p.width || y >= p.height) return;
  u8* px = &p.rgba[(usize{y} * p.width + x) * 4];
  px[0] = r;
  px[1] = g;
  px[2] = b;
  px[3] = 255;
}

}  // namespace

Result<Picture> picture_of_atlas(const pack::PackFile& pack, std::string_view name) {
  const pack::PackItem* item = pack.find_item(name);
  if (item == nullptr) {
    return fail(ErrorCode::kNotFound, "{}: no asset named '{}'", pack.label(), name);
  }
  if (item->type_hash != pack::type_hash(kAtlasType)) {
    return fail(ErrorCode::kInvalidArgument, "{}: '{}' is not an atlas", pack.label(), name);
  }
  Result<ByteBuffer> chunk = pack.read_chunk(item->name_hash, item->primary);
  if (!chunk) return Unexpected(chunk.error());
  Result<AtlasView> atlas = AtlasView::parse(*chunk, pack.label());
  if (!atlas) return Unexpected(atlas.error());
  const pack::PackItem* texture_item = pack.find_item_hash(atlas->texture_name_hash());
  if (texture_item == nullptr) {
    return fail(ErrorCode::kNotFound, "{}: the atlas' texture is missing", pack.label());
  }
  Result<ByteBuffer> texture_bytes =
      pack.read_chunk(texture_item->name_hash, texture_item->primary);
  if (!texture_bytes) return Unexpected(texture_bytes.error());
  Result<Texture> texture = Texture::view(*texture_bytes, pack.label());
  if (!texture) return Unexpected(texture.error());
  if (texture->width() != atlas->width() || texture->height() != atlas->height()) {
    return fail(ErrorCode::kCorrupt, "{}: atlas '{}' is {}x{}, its texture {}x{}", pack.label(),
                name, atlas->width(), atlas->height(), texture->width(), texture->height());
  }
  const std::vector<u8> rgba = decode_level_rgba8(texture->format(), texture->level(0));
  if (rgba.empty()) return fail(ErrorCode::kCorrupt, "{}: atlas texture damaged", pack.label());
  Picture p{.width = atlas->width(), .height = atlas->height(), .rgba = {}};
  p.rgba.resize(usize{p.width} * p.height * 4);
  for (u32 y = 0; y < p.height; ++y) {
    for (u32 x = 0; x < p.width; ++x) {
      const u8* s = &rgba[(usize{y} * p.width + x) * 4];
      const u32 check = ((x / 8 + y / 8) % 2) != 0 ? 200 : 150;  // transparency shows
      const u32 a = s[3];
      u8* d = &p.rgba[(usize{y} * p.width + x) * 4];
      for (int c = 0; c < 3; ++c) d[c] = static_cast<u8>((s[c] * a + check * (255 - a)) / 255);
      d[3] = 255;
    }
  }
  for (const AtlasFrame& f : *atlas) {  // magenta boxes just outside each frame
    const u32 x0 = f.x > 0 ? f.x - 1u : 0u;
    const u32 y0 = f.y > 0 ? f.y - 1u : 0u;
    const u32 x1 = u32{f.x} + f.width;
    const u32 y1 = u32{f.y} + f.height;
    for (u32 x = x0; x <= x1; ++x) {
      put(p, x, y0, 255, 0, 255);
      put(p, x, y1, 255, 0, 255);
    }
    for (u32 y = y0; y <= y1; ++y) {
      put(p, x0, y, 255, 0, 255);
      put(p, x1, y, 255, 0, 255);
    }
  }
  return p;
}

}  // namespace keel::assets
