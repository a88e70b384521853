#include "keel/assets/atlas.h"

#include "keel/assets/detail/little_endian.h"
#include "keel/core/assert.h"
#include "keel/pack/loader.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

namespace keel::assets {
namespace {

using detail::get16;
using detail::get32;
using detail::put16;
using detail::put32;

// A frame record's fields, as byte offsets inside the record.
constexpr usize kHashAt = 0;
constexpr usize kRectAt = 4;
constexpr usize kPivotAt = 12;
constexpr usize kNameAt = 20;

Unexpected corrupt(std::string_view label, usize offset, std::string_view what) {
  return fail_at(SourceLocation::bytes(std::string(label), offset), ErrorCode::kCorrupt, "{}",
                 what);
}

f32 get_f32(ByteSpan bytes, usize at) { return std::bit_cast<f32>(get32(bytes, at)); }

}  // namespace

std::string atlas_texture_name(std::string_view atlas_name) {
  return std::string(atlas_name) + "_texture";
}

Result<ByteBuffer> encode_atlas(const AtlasData& atlas) {
  std::vector<const AtlasData::Frame*> order;
  order.reserve(atlas.frames.size());
  for (const AtlasData::Frame& f : atlas.frames) {
    if (f.width == 0 || f.height == 0 || u32{f.x} + f.width > atlas.width ||
        u32{f.y} + f.height > atlas.height) {
      return fail(ErrorCode::kInvalidArgument, "atlas frame `{}` ({},{} {}x{}) is not inside {}x{}",
                  f.name, f.x, f.y, f.width, f.height, atlas.width, atlas.height);
    }
    order.push_back(&f);
  }
  std::sort(order.begin(), order.end(), [](const AtlasData::Frame* a, const AtlasData::Frame* b) {
    const Hash ha = string_hash(a->name);
    const Hash hb = string_hash(b->name);
    return ha != hb ? ha < hb : a->name < b->name;
  });
  for (usize i = 1; i < order.size(); ++i) {
    if (string_hash(order[i - 1]->name) == string_hash(order[i]->name)) {
      return fail(ErrorCode::kInvalidArgument, "atlas frames `{}` and `{}` have the same name hash",
                  order[i - 1]->name, order[i]->name);
    }
  }
  std::string strings;
  ByteBuffer out;
  put32(out, kAtlasMagic);
  put32(out, kAtlasVersion);
  put32(out, atlas.texture_name_hash);
  put16(out, atlas.width);
  put16(out, atlas.height);
  put32(out, static_cast<u32>(order.size()));
  usize total = 0;
  for (const AtlasData::Frame* f : order) total += f->name.size();
  put32(out, static_cast<u32>(total));
  for (const AtlasData::Frame* f : order) {
    put32(out, string_hash(f->name));
    put16(out, f->x);
    put16(out, f->y);
    put16(out, f->width);
    put16(out, f->height);
    put32(out, std::bit_cast<u32>(f->pivot_x));
    put32(out, std::bit_cast<u32>(f->pivot_y));
    put32(out, static_cast<u32>(strings.size()));
    put32(out, static_cast<u32>(f->name.size()));
    strings += f->name;
  }
  for (const char c : strings) out.push_back(static_cast<std::byte>(c));
  while (out.size() % 4 != 0) out.push_back(std::byte{0});  // padding after the strings
  return out;
}

Result<AtlasView> AtlasView::parse(ByteSpan bytes, std::string_view label) {
  if (bytes.size() < kAtlasHeaderBytes) return corrupt(label, 0, "truncated atlas header");
  if (get32(bytes, 0) != kAtlasMagic) return corrupt(label, 0, "not an atlas chunk (bad magic)");
  if (get32(bytes, 4) != kAtlasVersion) {
    return fail_at(SourceLocation::bytes(std::string(label), 4), ErrorCode::kUnsupported,
                   "atlas chunk version {} (this build reads {})", get32(bytes, 4), kAtlasVersion);
  }
  AtlasView view;
  view.bytes_ = bytes;
  view.texture_name_hash_ = get32(bytes, 8);
  view.width_ = static_cast<u16>(get16(bytes, 12));
  view.height_ = static_cast<u16>(get16(bytes, 14));
  view.frame_count_ = get32(bytes, 16);
  const u64 string_bytes = get32(bytes, 20);
  if (view.width_ == 0 || view.height_ == 0) return corrupt(label, 12, "atlas size is zero");
  const u64 frames_end = kAtlasHeaderBytes + u64{view.frame_count_} * kAtlasFrameBytes;
  if (frames_end > bytes.size()) {
    return corrupt(label, 16, "frame count runs past the end of the chunk");
  }
  // The strings end the chunk, followed by at most 3 bytes of padding.
  if (frames_end + string_bytes > bytes.size() || bytes.size() - (frames_end + string_bytes) > 3) {
    return corrupt(label, 20, "string bytes do not match the chunk's size");
  }
  view.strings_at_ = static_cast<usize>(frames_end);
  Hash previous = 0;
  for (u32 i = 0; i < view.frame_count_; ++i) {
    const usize at = kAtlasHeaderBytes + usize{i} * kAtlasFrameBytes;
    const Hash hash = get32(bytes, at + kHashAt);
    if (i > 0 && hash <= previous) {
      return corrupt(label, at, "frames are not in strictly ascending name-hash order");
    }
    previous = hash;
    const u32 x = get16(bytes, at + kRectAt);
    const u32 y = get16(bytes, at + kRectAt + 2);
    const u32 w = get16(bytes, at + kRectAt + 4);
    const u32 h = get16(bytes, at + kRectAt + 6);
    if (w == 0 || h == 0 || x + w > view.width_ || y + h > view.height_) {
      return corrupt(label, at + kRectAt, "frame rectangle is empty or outside the texture");
    }
    const f32 px = get_f32(bytes, at + kPivotAt);
    const f32 py = get_f32(bytes, at + kPivotAt + 4);
    if (!std::isfinite(px) || !std::isfinite(py)) {
      return corrupt(label, at + kPivotAt, "frame pivot is not a finite number");
    }
    const u64 name_at = get32(bytes, at + kNameAt);
    const u64 name_length = get32(bytes, at + kNameAt + 4);
    if (name_at + name_length > string_bytes) {
      return corrupt(label, at + kNameAt, "frame name runs past the strings");
    }
    const std::string_view name(
        reinterpret_cast<const char*>(bytes.data()) + view.strings_at_ + name_at,
        static_cast<usize>(name_length));
    if (string_hash(name) != hash) {
      return corrupt(label, at + kHashAt, "frame name hash does not match its name");
    }
  }
  return view;
}

AtlasFrame AtlasView::frame(u32 index) const {
  KEEL_ASSERT(index < frame_count_, "AtlasView::frame: index out of range");
  if (index >= frame_count_) return {};
  const usize at = kAtlasHeaderBytes + usize{index} * kAtlasFrameBytes;
  AtlasFrame f;
  f.name_hash = get32(bytes_, at + kHashAt);
  f.x = static_cast<u16>(get16(bytes_, at + kRectAt));
  f.y = static_cast<u16>(get16(bytes_, at + kRectAt + 2));
  f.width = static_cast<u16>(get16(bytes_, at + kRectAt + 4));
  f.height = static_cast<u16>(get16(bytes_, at + kRectAt + 6));
  f.pivot_x = get_f32(bytes_, at + kPivotAt);
  f.pivot_y = get_f32(bytes_, at + kPivotAt + 4);
  f.name = std::string_view(
      reinterpret_cast<const char*>(bytes_.data()) + strings_at_ + get32(bytes_, at + kNameAt),
      get32(bytes_, at + kNameAt + 4));
  return f;
}

std::optional<AtlasFrame> AtlasView::find_hash(Hash name_hash) const {
  u32 lo = 0;
  u32 hi = frame_count_;
  while (lo < hi) {
    const u32 mid = lo + (hi - lo) / 2;
    const Hash h = get32(bytes_, kAtlasHeaderBytes + usize{mid} * kAtlasFrameBytes + kHashAt);
    if (h == name_hash) return frame(mid);
    if (h < name_hash) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return std::nullopt;
}

std::optional<AtlasFrame> AtlasView::find(std::string_view name) const {
  std::optional<AtlasFrame> f = find_hash(string_hash(name));
  if (f && f->name != name) return std::nullopt;  // another name with the same hash
  return f;
}

AtlasUv AtlasView::uv(const AtlasFrame& frame, f32 inset) const {
  const f32 w = width_;
  const f32 h = height_;
  const f32 ix = std::min(inset, frame.width * 0.5f);
  const f32 iy = std::min(inset, frame.height * 0.5f);
  return {(frame.x + ix) / w, (frame.y + iy) / h, (frame.x + frame.width - ix) / w,
          (frame.y + frame.height - iy) / h};
}

void register_atlas_type(pack::Loader& loader) {
  loader.register_type(
      pack::type_hash(kAtlasType),
      [](pack::SetupContext& ctx) -> Result<void*> {
        Result<AtlasView> view = AtlasView::parse(ctx.primary(), "atlas chunk");
        if (!view) return Unexpected(view.error());
        return static_cast<void*>(new AtlasView(*view));
      },
      [](void* asset) { delete static_cast<AtlasView*>(asset); });
}

}  // namespace keel::assets
