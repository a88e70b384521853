// Texture("name") { Size; Format; Levels; Filter; Wrap; Color; Image(file, r, g, b, a); ... }:
// the book's texture processor as a pipeline handler (command language in keel/assets/README.md).
#include "keel/assets/build/detail/registration.h"
#include "keel/assets/build/detail/texture_process.h"
#include "keel/assets/build/detail/texture_spec.h"
#include "keel/assets/build/image.h"

#include <fmt/format.h>

#include <string>
#include <vector>

namespace keel::assets::detail {
namespace {

// Where a processing error points: the Format command for format errors, else the command.
const text::Token& error_site(const TextureSpec& spec, const Error& error, const text::Token& cmd) {
  if (spec.format_at != nullptr && error.message().find("format") != std::string::npos)
    return *spec.format_at;
  return cmd;
}

bool build_texture_asset(pipeline::BuildContext& ctx) {
  const text::Token& cmd = ctx.command();
  text::Diagnostics diagnostics;
  std::optional<TextureSpec> spec = parse_texture(cmd, diagnostics);
  if (!diagnostics.empty()) ctx.report(diagnostics);
  if (!spec) return false;

  std::vector<std::string> paths;
  for (const ImageSpec& image : spec->images) {
    Result<std::string> path = ctx.find_source(image.file);
    if (!path) {
      if (path.error().code() == ErrorCode::kNotFound) {
        ctx.error(*image.at->param(0),
                  fmt::format("image `{}` not found in the include paths of ({}, {})", image.file,
                              ctx.platform(), ctx.asset_type()));
      }
      return false;
    }
    paths.push_back(std::move(*path));
  }
  if (!ctx.set_output(spec->name)) return false;
  if (ctx.up_to_date()) return true;

  const ImageLoader load = [&](const ImageSpec& image) -> Result<Image> {
    const std::string& path = paths[static_cast<usize>(&image - spec->images.data())];
    Result<std::string> bytes = ctx.read_file(path);
    if (!bytes) return Unexpected(bytes.error());
    return Image::decode(as_bytes(*bytes), path);
  };
  ProcessLog log;
  Result<ByteBuffer> chunk = build_texture(*spec, ctx.platform(), load, &log);
  for (const std::string& note : log.notes) ctx.log(log::Level::kInfo, note);
  if (!chunk) {
    const Error& e = chunk.error();
    ctx.error(error_site(*spec, e, cmd), e.where().file.empty()
                                             ? e.message()
                                             : fmt::format("{}: {}", e.where().file, e.message()));
    return false;
  }
  pipeline::OutputFile* out = ctx.create_output();
  if (out == nullptr) return false;
  const u32 id = out->add_chunk(spec->name, pipeline::kBlockGeneral, *chunk, 16);
  if (id == 0) {
    out->close();
    return false;
  }
  out->add_item(spec->name, "Texture", id);
  return out->close();
}

}  // namespace

void register_texture_handlers(pipeline::Registrar& registrar) {
  registrar.add({.platform = pipeline::kCommon,
                 .type = "Texture",
                 .fn = build_texture_asset,
                 .version = 1,
                 .description =
                     "textures: images composited, mip-mapped and converted (Golden Rules ch. 6)"});
}

}  // namespace keel::assets::detail
