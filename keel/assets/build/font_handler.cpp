// Font("name") { Source("file.ttf"); Size(32) or FitTexture(256, 256); Characters(32, 126); ... }
// The asset is the load-ready font chunk (keel/assets/font.h) plus its atlas, a texture asset
// named "<name>_atlas". A Font block that names a Texture instead is the book's description with
// every character's record (what keel-font --kcmd writes): detail/font_description.cpp. The
// command language is documented in keel/assets/README.md.
#include "keel/assets/build/detail/font_atlas.h"
#include "keel/assets/build/detail/font_description.h"
#include "keel/assets/build/detail/registration.h"
#include "keel/assets/build/font_builder.h"
#include "keel/pack/format.h"

#include <fmt/format.h>

namespace keel::assets {
namespace {

using text::kNumber;
using text::kString;

bool read_characters(pipeline::BuildContext& ctx, const text::Token& opt, FontOptions& options) {
  const text::Token* first = opt.param(0);
  if (first != nullptr && first->is_string()) {
    if (!ctx.check(opt, {kString})) return false;
    if (!append_utf8(first->text, options.characters)) {
      ctx.error(*first, "Characters: the text is not valid UTF-8");
      return false;
    }
    return true;
  }
  if (!ctx.check(opt, {kNumber, kNumber}, {.min_params = 1})) return false;
  const s32 lo = first->as_int();
  const s32 hi = opt.param_count() > 1 ? opt.param(1)->as_int() : lo;
  if (lo < 0 || hi < lo || hi > 0x10FFFF || hi - lo > 0xFFFF) {
    ctx.error(opt,
              "Characters(first, last): code points from 0 to 0x10FFFF, first <= last, "
              "at most 65536 at once");
    return false;
  }
  for (s32 c = lo; c <= hi; ++c) options.characters.push_back(static_cast<u32>(c));
  return true;
}

bool read_number(pipeline::BuildContext& ctx, const text::Token& opt, s32 lo, s32 hi, s32& out) {
  if (!ctx.check(opt, {kNumber})) return false;
  const s32 v = opt.param(0)->as_int();
  if (v < lo || v > hi) {
    ctx.error(*opt.param(0), fmt::format("{} is {} to {}", opt.text, lo, hi));
    return false;
  }
  out = v;
  return true;
}

bool read_option(pipeline::BuildContext& ctx, const text::Token& opt, FontOptions& options,
                 const text::Token*& source) {
  s32 flag = 0;
  if (opt.is("Source")) {
    if (!ctx.check(opt, {kString})) return false;
    source = opt.param(0);
    return true;
  }
  if (opt.is("Size")) return read_number(ctx, opt, 1, 4096, options.size);
  if (opt.is("FitTexture")) {
    if (!ctx.check(opt, {kNumber, kNumber})) return false;
    options.fit_width = opt.param(0)->as_int();
    options.fit_height = opt.param(1)->as_int();
    if (options.fit_width < 1 || options.fit_height < 1 || options.fit_width > 4096 ||
        options.fit_height > 4096) {
      ctx.error(opt, "FitTexture(width, height): each 1 to 4096");
      return false;
    }
    return true;
  }
  if (opt.is("Characters")) return read_characters(ctx, opt, options);
  if (opt.is("Border")) return read_number(ctx, opt, 0, 64, options.border);
  if (opt.is("AntiAlias")) {
    if (!read_number(ctx, opt, 0, 1, flag)) return false;
    options.antialias = flag != 0;
    return true;
  }
  if (opt.is("Kerning")) {
    if (!read_number(ctx, opt, 0, 1, flag)) return false;
    options.kerning = flag != 0;
    return true;
  }
  ctx.error(opt, fmt::format("unknown Font option `{}` (Source, Size, FitTexture, Characters, "
                             "Border, AntiAlias, Kerning)",
                             opt.text));
  return false;
}

bool build_font_asset(pipeline::BuildContext& ctx) {
  const text::Token& cmd = ctx.command();
  if (!ctx.check(cmd, {kString}, {.conditional = text::Conditional::kRequired})) return false;
  if (detail::is_font_description(cmd)) return detail::build_described_font(ctx);
  FontOptions options;
  const text::Token* source = nullptr;
  bool options_ok = true;
  for (const text::Token& opt : text::chain(cmd.conditional)) {
    options_ok = read_option(ctx, opt, options, source) && options_ok;
  }
  if (!options_ok) return false;
  if (source == nullptr) {
    ctx.error(cmd, "Font needs a Source(\"file.ttf\")");
    return false;
  }
  if (options.size == 0 && options.fit_width == 0) {
    ctx.error(cmd, "Font needs Size(pixels), FitTexture(width, height), or both");
    return false;
  }
  const std::string_view name = cmd.param(0)->text;
  const Result<std::string> path = ctx.find_source(source->text);
  if (!path) {
    ctx.error(*source, fmt::format("source `{}` not found in the include paths of ({}, {})",
                                   source->text, ctx.platform(), ctx.asset_type()));
    return false;
  }
  if (!ctx.set_output(name)) return false;
  if (ctx.up_to_date()) return true;
  const Result<std::string> bytes = ctx.read_file(*path);
  if (!bytes) return false;
  Result<FontBuild> build = build_font(as_bytes(*bytes), source->text, options);
  if (!build) {
    ctx.error(cmd, build.error().message());
    return false;
  }
  if (!build->missing.empty()) {
    ctx.log(log::Level::kWarn,
            fmt::format("{}: font `{}`: {} characters are not in {} (first "
                        "U+{:04X})",
                        name, name, build->missing.size(), source->text, build->missing.front()));
  }
  const std::string atlas = font_atlas_name(name);
  build->font.atlas_name_hash = pack::name_hash(atlas);
  pipeline::OutputFile* out = ctx.create_output();
  if (out == nullptr) return false;
  const ByteBuffer chunk = encode_font(build->font);
  const u32 font_chunk = out->add_chunk(name, pipeline::kBlockGeneral, chunk);
  const u32 atlas_chunk = detail::add_font_atlas(*out, atlas, *build);
  if (font_chunk == 0 || atlas_chunk == 0) {
    out->close();
    return false;
  }
  out->add_item(name, kFontType, font_chunk);
  return out->close();
}

}  // namespace

namespace detail {

void register_font_handlers(pipeline::Registrar& registrar) {
  registrar.add({.platform = pipeline::kCommon,
                 .type = "Font",
                 .fn = build_font_asset,
                 .version = 1,
                 .description = "bitmap fonts rasterised by FreeType with the book's layout"});
}

}  // namespace detail
}  // namespace keel::assets
