#include "keel/assets/build/texture_writer.h"

#include "keel/core/hash.h"
#include "keel/pack/format.h"

#include <squish.h>
#include <stb/stb_dxt.h>

#include <algorithm>
#include <array>
#include <cmath>

namespace keel::assets {
namespace {

u32 quantise(f32 value, u32 max) {
  if (!(value > 0.0f)) return 0;
  if (value >= 1.0f) return max;
  return static_cast<u32>(std::floor(value * static_cast<f32>(max) + 0.5f));
}

void put16(ByteBuffer& out, usize at, u32 v) {
  out[at] = static_cast<std::byte>(v & 0xFF);
  out[at + 1] = static_cast<std::byte>((v >> 8) & 0xFF);
}

ByteBuffer encode_plain(const Image& level, TextureFormat format) {
  const u32 unit = format_unit_bytes(format);
  ByteBuffer out(level.pixels().size() * unit);
  usize at = 0;
  for (const Rgba& p : level.pixels()) {
    switch (format) {
      case TextureFormat::kA8R8G8B8:
      case TextureFormat::kX8R8G8B8:
        out[at + 0] = static_cast<std::byte>(to_u8(p.b));
        out[at + 1] = static_cast<std::byte>(to_u8(p.g));
        out[at + 2] = static_cast<std::byte>(to_u8(p.r));
        out[at + 3] = static_cast<std::byte>(format == TextureFormat::kA8R8G8B8 ? to_u8(p.a) : 255);
        break;
      case TextureFormat::kR5G6B5:
        put16(out, at, quantise(p.r, 31) << 11 | quantise(p.g, 63) << 5 | quantise(p.b, 31));
        break;
      case TextureFormat::kA1R5G5B5:
        put16(out, at,
              (p.a >= 0.5f ? 0x8000u : 0u) | quantise(p.r, 31) << 10 | quantise(p.g, 31) << 5 |
                  quantise(p.b, 31));
        break;
      case TextureFormat::kA4R4G4B4:
        put16(out, at,
              quantise(p.a, 15) << 12 | quantise(p.r, 15) << 8 | quantise(p.g, 15) << 4 |
                  quantise(p.b, 15));
        break;
      case TextureFormat::kA8: out[at] = static_cast<std::byte>(to_u8(p.a)); break;
      case TextureFormat::kL8: out[at] = static_cast<std::byte>(to_u8(gray_of(p))); break;
      default: break;
    }
    at += unit;
  }
  return out;
}

// BC2's alpha half: sixteen 4-bit values, row by row, low nibble first.
void explicit_alpha(const u8* rgba, u8* out) {
  for (int i = 0; i < 8; ++i) {
    const u32 lo = (rgba[(i * 2) * 4 + 3] * 15u + 127u) / 255u;
    const u32 hi = (rgba[(i * 2 + 1) * 4 + 3] * 15u + 127u) / 255u;
    out[i] = static_cast<u8>(lo | (hi << 4));
  }
}

void compress_block(TextureFormat format, BlockQuality quality, const u8* rgba, u8* out) {
  if (quality == BlockQuality::kBest) {
    int flags = squish::kColourIterativeClusterFit;
    switch (format) {
      case TextureFormat::kBC1: flags |= squish::kDxt1; break;
      case TextureFormat::kBC2: flags |= squish::kDxt3; break;
      case TextureFormat::kBC3: flags |= squish::kDxt5; break;
      case TextureFormat::kBC4: flags |= squish::kBc4; break;
      default: flags |= squish::kBc5; break;
    }
    squish::Compress(rgba, out, flags);
    return;
  }
  switch (format) {
    case TextureFormat::kBC1: stb_compress_dxt_block(out, rgba, 0, STB_DXT_HIGHQUAL); break;
    case TextureFormat::kBC2:
      explicit_alpha(rgba, out);
      stb_compress_dxt_block(out + 8, rgba, 0, STB_DXT_HIGHQUAL);
      break;
    case TextureFormat::kBC3: stb_compress_dxt_block(out, rgba, 1, STB_DXT_HIGHQUAL); break;
    case TextureFormat::kBC4: {
      std::array<u8, 16> red{};
      for (int i = 0; i < 16; ++i) red[i] = rgba[i * 4];
      stb_compress_bc4_block(out, red.data());
      break;
    }
    default: {
      std::array<u8, 32> rg{};
      for (int i = 0; i < 16; ++i) {
        rg[i * 2] = rgba[i * 4];
        rg[i * 2 + 1] = rgba[i * 4 + 1];
      }
      stb_compress_bc5_block(out, rg.data());
      break;
    }
  }
}

ByteBuffer encode_blocks(const Image& level, TextureFormat format, BlockQuality quality,
                         bool premultiply) {
  const u32 w = level.width();
  const u32 h = level.height();
  std::vector<u8> rgba = level.to_rgba8();
  if (premultiply) {
    for (usize i = 0; i < rgba.size(); i += 4) {
      for (usize c = 0; c < 3; ++c)
        rgba[i + c] = static_cast<u8>((rgba[i + c] * rgba[i + 3] + 127) / 255);
    }
  }
  const u32 unit = format_unit_bytes(format);
  const u32 bw = (w + 3) / 4;
  const u32 bh = (h + 3) / 4;
  ByteBuffer out(usize{bw} * bh * unit);
  std::array<u8, 64> block{};
  for (u32 by = 0; by < bh; ++by) {
    for (u32 bx = 0; bx < bw; ++bx) {
      for (u32 i = 0; i < 16; ++i) {  // edge pixels repeat into a partial block
        const u32 x = std::min(bx * 4 + i % 4, w - 1);
        const u32 y = std::min(by * 4 + i / 4, h - 1);
        std::copy_n(&rgba[(usize{y} * w + x) * 4], 4, &block[i * 4]);
      }
      u8* dst = as_u8(MutableByteSpan(out)).data() + (usize{by} * bw + bx) * unit;
      compress_block(format, quality, block.data(), dst);
    }
  }
  return out;
}

// squish::Decompress reads BC4/BC5 as DXT1; their channel blocks are DXT5 alpha blocks, so each
// is decoded as the alpha of a DXT5 block.
void decompress_block(TextureFormat format, int flags, const u8* src, u8* rgba) {
  if (format != TextureFormat::kBC4 && format != TextureFormat::kBC5) {
    squish::Decompress(rgba, src, flags);
    return;
  }
  std::array<u8, 16> dxt5{};
  std::array<u8, 64> decoded{};
  for (int channel = 0; channel < (format == TextureFormat::kBC5 ? 2 : 1); ++channel) {
    std::copy_n(src + channel * 8, 8, dxt5.data());
    squish::Decompress(decoded.data(), dxt5.data(), squish::kDxt5);
    for (int i = 0; i < 16; ++i) rgba[i * 4 + channel] = decoded[i * 4 + 3];
  }
  for (int i = 0; i < 16; ++i) {
    if (format == TextureFormat::kBC4) rgba[i * 4 + 1] = rgba[i * 4];
    rgba[i * 4 + 2] = format == TextureFormat::kBC4 ? rgba[i * 4] : 0;
    rgba[i * 4 + 3] = 255;
  }
}

Result<ByteBuffer> write_levels(const TextureWriteOptions& options, std::span<const Image> levels) {
  if (!is_valid(options.format)) {
    return fail(ErrorCode::kInvalidArgument, "texture '{}': unknown format {}", options.name,
                static_cast<u32>(options.format));
  }
  if (levels.empty())
    return fail(ErrorCode::kInvalidArgument, "texture '{}': no levels", options.name);
  const u32 w = levels[0].width();
  const u32 h = levels[0].height();
  if (w == 0 || h == 0 || w > kMaxTextureSize || h > kMaxTextureSize) {
    return fail(ErrorCode::kInvalidArgument, "texture '{}': level 0 is {}x{} (1..{} each way)",
                options.name, w, h, kMaxTextureSize);
  }
  if (levels.size() > max_levels(w, h)) {
    return fail(ErrorCode::kInvalidArgument, "texture '{}': {} levels for {}x{} (at most {})",
                options.name, levels.size(), w, h, max_levels(w, h));
  }
  for (u32 i = 1; i < levels.size(); ++i) {
    if (levels[i].width() != level_extent(w, i) || levels[i].height() != level_extent(h, i)) {
      return fail(ErrorCode::kInvalidArgument, "texture '{}': level {} is {}x{}, expected {}x{}",
                  options.name, i, levels[i].width(), levels[i].height(), level_extent(w, i),
                  level_extent(h, i));
    }
  }
  const u64 data_bytes = chain_bytes(options.format, w, h, static_cast<u32>(levels.size()));
  ByteBuffer out(kTextureHeaderSize);
  out.reserve(kTextureHeaderSize + data_bytes);
  u8* p = as_u8(MutableByteSpan(out)).data();
  pack::store_u32(p, kTextureMagic);
  p[4] = static_cast<u8>(kTextureVersion & 0xFF);
  p[5] = static_cast<u8>(kTextureVersion >> 8);
  p[6] = static_cast<u8>(kTextureHeaderSize & 0xFF);
  p[7] = static_cast<u8>(kTextureHeaderSize >> 8);
  pack::store_u32(p + 8, string_hash(options.name));
  pack::store_u32(p + 12, w);
  pack::store_u32(p + 16, h);
  p[20] = static_cast<u8>(options.format);
  p[21] = static_cast<u8>(levels.size());
  p[22] = static_cast<u8>(options.filter);
  p[23] = static_cast<u8>(options.wrap);
  pack::store_u32(p + 24, options.premultiply ? kTextureFlagPremultiplied : 0u);
  pack::store_u32(p + 28, static_cast<u32>(data_bytes));
  for (const Image& level : levels) {
    const ByteBuffer bytes =
        encode_level(level, options.format, options.quality, options.premultiply);
    out.insert(out.end(), bytes.begin(), bytes.end());
  }
  return out;
}

}  // namespace

ByteBuffer encode_level(const Image& level, TextureFormat format, BlockQuality quality,
                        bool premultiply) {
  if (level.empty() || !is_valid(format)) return {};
  if (is_block_compressed(format)) return encode_blocks(level, format, quality, premultiply);
  if (!premultiply) return encode_plain(level, format);
  Image pre = level;
  for (Rgba& p : pre.pixels()) p = {p.r * p.a, p.g * p.a, p.b * p.a, p.a};
  return encode_plain(pre, format);
}

Result<ByteBuffer> write_texture(const TextureWriteOptions& options,
                                 std::span<const Image> levels) {
  return write_levels(options, levels);
}

Result<ByteBuffer> write_texture(const TextureWriteOptions& options,
                                 std::span<const PixelsU8> levels) {
  std::vector<Image> images;
  images.reserve(levels.size());
  for (usize i = 0; i < levels.size(); ++i) {
    const PixelsU8& l = levels[i];
    if (l.channels < 1 || l.channels > 4 ||
        l.data.size() != usize{l.width} * l.height * l.channels) {
      return fail(ErrorCode::kInvalidArgument,
                  "texture '{}': level {} has {} bytes for {}x{} with {} channels", options.name, i,
                  l.data.size(), l.width, l.height, l.channels);
    }
    images.push_back(Image::from_u8(l.width, l.height, l.data, l.channels));
  }
  return write_levels(options, images);
}

std::vector<u8> decode_level_rgba8(TextureFormat format, const TextureLevel& level) {
  const u32 w = level.width;
  const u32 h = level.height;
  if (!is_valid(format) || w == 0 || h == 0 || level.data.size() != level_bytes(format, w, h))
    return {};
  std::vector<u8> out(usize{w} * h * 4);
  const u8* src = as_u8(level.data).data();
  if (is_block_compressed(format)) {
    int flags = squish::kDxt1;
    if (format == TextureFormat::kBC2) flags = squish::kDxt3;
    if (format == TextureFormat::kBC3) flags = squish::kDxt5;
    if (format == TextureFormat::kBC4) flags = squish::kBc4;
    if (format == TextureFormat::kBC5) flags = squish::kBc5;
    const u32 unit = format_unit_bytes(format);
    const u32 bw = (w + 3) / 4;
    std::array<u8, 64> block{};
    for (u32 by = 0; by < (h + 3) / 4; ++by) {
      for (u32 bx = 0; bx < bw; ++bx) {
        decompress_block(format, flags, src + (usize{by} * bw + bx) * unit, block.data());
        for (u32 i = 0; i < 16; ++i) {
          const u32 x = bx * 4 + i % 4;
          const u32 y = by * 4 + i / 4;
          if (x < w && y < h) std::copy_n(&block[i * 4], 4, &out[(usize{y} * w + x) * 4]);
        }
      }
    }
    return out;
  }
  const auto expand = [](u32 v, u32 max) { return static_cast<u8>((v * 255 + max / 2) / max); };
  for (usize i = 0; i < usize{w} * h; ++i) {
    u8* o = &out[i * 4];
    const u32 v16 = format_unit_bytes(format) == 2 ? src[i * 2] | (src[i * 2 + 1] << 8) : 0;
    switch (format) {
      case TextureFormat::kA8R8G8B8:
      case TextureFormat::kX8R8G8B8:
        o[0] = src[i * 4 + 2];
        o[1] = src[i * 4 + 1];
        o[2] = src[i * 4 + 0];
        o[3] = format == TextureFormat::kA8R8G8B8 ? src[i * 4 + 3] : 255;
        break;
      case TextureFormat::kR5G6B5:
        o[0] = expand(v16 >> 11, 31), o[1] = expand((v16 >> 5) & 63, 63),
        o[2] = expand(v16 & 31, 31), o[3] = 255;
        break;
      case TextureFormat::kA1R5G5B5:
        o[0] = expand((v16 >> 10) & 31, 31), o[1] = expand((v16 >> 5) & 31, 31),
        o[2] = expand(v16 & 31, 31);
        o[3] = (v16 & 0x8000) != 0 ? 255 : 0;
        break;
      case TextureFormat::kA4R4G4B4:
        o[0] = expand((v16 >> 8) & 15, 15), o[1] = expand((v16 >> 4) & 15, 15),
        o[2] = expand(v16 & 15, 15);
        o[3] = expand(v16 >> 12, 15);
        break;
      case TextureFormat::kA8: o[0] = o[1] = o[2] = 255, o[3] = src[i]; break;
      default: o[0] = o[1] = o[2] = src[i], o[3] = 255; break;  // L8
    }
  }
  return out;
}

}  // namespace keel::assets
