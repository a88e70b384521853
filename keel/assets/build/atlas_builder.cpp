#include "keel/assets/build/atlas_builder.h"

#include <stb/stb_rect_pack.h>

#include <algorithm>
#include <optional>
#include <unordered_set>

namespace keel::assets {
namespace {

struct Size {
  u32 width;
  u32 height;
};

// Power-of-two sizes up to max_size on a side, smallest area first, then wider than tall.
std::vector<Size> candidate_sizes(u32 max_size) {
  std::vector<Size> sizes;
  for (u32 w = 1; w <= max_size; w *= 2) {
    for (u32 h = 1; h <= max_size; h *= 2) sizes.push_back({w, h});
  }
  std::sort(sizes.begin(), sizes.end(), [](Size a, Size b) {
    const u64 area_a = u64{a.width} * a.height;
    const u64 area_b = u64{b.width} * b.height;
    return area_a != area_b ? area_a < area_b : a.width > b.width;
  });
  return sizes;
}

// Places every rectangle inside width x height; false when one does not fit.
bool try_pack(std::vector<stbrp_rect>& rects, Size size) {
  std::vector<stbrp_node> nodes(size.width);
  stbrp_context context;
  stbrp_init_target(&context, static_cast<int>(size.width), static_cast<int>(size.height),
                    nodes.data(), static_cast<int>(nodes.size()));
  stbrp_setup_heuristic(&context, STBRP_HEURISTIC_Skyline_BL_sortHeight);
  return stbrp_pack_rects(&context, rects.data(), static_cast<int>(rects.size())) == 1;
}

// Copies the sprite to (x, y) and repeats its edge pixels `pad` times on every side.
void blit_extruded(const AtlasSprite& s, u32 x, u32 y, u32 pad, u32 atlas_width,
                   std::vector<u8>& out) {
  const s64 w = s.width;
  const s64 h = s.height;
  for (s64 ty = -static_cast<s64>(pad); ty < h + pad; ++ty) {
    const s64 sy = std::clamp<s64>(ty, 0, h - 1);
    for (s64 tx = -static_cast<s64>(pad); tx < w + pad; ++tx) {
      const s64 sx = std::clamp<s64>(tx, 0, w - 1);
      const usize from = static_cast<usize>((sy * w + sx) * 4);
      const usize to = static_cast<usize>(((y + ty) * s64{atlas_width} + (x + tx)) * 4);
      std::copy_n(s.rgba.begin() + static_cast<std::ptrdiff_t>(from), 4,
                  out.begin() + static_cast<std::ptrdiff_t>(to));
    }
  }
}

}  // namespace

Result<AtlasBuild> pack_atlas(std::span<const AtlasSprite> sprites,
                              const AtlasPackOptions& options) {
  if (options.max_size == 0 || options.max_size > 16384 || options.padding > 64) {
    return fail(ErrorCode::kInvalidArgument, "atlas: MaxSize is 1 to 16384, Padding 0 to 64");
  }
  std::unordered_set<std::string_view> names;
  std::vector<stbrp_rect> rects;
  u64 ink = 0;
  const u32 pad2 = options.padding * 2;
  for (usize i = 0; i < sprites.size(); ++i) {
    const AtlasSprite& s = sprites[i];
    if (s.width == 0 || s.height == 0 || s.rgba.size() != usize{s.width} * s.height * 4) {
      return fail(ErrorCode::kInvalidArgument, "atlas frame `{}`: empty or malformed image",
                  s.name);
    }
    if (!names.insert(s.name).second) {
      return fail(ErrorCode::kInvalidArgument, "atlas frame `{}` is declared twice", s.name);
    }
    if (s.width + pad2 > options.max_size || s.height + pad2 > options.max_size) {
      return fail(ErrorCode::kInvalidArgument,
                  "atlas frame `{}` ({}x{} + {} padding) is larger than MaxSize {}", s.name,
                  s.width, s.height, options.padding, options.max_size);
    }
    rects.push_back({.id = static_cast<int>(i),
                     .w = static_cast<stbrp_coord>(s.width + pad2),
                     .h = static_cast<stbrp_coord>(s.height + pad2),
                     .x = 0,
                     .y = 0,
                     .was_packed = 0});
    ink += u64{s.width} * s.height;
  }
  u64 needed = 0;
  for (const stbrp_rect& r : rects) needed += u64{static_cast<u32>(r.w)} * static_cast<u32>(r.h);
  std::optional<Size> chosen;
  for (const Size size : candidate_sizes(options.max_size)) {
    if (u64{size.width} * size.height < needed) continue;
    if (try_pack(rects, size)) {
      chosen = size;
      break;
    }
  }
  if (!chosen) {
    return fail(ErrorCode::kInvalidArgument,
                "atlas: {} frames ({} pixels with padding) do not fit in {}x{}", sprites.size(),
                needed, options.max_size, options.max_size);
  }
  AtlasBuild build;
  build.data.width = static_cast<u16>(chosen->width);
  build.data.height = static_cast<u16>(chosen->height);
  build.rgba.assign(usize{chosen->width} * chosen->height * 4, 0);
  for (const stbrp_rect& r : rects) {
    const AtlasSprite& s = sprites[static_cast<usize>(r.id)];
    const u32 x = static_cast<u32>(r.x) + options.padding;
    const u32 y = static_cast<u32>(r.y) + options.padding;
    blit_extruded(s, x, y, options.padding, chosen->width, build.rgba);
    build.data.frames.push_back({.name = s.name,
                                 .x = static_cast<u16>(x),
                                 .y = static_cast<u16>(y),
                                 .width = static_cast<u16>(s.width),
                                 .height = static_cast<u16>(s.height),
                                 .pivot_x = s.pivot_x,
                                 .pivot_y = s.pivot_y});
  }
  build.efficiency = static_cast<f64>(ink) / (static_cast<f64>(chosen->width) * chosen->height);
  return build;
}

}  // namespace keel::assets
