// keel-asset: look at built assets (Golden Rules ch. 6). Artists would rather see a picture.
//   keel-asset show FILE.kpk NAME -o OUT.png   a texture's mip chain as a contact sheet, a font
//                                              atlas with its glyph boxes, or a mesh's triangles
//                                              coloured by strip,
//                                              a sprite atlas with its frame boxes
//   keel-asset list FILE.kpk                   the textures, fonts, meshes and atlases in a pack
// Exit status: 0 fine, 1 the asset is missing, damaged or of a type without pictures, 2 usage or
// I/O error. The logic lives in keel/assets.
#include "keel/assets/build/preview.h"
#include "keel/pack/format.h"
#include "keel/pack/pack_file.h"

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <string>

namespace {

using namespace keel;

int report_error(const Error& error) {
  fmt::print(stderr, "keel-asset: {}\n", error.to_string());
  return error.code() == ErrorCode::kIo ? 2 : 1;
}

struct Kind {
  std::string_view type;
  Result<assets::Picture> (*picture)(const pack::PackFile&, std::string_view);
};

constexpr Kind kKinds[] = {
    {"Texture", assets::picture_of_texture},
    {"Font", assets::picture_of_font},
    {"Mesh", assets::picture_of_mesh},
    {"Atlas", assets::picture_of_atlas},
};

const Kind* kind_of(const pack::PackItem& item) {
  for (const Kind& kind : kKinds)
    if (pack::type_hash(kind.type) == item.type_hash) return &kind;
  return nullptr;
}

int show(const std::string& file, const std::string& name, const std::string& out) {
  Result<pack::PackFile> pack = pack::PackFile::open(file);
  if (!pack) return report_error(pack.error());
  const pack::PackItem* item = pack->find_item(name);
  if (!item) {
    fmt::print(stderr, "keel-asset: {}: no asset named '{}'\n", file, name);
    return 1;
  }
  const Kind* kind = kind_of(*item);
  if (!kind) {
    fmt::print(stderr, "keel-asset: {}: '{}' is not a texture, font, mesh or atlas\n", file, name);
    return 1;
  }
  Result<assets::Picture> picture = kind->picture(*pack, name);
  if (!picture) return report_error(picture.error());
  if (Status written = assets::write_png(*picture, out); !written)
    return report_error(written.error());
  fmt::print("{}: {} '{}' -> {} ({}x{})\n", file, kind->type, name, out, picture->width,
             picture->height);
  return 0;
}

int list(const std::string& file) {
  Result<pack::PackFile> pack = pack::PackFile::open(file);
  if (!pack) return report_error(pack.error());
  for (const pack::PackItem& item : pack->items()) {
    const Kind* kind = kind_of(item);
    if (kind) fmt::print("{:<8} {}\n", kind->type, item.name);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"keel-asset: pictures of built textures, fonts, meshes and atlases"};
  app.require_subcommand(1);
  std::string file;
  std::string name;
  std::string out;
  CLI::App* show_cmd = app.add_subcommand("show", "write a picture of an asset (PNG)");
  show_cmd->add_option("file", file, "data file (.kpk)")->required();
  show_cmd->add_option("name", name, "asset name")->required();
  show_cmd->add_option("-o,--output", out, "PNG file to write")->required();
  CLI::App* list_cmd = app.add_subcommand("list", "list the textures, fonts, meshes and atlases");
  list_cmd->add_option("file", file, "data file (.kpk)")->required();
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  if (*show_cmd) return show(file, name, out);
  return list(file);
}
