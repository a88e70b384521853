// Atlas("name") { Frame("frame/name", "file.png"[, pivot_x, pivot_y]); ...; Padding(2);
// MaxSize(1024); }: packs the frames' images into one texture asset "<name>_texture" (RGBA,
// one level, bilinear, clamped) and writes the atlas chunk (keel/assets/atlas.h) as asset "name"
// of type "Atlas". Every frame's image is a dependency. Documented in keel/assets/README.md.
#include "keel/assets/build/atlas_builder.h"
#include "keel/assets/build/detail/registration.h"
#include "keel/assets/build/image.h"
#include "keel/assets/build/texture_writer.h"
#include "keel/pack/format.h"

#include <fmt/format.h>

namespace keel::assets {
namespace {

using text::kNumber;
using text::kString;

struct FrameSource {
  const text::Token* command = nullptr;
  std::string path;
};

bool read_size(pipeline::BuildContext& ctx, const text::Token& opt, s32 lo, s32 hi, u32& out) {
  if (!ctx.check(opt, {kNumber})) return false;
  const s32 v = opt.param(0)->as_int();
  if (v < lo || v > hi) {
    ctx.error(*opt.param(0), fmt::format("{} is {} to {}", opt.text, lo, hi));
    return false;
  }
  out = static_cast<u32>(v);
  return true;
}

bool read_frame(pipeline::BuildContext& ctx, const text::Token& opt, AtlasSprite& sprite,
                FrameSource& source) {
  if (!ctx.check(opt, {kString, kString, kNumber, kNumber}, {.min_params = 2})) return false;
  if (opt.param_count() == 3) {
    ctx.error(opt, "Frame(name, file[, pivot_x, pivot_y]): give both pivot coordinates");
    return false;
  }
  sprite.name = opt.param(0)->text;
  if (sprite.name.empty()) {
    ctx.error(*opt.param(0), "a frame needs a name");
    return false;
  }
  if (opt.param_count() == 4) {
    sprite.pivot_x = static_cast<f32>(opt.param(2)->number);
    sprite.pivot_y = static_cast<f32>(opt.param(3)->number);
  }
  const text::Token& file = *opt.param(1);
  Result<std::string> path = ctx.find_source(file.text);  // a dependency of the atlas
  if (!path) {
    ctx.error(file, fmt::format("source `{}` not found in the include paths of ({}, {})", file.text,
                                ctx.platform(), ctx.asset_type()));
    return false;
  }
  source = {&opt, std::move(*path)};
  return true;
}

bool build_atlas_asset(pipeline::BuildContext& ctx) {
  const text::Token& cmd = ctx.command();
  if (!ctx.check(cmd, {kString}, {.conditional = text::Conditional::kRequired})) return false;
  AtlasPackOptions options;
  std::vector<AtlasSprite> sprites;
  std::vector<FrameSource> sources;
  bool ok = true;
  for (const text::Token& opt : text::chain(cmd.conditional)) {
    if (opt.is("Frame")) {
      AtlasSprite sprite;
      FrameSource source;
      if (read_frame(ctx, opt, sprite, source)) {
        sprites.push_back(std::move(sprite));
        sources.push_back(std::move(source));
      } else {
        ok = false;
      }
    } else if (opt.is("Padding")) {
      ok = read_size(ctx, opt, 0, 64, options.padding) && ok;
    } else if (opt.is("MaxSize")) {
      ok = read_size(ctx, opt, 1, 16384, options.max_size) && ok;
    } else {
      ctx.error(opt, fmt::format("unknown Atlas option `{}` (Frame, Padding, MaxSize)", opt.text));
      ok = false;
    }
  }
  if (!ok) return false;
  if (sprites.empty()) {
    ctx.error(cmd, "Atlas needs at least one Frame(\"name\", \"file.png\")");
    return false;
  }
  const std::string_view name = cmd.param(0)->text;
  if (!ctx.set_output(name)) return false;
  if (ctx.up_to_date()) return true;
  for (usize i = 0; i < sprites.size(); ++i) {
    const text::Token& file = *sources[i].command->param(1);
    const Result<std::string> bytes = ctx.read_file(sources[i].path);
    if (!bytes) return false;
    Result<Image> image = Image::decode(as_bytes(*bytes), file.text);
    if (!image) {
      ctx.error(file, fmt::format("{}: {}", file.text, image.error().message()));
      return false;
    }
    sprites[i].width = image->width();
    sprites[i].height = image->height();
    sprites[i].rgba = image->to_rgba8();
  }
  Result<AtlasBuild> build = pack_atlas(sprites, options);
  if (!build) {
    ctx.error(cmd, build.error().message());
    return false;
  }
  const std::string texture_name = atlas_texture_name(name);
  build->data.texture_name_hash = pack::name_hash(texture_name);
  Result<ByteBuffer> chunk = encode_atlas(build->data);
  if (!chunk) {
    ctx.error(cmd, chunk.error().message());
    return false;
  }
  const PixelsU8 pixels{
      .width = build->data.width, .height = build->data.height, .channels = 4, .data = build->rgba};
  const Result<ByteBuffer> texture = write_texture({.name = texture_name,
                                                    .format = TextureFormat::kA8R8G8B8,
                                                    .filter = TextureFilter::kBilinear,
                                                    .wrap = TextureWrap::kClamp,
                                                    .quality = BlockQuality::kFast,
                                                    .premultiply = false},
                                                   std::span(&pixels, 1));
  if (!texture) {
    ctx.error(cmd, texture.error().message());
    return false;
  }
  ctx.log(log::Level::kInfo,
          fmt::format("atlas `{}`: {} frames in {}x{} ({:.0f}% used)", name, sprites.size(),
                      build->data.width, build->data.height, build->efficiency * 100));
  pipeline::OutputFile* out = ctx.create_output();
  if (out == nullptr) return false;
  const u32 atlas_chunk = out->add_chunk(name, pipeline::kBlockGeneral, *chunk);
  const u32 texture_chunk = out->add_chunk(texture_name, pipeline::kBlockGeneral, *texture);
  if (atlas_chunk == 0 || texture_chunk == 0) {
    out->close();
    return false;
  }
  out->add_item(texture_name, "Texture", texture_chunk);
  out->add_item(name, kAtlasType, atlas_chunk);
  return out->close();
}

}  // namespace

namespace detail {

void register_atlas_handlers(pipeline::Registrar& registrar) {
  registrar.add({.platform = pipeline::kCommon,
                 .type = "Atlas",
                 .fn = build_atlas_asset,
                 .version = 1,
                 .description = "sprite atlases packed by stb_rect_pack from one image per frame"});
}

}  // namespace detail
}  // namespace keel::assets
