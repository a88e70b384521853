#include "keel/assets/build/texture_preview.h"
#include "keel/assets/build/preview.h"
#include "keel/assets/build/texture_writer.h"
#include "keel/assets/texture.h"
#include "keel/core/file.h"

#include <stb/stb_image_write.h>

#include <algorithm>
#include <climits>
#include <string>

namespace keel::assets {
namespace {

constexpr u32 kGap = 4;          // pixels between levels on the sheet
constexpr u32 kMinLevel0 = 128;  // small textures are enlarged (nearest) to at least this
constexpr u32 kChecker = 8;      // checkerboard cell behind transparent pixels

// Draws `rgba` (w x h) enlarged `scale` times at (x0, y0), blended over a checkerboard
// (premultiplied colour is added, not multiplied, by alpha).
void blit(Picture& sheet, const std::vector<u8>& rgba, u32 w, u32 h, u32 scale, u32 x0, u32 y0,
          bool premultiplied) {
  for (u32 y = 0; y < h * scale; ++y) {
    for (u32 x = 0; x < w * scale; ++x) {
      const u8* s = &rgba[(usize{y / scale} * w + x / scale) * 4];
      u8* d = &sheet.rgba[(usize{y0 + y} * sheet.width + x0 + x) * 4];
      const u32 back = ((x / kChecker + y / kChecker) % 2 == 0) ? 200 : 150;
      for (int c = 0; c < 3; ++c) {
        const u32 color = premultiplied ? s[c] * 255u : u32{s[c]} * s[3];
        d[c] = static_cast<u8>(std::min<u32>(255, (color + back * (255u - s[3]) + 127) / 255));
      }
      d[3] = 255;
    }
  }
}

}  // namespace

Result<Picture> picture_of_texture(const pack::PackFile& pack, std::string_view name) {
  const pack::PackItem* item = pack.find_item(name);
  if (item == nullptr) {
    return fail(ErrorCode::kNotFound, "{}: no asset '{}'", pack.label(), name);
  }
  Result<ByteBuffer> chunk = pack.read_chunk(item->name_hash, item->primary);
  if (!chunk) return Unexpected(chunk.error());
  Result<Texture> texture = Texture::view(*chunk, pack.label() + ":" + std::string(name));
  if (!texture) return Unexpected(texture.error());
  return texture_contact_sheet(*texture);
}

Result<Picture> texture_contact_sheet(const Texture& view) {
  const Texture* texture = &view;
  const u32 w0 = texture->width();
  const u32 h0 = texture->height();
  const u32 scale = std::max<u32>(1, kMinLevel0 / std::max(w0, h0));
  // Level 0 on the left, the smaller levels in a column beside it (the book's Figure 6.1 idea).
  Picture sheet;
  u32 column_height = 0;
  u32 column_width = 0;
  for (u32 i = 1; i < texture->level_count(); ++i) {
    column_height += level_extent(h0, i) * scale + (i > 1 ? kGap : 0);
    column_width = std::max(column_width, level_extent(w0, i) * scale);
  }
  sheet.width = w0 * scale + (column_width > 0 ? kGap + column_width : 0);
  sheet.height = std::max(h0 * scale, column_height);
  sheet.rgba.assign(usize{sheet.width} * sheet.height * 4, 0);
  for (usize i = 3; i < sheet.rgba.size(); i += 4) sheet.rgba[i] = 255;  // opaque black background
  u32 y = 0;
  for (u32 i = 0; i < texture->level_count(); ++i) {
    const TextureLevel level = texture->level(i);
    const std::vector<u8> rgba = decode_level_rgba8(texture->format(), level);
    if (rgba.empty())
      return fail(ErrorCode::kCorrupt, "texture {:#x}: level {} does not decode",
                  texture->name_hash(), i);
    if (i == 0) {
      blit(sheet, rgba, level.width, level.height, scale, 0, 0, texture->premultiplied());
    } else {
      blit(sheet, rgba, level.width, level.height, scale, w0 * scale + kGap, y,
           texture->premultiplied());
      y += level.height * scale + kGap;
    }
  }
  return sheet;
}

Status write_png(const Picture& picture, const std::filesystem::path& path) {
  if (picture.width == 0 || picture.height == 0 || picture.width > INT_MAX / 4 ||
      picture.rgba.size() != usize{picture.width} * picture.height * 4) {
    return fail(ErrorCode::kInvalidArgument, "write_png({}): a {}x{} picture with {} bytes",
                path.string(), picture.width, picture.height, picture.rgba.size());
  }
  ByteBuffer png;
  const auto sink = [](void* context, void* data, int size) {
    auto* out = static_cast<ByteBuffer*>(context);
    const auto* bytes = static_cast<const std::byte*>(data);
    out->insert(out->end(), bytes, bytes + size);
  };
  const int ok = stbi_write_png_to_func(sink, &png, static_cast<int>(picture.width),
                                        static_cast<int>(picture.height), 4, picture.rgba.data(),
                                        static_cast<int>(picture.width * 4));
  if (ok == 0) return fail(ErrorCode::kIo, "write_png({}): stb_image_write failed", path.string());
  return write_file_atomic(path, png);
}

}  // namespace keel::assets
