#include "keel/assets/texture.h"

#include "keel/core/assert.h"
#include "keel/pack/format.h"
#include "keel/pack/loader.h"

#include <algorithm>
#include <array>
#include <bit>

namespace keel::assets {
namespace {

struct FormatInfo {
  std::string_view name;
  u32 unit_bytes;  // per pixel, or per 4x4 block
  bool blocks;
};

constexpr std::array<FormatInfo, kTextureFormatCount> kFormats = {{
    {"A8R8G8B8", 4, false},
    {"X8R8G8B8", 4, false},
    {"R5G6B5", 2, false},
    {"A1R5G5B5", 2, false},
    {"A4R4G4B4", 2, false},
    {"A8", 1, false},
    {"L8", 1, false},
    {"BC1", 8, true},
    {"BC2", 16, true},
    {"BC3", 16, true},
    {"BC4", 8, true},
    {"BC5", 16, true},
}};

const FormatInfo* info(TextureFormat format) {
  const u32 index = static_cast<u32>(format);
  if (index == 0 || index > kTextureFormatCount) return nullptr;
  return &kFormats[index - 1];
}

u32 row_bytes(TextureFormat format, u32 width) {
  const FormatInfo* f = info(format);
  if (f == nullptr) return 0;
  return f->blocks ? ((width + 3) / 4) * f->unit_bytes : width * f->unit_bytes;
}

}  // namespace

std::string_view format_name(TextureFormat format) {
  const FormatInfo* f = info(format);
  return f != nullptr ? f->name : std::string_view("?");
}

std::string_view filter_name(TextureFilter filter) {
  switch (filter) {
    case TextureFilter::kPoint: return "point";
    case TextureFilter::kBilinear: return "bilinear";
    case TextureFilter::kTrilinear: return "trilinear";
  }
  return "?";
}

std::string_view wrap_name(TextureWrap wrap) {
  switch (wrap) {
    case TextureWrap::kWrap: return "wrap";
    case TextureWrap::kClamp: return "clamp";
    case TextureWrap::kMirror: return "mirror";
  }
  return "?";
}

bool is_valid(TextureFormat format) { return info(format) != nullptr; }

bool is_block_compressed(TextureFormat format) {
  const FormatInfo* f = info(format);
  return f != nullptr && f->blocks;
}

u32 format_unit_bytes(TextureFormat format) {
  const FormatInfo* f = info(format);
  return f != nullptr ? f->unit_bytes : 0;
}

u32 max_levels(u32 width, u32 height) {
  if (width == 0 || height == 0) return 0;
  return static_cast<u32>(std::bit_width(std::max(width, height)));
}

u32 level_extent(u32 extent, u32 level) {
  if (level >= 32) return extent == 0 ? 0 : 1;
  return std::max<u32>(extent >> level, extent == 0 ? 0 : 1);
}

u64 level_bytes(TextureFormat format, u32 width, u32 height) {
  const FormatInfo* f = info(format);
  if (f == nullptr) return 0;
  const u64 rows = f->blocks ? (u64{height} + 3) / 4 : u64{height};
  return rows * row_bytes(format, width);
}

u64 chain_bytes(TextureFormat format, u32 width, u32 height, u32 levels) {
  u64 total = 0;
  for (u32 i = 0; i < levels; ++i) {
    total += level_bytes(format, level_extent(width, i), level_extent(height, i));
  }
  return total;
}

Result<Texture> Texture::view(ByteSpan chunk, std::string_view label) {
  const auto at = [&](u64 offset) { return SourceLocation::bytes(std::string(label), offset); };
  if (chunk.size() < kTextureHeaderSize) {
    return fail_at(at(0), ErrorCode::kUnderflow,
                   "texture chunk of {} bytes is shorter than its {}-byte header", chunk.size(),
                   kTextureHeaderSize);
  }
  const u8* p = as_u8(chunk).data();
  const auto u16_at = [&](usize o) { return static_cast<u16>(p[o] | (p[o + 1] << 8)); };
  if (pack::load_u32(p) != kTextureMagic) {
    return fail_at(at(0), ErrorCode::kCorrupt, "not a texture chunk (magic is not \"KTEX\")");
  }
  if (u16_at(4) != kTextureVersion) {
    return fail_at(at(4), ErrorCode::kUnsupported, "texture chunk version {} (this build reads {})",
                   u16_at(4), kTextureVersion);
  }
  if (u16_at(6) != kTextureHeaderSize) {
    return fail_at(at(6), ErrorCode::kCorrupt, "texture header size {} (expected {})", u16_at(6),
                   kTextureHeaderSize);
  }
  Texture t;
  t.bytes_ = chunk;
  t.name_hash_ = pack::load_u32(p + 8);
  t.width_ = pack::load_u32(p + 12);
  t.height_ = pack::load_u32(p + 16);
  if (t.width_ == 0 || t.width_ > kMaxTextureSize) {
    return fail_at(at(12), ErrorCode::kOutOfRange, "texture width {} outside 1..{}", t.width_,
                   kMaxTextureSize);
  }
  if (t.height_ == 0 || t.height_ > kMaxTextureSize) {
    return fail_at(at(16), ErrorCode::kOutOfRange, "texture height {} outside 1..{}", t.height_,
                   kMaxTextureSize);
  }
  t.format_ = static_cast<TextureFormat>(p[20]);
  if (!is_valid(t.format_))
    return fail_at(at(20), ErrorCode::kCorrupt, "unknown texture format {}", p[20]);
  t.levels_ = p[21];
  if (t.levels_ == 0 || t.levels_ > max_levels(t.width_, t.height_)) {
    return fail_at(at(21), ErrorCode::kOutOfRange, "{} levels for a {}x{} texture (1..{})",
                   t.levels_, t.width_, t.height_, max_levels(t.width_, t.height_));
  }
  if (p[22] > static_cast<u8>(TextureFilter::kTrilinear)) {
    return fail_at(at(22), ErrorCode::kCorrupt, "unknown texture filter {}", p[22]);
  }
  if (p[23] > static_cast<u8>(TextureWrap::kMirror)) {
    return fail_at(at(23), ErrorCode::kCorrupt, "unknown texture wrap mode {}", p[23]);
  }
  t.filter_ = static_cast<TextureFilter>(p[22]);
  t.wrap_ = static_cast<TextureWrap>(p[23]);
  t.flags_ = pack::load_u32(p + 24);
  if ((t.flags_ & ~kTextureKnownFlags) != 0) {
    return fail_at(at(24), ErrorCode::kUnsupported, "unknown texture flags {:#x}", t.flags_);
  }
  const u64 declared = pack::load_u32(p + 28);
  const u64 expected = chain_bytes(t.format_, t.width_, t.height_, t.levels_);
  if (declared != expected) {
    return fail_at(at(28), ErrorCode::kCorrupt,
                   "texture declares {} level bytes; {} {}x{} with {} levels needs {}", declared,
                   format_name(t.format_), t.width_, t.height_, t.levels_, expected);
  }
  if (chunk.size() != kTextureHeaderSize + expected) {
    return fail_at(at(std::min<u64>(chunk.size(), kTextureHeaderSize + expected)),
                   chunk.size() < kTextureHeaderSize + expected ? ErrorCode::kUnderflow
                                                                : ErrorCode::kTrailingData,
                   "texture chunk is {} bytes; its header describes {}", chunk.size(),
                   kTextureHeaderSize + expected);
  }
  return t;
}

TextureLevel Texture::level(u32 index) const {
  KEEL_ASSERT(index < levels_, "Texture::level: index out of range (check level_count())");
  if (index >= levels_) return {};
  u64 offset = kTextureHeaderSize;
  for (u32 i = 0; i < index; ++i) {
    offset += level_bytes(format_, level_extent(width_, i), level_extent(height_, i));
  }
  TextureLevel out;
  out.width = level_extent(width_, index);
  out.height = level_extent(height_, index);
  out.row_bytes = row_bytes(format_, out.width);
  out.data = bytes_.subspan(offset, level_bytes(format_, out.width, out.height));
  return out;
}

void register_texture_type(pack::Loader& loader) {
  loader.register_type(
      pack::type_hash("Texture"),
      [](pack::SetupContext& ctx) -> Result<void*> {
        Result<Texture> view = Texture::view(ctx.primary());
        if (!view) return Unexpected(view.error());
        return static_cast<void*>(new Texture(*view));
      },
      [](void* asset) { delete static_cast<Texture*>(asset); });
}

}  // namespace keel::assets
