#include "keel/platform/detail/pixels.h"

#include <array>

namespace keel::platform::detail {
namespace {

using assets::TextureFormat;

u32 argb(u32 a, u32 r, u32 g, u32 b) { return (a << 24) | (r << 16) | (g << 8) | b; }
u32 expand(u32 value, u32 bits) {
  return (value * 255u + ((1u << bits) - 1u) / 2u) / ((1u << bits) - 1u);
}

u32 read_le(const std::byte* p, u32 bytes) {
  u32 v = 0;
  for (u32 i = 0; i < bytes; ++i) v |= static_cast<u32>(p[i]) << (8 * i);
  return v;
}

u32 uncompressed_pixel(TextureFormat format, const std::byte* p) {
  switch (format) {
    case TextureFormat::kA8R8G8B8: return read_le(p, 4);
    case TextureFormat::kX8R8G8B8: return read_le(p, 4) | 0xFF000000u;
    case TextureFormat::kR5G6B5: {
      const u32 v = read_le(p, 2);
      return argb(255, expand(v >> 11, 5), expand((v >> 5) & 63, 6), expand(v & 31, 5));
    }
    case TextureFormat::kA1R5G5B5: {
      const u32 v = read_le(p, 2);
      return argb((v >> 15) ? 255 : 0, expand((v >> 10) & 31, 5), expand((v >> 5) & 31, 5),
                  expand(v & 31, 5));
    }
    case TextureFormat::kA4R4G4B4: {
      const u32 v = read_le(p, 2);
      return argb(expand(v >> 12, 4), expand((v >> 8) & 15, 4), expand((v >> 4) & 15, 4),
                  expand(v & 15, 4));
    }
    case TextureFormat::kA8: return argb(static_cast<u32>(p[0]), 255, 255, 255);
    case TextureFormat::kL8: {
      const u32 l = static_cast<u32>(p[0]);
      return argb(255, l, l, l);
    }
    default: return 0;
  }
}

// The four colours of a BC1 colour block (Direct3D's rules; `force_four` for BC2/BC3).
std::array<u32, 4> bc1_palette(const std::byte* block, bool force_four) {
  const u32 c0 = read_le(block, 2);
  const u32 c1 = read_le(block + 2, 2);
  const auto rgb = [](u32 c) {
    return std::array<u32, 3>{expand(c >> 11, 5), expand((c >> 5) & 63, 6), expand(c & 31, 5)};
  };
  const auto a = rgb(c0);
  const auto b = rgb(c1);
  std::array<u32, 4> out{argb(255, a[0], a[1], a[2]), argb(255, b[0], b[1], b[2]), 0, 0};
  if (c0 > c1 || force_four) {
    out[2] = argb(255, (2 * a[0] + b[0]) / 3, (2 * a[1] + b[1]) / 3, (2 * a[2] + b[2]) / 3);
    out[3] = argb(255, (a[0] + 2 * b[0]) / 3, (a[1] + 2 * b[1]) / 3, (a[2] + 2 * b[2]) / 3);
  } else {
    out[2] = argb(255, (a[0] + b[0]) / 2, (a[1] + b[1]) / 2, (a[2] + b[2]) / 2);
    out[3] = 0;  // transparent black
  }
  return out;
}

// The 16 values of a BC3 alpha / BC4 / BC5 channel block (8 bytes).
std::array<u32, 16> channel_block(const std::byte* block) {
  const u32 v0 = static_cast<u32>(block[0]);
  const u32 v1 = static_cast<u32>(block[1]);
  std::array<u32, 8> ramp{v0, v1};
  if (v0 > v1) {
    for (u32 i = 1; i < 7; ++i) ramp[i + 1] = ((7 - i) * v0 + i * v1) / 7;
  } else {
    for (u32 i = 1; i < 5; ++i) ramp[i + 1] = ((5 - i) * v0 + i * v1) / 5;
    ramp[6] = 0;
    ramp[7] = 255;
  }
  u64 bits = 0;
  for (u32 i = 0; i < 6; ++i) bits |= static_cast<u64>(block[2 + i]) << (8 * i);
  std::array<u32, 16> out{};
  for (u32 i = 0; i < 16; ++i) out[i] = ramp[(bits >> (3 * i)) & 7];
  return out;
}

// One 4x4 block as 16 ARGB pixels (row-major).
std::array<u32, 16> decode_block(TextureFormat format, const std::byte* block) {
  std::array<u32, 16> px{};
  switch (format) {
    case TextureFormat::kBC1: {
      const auto pal = bc1_palette(block, false);
      const u32 idx = read_le(block + 4, 4);
      for (u32 i = 0; i < 16; ++i) px[i] = pal[(idx >> (2 * i)) & 3];
      break;
    }
    case TextureFormat::kBC2:
    case TextureFormat::kBC3: {
      const auto pal = bc1_palette(block + 8, true);
      const u32 idx = read_le(block + 12, 4);
      std::array<u32, 16> alpha{};
      if (format == TextureFormat::kBC3) {
        alpha = channel_block(block);
      } else {
        for (u32 i = 0; i < 16; ++i) {
          alpha[i] = expand((static_cast<u32>(block[i / 2]) >> (4 * (i & 1))) & 15, 4);
        }
      }
      for (u32 i = 0; i < 16; ++i)
        px[i] = (pal[(idx >> (2 * i)) & 3] & 0xFFFFFFu) | (alpha[i] << 24);
      break;
    }
    case TextureFormat::kBC4: {
      const auto red = channel_block(block);
      for (u32 i = 0; i < 16; ++i) px[i] = argb(255, red[i], red[i], red[i]);
      break;
    }
    case TextureFormat::kBC5: {
      const auto red = channel_block(block);
      const auto green = channel_block(block + 8);
      for (u32 i = 0; i < 16; ++i) px[i] = argb(255, red[i], green[i], 0);
      break;
    }
    default: break;
  }
  return px;
}

}  // namespace

Result<std::vector<u32>> to_argb(const assets::Texture& texture, u32 level_index) {
  if (level_index >= texture.level_count()) {
    return fail(ErrorCode::kInvalidArgument, "texture level {} of {}", level_index,
                texture.level_count());
  }
  const assets::TextureLevel level = texture.level(level_index);
  const TextureFormat format = texture.format();
  const u32 unit = assets::format_unit_bytes(format);
  std::vector<u32> out(static_cast<usize>(level.width) * level.height);
  if (!assets::is_block_compressed(format)) {
    for (u32 y = 0; y < level.height; ++y) {
      const std::byte* row = level.data.data() + static_cast<usize>(y) * level.row_bytes;
      for (u32 x = 0; x < level.width; ++x) {
        out[static_cast<usize>(y) * level.width + x] = uncompressed_pixel(format, row + x * unit);
      }
    }
    return out;
  }
  const u32 blocks_x = (level.width + 3) / 4;
  const u32 blocks_y = (level.height + 3) / 4;
  for (u32 by = 0; by < blocks_y; ++by) {
    for (u32 bx = 0; bx < blocks_x; ++bx) {
      const std::byte* block =
          level.data.data() + static_cast<usize>(by) * level.row_bytes + bx * unit;
      const std::array<u32, 16> px = decode_block(format, block);
      for (u32 i = 0; i < 16; ++i) {
        const u32 x = bx * 4 + (i & 3);
        const u32 y = by * 4 + i / 4;
        if (x < level.width && y < level.height)
          out[static_cast<usize>(y) * level.width + x] = px[i];
      }
    }
  }
  return out;
}

}  // namespace keel::platform::detail
