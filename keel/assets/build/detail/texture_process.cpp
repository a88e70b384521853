#include "keel/assets/build/detail/texture_process.h"

#include "keel/assets/build/detail/texture_formats.h"
#include "keel/assets/build/texture_writer.h"

#include <algorithm>
#include <optional>

namespace keel::assets::detail {
namespace {

f32 component(const Rgba& p, u32 c) {
  switch (c) {
    case 0: return p.r;
    case 1: return p.g;
    case 2: return p.b;
    default: return p.a;
  }
}

void set_component(Rgba& p, u32 c, f32 v) {
  switch (c) {
    case 0: p.r = v; break;
    case 1: p.g = v; break;
    case 2: p.b = v; break;
    default: p.a = v; break;
  }
}

f32 reduce(const Rgba& p, ChannelOp op, u8 mask) {
  f32 best = op == ChannelOp::kMin ? 1e30f : -1e30f;
  f32 sum = 0.0f;
  u32 count = 0;
  for (u32 c = 0; c < 4; ++c) {
    if ((mask & (1u << c)) == 0) continue;
    const f32 v = component(p, c);
    best = op == ChannelOp::kMin ? std::min(best, v) : std::max(best, v);
    sum += v;
    ++count;
  }
  return op == ChannelOp::kAvg ? sum / static_cast<f32>(count) : best;
}

bool uses(const ImageSpec& image, ChannelOp a, ChannelOp b = ChannelOp::kCopy,
          ChannelOp c = ChannelOp::kCopy) {
  return std::ranges::any_of(image.channels, [&](const ChannelSpec& s) {
    return s.op == a || (b != ChannelOp::kCopy && s.op == b) ||
           (c != ChannelOp::kCopy && s.op == c);
  });
}

void apply_image(const TextureSpec& spec, const ImageSpec& image, const Image& src, Image& canvas) {
  std::optional<Image> normals;
  if (uses(image, ChannelOp::kNx, ChannelOp::kNy, ChannelOp::kNz)) {
    normals = src.normal_map(spec.normal_height, spec.wrap == TextureWrap::kWrap);
  }
  const std::span<const Rgba> in = src.pixels();
  const std::span<Rgba> out = canvas.pixels();
  for (usize i = 0; i < out.size(); ++i) {
    const Rgba& p = in[i];
    for (u32 c = 0; c < 4; ++c) {
      const ChannelSpec& s = image.channels[c];
      f32 v = 0.0f;
      switch (s.op) {
        case ChannelOp::kNone: continue;
        case ChannelOp::kCopy: v = component(p, c); break;
        case ChannelOp::kChannel: v = component(p, s.channel); break;
        case ChannelOp::kMax:
        case ChannelOp::kMin:
        case ChannelOp::kAvg: v = reduce(p, s.op, s.mask); break;
        case ChannelOp::kNx: v = normals->pixels()[i].r; break;
        case ChannelOp::kNy: v = normals->pixels()[i].g; break;
        case ChannelOp::kNz: v = normals->pixels()[i].b; break;
        case ChannelOp::kGray: v = gray_of(p); break;
      }
      set_component(out[i], c, v);
    }
  }
}

void to_linear(Image& image) {
  for (Rgba& p : image.pixels())
    p = {srgb_to_linear(p.r), srgb_to_linear(p.g), srgb_to_linear(p.b), p.a};
}

Image to_srgb(const Image& linear) {
  Image out = linear;
  for (Rgba& p : out.pixels())
    p = {linear_to_srgb(p.r), linear_to_srgb(p.g), linear_to_srgb(p.b), p.a};
  return out;
}

Image crop(const Image& src, u32 x0, u32 y0, u32 w, u32 h) {
  Image out(w, h);
  for (u32 y = 0; y < h; ++y) {
    for (u32 x = 0; x < w; ++x) out.at(x, y) = src.at(x0 + x, y0 + y);
  }
  return out;
}

// The artist's chain: level 0 at (0,0), the smaller levels in a column at x = W from y = 0.
Result<std::vector<Image>> cut_artist_levels(const TextureSpec& spec, const Image& canvas) {
  const u32 h = canvas.height();
  u32 w = 0;
  for (u32 candidate = canvas.width() * 2 / 3; candidate <= canvas.width(); ++candidate) {
    if (candidate > 0 && candidate + level_extent(candidate, 1) == canvas.width()) {
      w = candidate;
      break;
    }
  }
  if (w == 0 || w == canvas.width()) {
    return fail(
        ErrorCode::kInvalidArgument,
        "texture \"{}\": ArtistMips expects level 0 (W x H) with the smaller levels in a column "
        "beside it (1.5W x H); {}x{} is not such a layout",
        spec.name, canvas.width(), canvas.height());
  }
  if (spec.size && ((*spec.size)[0] != w || (*spec.size)[1] != h)) {
    return fail(ErrorCode::kInvalidArgument,
                "texture \"{}\": Size({}, {}) differs from the artist chain's {}x{}", spec.name,
                (*spec.size)[0], (*spec.size)[1], w, h);
  }
  const u32 wanted = spec.levels == 0 ? max_levels(w, h) : std::min(spec.levels, max_levels(w, h));
  std::vector<Image> levels;
  levels.push_back(crop(canvas, 0, 0, w, h));
  u32 y = 0;
  for (u32 i = 1; i < wanted; ++i) {
    const u32 lw = level_extent(w, i);
    const u32 lh = level_extent(h, i);
    if (y + lh > h) {
      if (spec.levels == 0) break;  // a full chain: as many levels as the layout holds
      return fail(ErrorCode::kInvalidArgument,
                  "texture \"{}\": the artist chain holds {} levels, not {}", spec.name, i, wanted);
    }
    levels.push_back(crop(canvas, w, y, lw, lh));
    y += lh;
  }
  return levels;
}

void fade_levels(const MipFade& fade, std::vector<Image>& levels) {
  for (usize i = 1; i < levels.size(); ++i) {
    const f32 t = std::min(1.0f, fade.amount * static_cast<f32>(i));
    for (Rgba& p : levels[i].pixels()) {
      p = {p.r + (fade.color.r - p.r) * t, p.g + (fade.color.g - p.g) * t,
           p.b + (fade.color.b - p.b) * t, p.a + (fade.color.a - p.a) * t};
    }
  }
}

void note(ProcessLog* log, std::string_view step) {
  if (log != nullptr) log->steps.emplace_back(step);
}

}  // namespace

Result<Image> composite(const TextureSpec& spec, std::span<const Image> sources) {
  if (sources.size() != spec.images.size()) {
    return fail(ErrorCode::kInvalidArgument, "texture \"{}\": {} sources for {} Image commands",
                spec.name, sources.size(), spec.images.size());
  }
  u32 w = 0;
  u32 h = 0;
  if (!sources.empty()) {
    w = sources[0].width();
    h = sources[0].height();
  } else if (spec.size) {
    w = (*spec.size)[0];
    h = (*spec.size)[1];
  }
  if (w == 0 || h == 0) {
    return fail(ErrorCode::kInvalidArgument, "texture \"{}\" has no size: give Size or an Image",
                spec.name);
  }
  Image canvas(w, h, spec.color);
  const ResizeSpace space = spec.filter_in_srgb() ? ResizeSpace::kSrgb : ResizeSpace::kRaw;
  for (usize i = 0; i < sources.size(); ++i) {
    if (sources[i].empty()) {
      return fail(ErrorCode::kInvalidArgument, "texture \"{}\": image \"{}\" is empty", spec.name,
                  spec.images[i].file);
    }
    if (sources[i].width() == w && sources[i].height() == h) {
      apply_image(spec, spec.images[i], sources[i], canvas);
    } else {
      apply_image(spec, spec.images[i], sources[i].resized(w, h, space), canvas);
    }
  }
  return canvas;
}

Result<std::vector<Image>> make_levels(const TextureSpec& spec, Image canvas) {
  if (canvas.empty())
    return fail(ErrorCode::kInvalidArgument, "texture \"{}\": empty canvas", spec.name);
  std::vector<Image> levels;
  if (spec.artist_mips) {
    Result<std::vector<Image>> cut = cut_artist_levels(spec, canvas);
    if (!cut) return Unexpected(cut.error());
    levels = std::move(*cut);
  } else {
    const bool srgb = spec.filter_in_srgb();
    const u32 w = spec.size ? (*spec.size)[0] : canvas.width();
    const u32 h = spec.size ? (*spec.size)[1] : canvas.height();
    const u32 count = spec.levels == 0 ? max_levels(w, h) : std::min(spec.levels, max_levels(w, h));
    if (canvas.width() == w && canvas.height() == h) {
      levels.push_back(std::move(canvas));
    } else {
      levels.push_back(canvas.resized(w, h, srgb ? ResizeSpace::kSrgb : ResizeSpace::kRaw));
    }
    levels.reserve(count);
    Image linear;  // sRGB textures: the current level in linear light
    if (srgb && count > 1) {
      linear = levels[0];
      to_linear(linear);
    }
    for (u32 i = 1; i < count; ++i) {
      const u32 lw = level_extent(w, i);
      const u32 lh = level_extent(h, i);
      if (srgb) {
        linear = linear.resized(lw, lh, ResizeSpace::kRaw);
        levels.push_back(to_srgb(linear));
      } else {
        Image next = levels.back().resized(lw, lh, ResizeSpace::kRaw);
        levels.push_back(std::move(next));
      }
    }
  }
  if (spec.fade) fade_levels(*spec.fade, levels);
  return levels;
}

Result<ByteBuffer> build_texture(const TextureSpec& spec, std::string_view platform,
                                 const ImageLoader& load, ProcessLog* log) {
  FormatChoice choice;  // no Format: 32-bit
  if (!spec.format.empty()) {
    Result<FormatChoice> wanted = artist_format(spec.format);
    if (!wanted) return Unexpected(wanted.error());
    choice = *wanted;
  }
  const TextureFormat format = closest_format(platform, choice.format);
  if (format != choice.format && log != nullptr) {
    log->notes.push_back(fmt::format("texture \"{}\": {} is {} on {}", spec.name, spec.format,
                                     format_name(format), platform));
  }
  std::vector<Image> sources;
  sources.reserve(spec.images.size());
  for (const ImageSpec& image : spec.images) {
    Result<Image> source = load(image);  // steps 1 and 2: decoded straight to float RGBA
    if (!source) return Unexpected(source.error());
    sources.push_back(std::move(*source));
  }
  note(log, "load");
  note(log, "promote");
  Result<Image> canvas = composite(spec, sources);
  if (!canvas) return Unexpected(canvas.error());
  sources.clear();
  note(log, "composite");
  Result<std::vector<Image>> levels = make_levels(spec, std::move(*canvas));
  if (!levels) return Unexpected(levels.error());
  note(log, "resize");
  note(log, "mip");
  const TextureFilter default_filter =
      levels->size() > 1 ? TextureFilter::kTrilinear : TextureFilter::kBilinear;
  Result<ByteBuffer> chunk = write_texture({.name = spec.name,
                                            .format = format,
                                            .filter = spec.filter.value_or(default_filter),
                                            .wrap = spec.wrap,
                                            .quality = spec.quality,
                                            .premultiply = choice.premultiplied},
                                           std::span<const Image>(*levels));
  if (!chunk) return Unexpected(chunk.error());
  note(log, "convert");
  note(log, "save");
  return chunk;
}

}  // namespace keel::assets::detail
