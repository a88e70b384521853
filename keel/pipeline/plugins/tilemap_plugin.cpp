// An example build-tool plug-in: tile maps drawn as text.
//
//   TileMap("level1", "level1.map");            // one character per tile, one line per row
//   TileMap("level1", "level1.map")             // with a legend: character -> tile number
//   {
//       Legend("#", 1);
//       Legend(".", 0);
//   }
//
// Output: asset type "TileMap", one chunk: u32 width, u32 height, then width * height bytes,
// row by row (rows shorter than the widest are padded with tile 0). Without a legend a tile is
// its character code. Everything goes through keel::pipeline::BuildContext; the library links
// no part of the build tool.
#include "keel/pipeline/handler.h"

#include <fmt/format.h>

#include <array>
#include <string>
#include <vector>

namespace {

using keel::u32;
using keel::u8;
using keel::usize;
using keel::pipeline::BuildContext;
namespace text = keel::text;

void put_u32(keel::ByteBuffer& out, u32 v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<std::byte>(v >> (8 * i)));
}

bool build_tile_map(BuildContext& ctx) {
  const text::Token& cmd = ctx.command();
  if (!ctx.check(cmd, {text::kString, text::kString},
                 {.conditional = text::Conditional::kAllowed})) {
    return false;
  }
  std::array<int, 256> legend;
  legend.fill(-1);
  bool has_legend = false;
  for (const text::Token* opt = cmd.conditional; opt != nullptr; opt = opt->next) {
    if (!opt->is("Legend")) {
      ctx.error(*opt, fmt::format("unknown TileMap option `{}` (Legend)", opt->text));
      return false;
    }
    if (!ctx.check(*opt, {text::kString, text::kNumber})) return false;
    const text::Token& ch = *opt->params;
    const text::Token& value = *opt->params->next;
    if (ch.text.size() != 1 || value.number < 0 || value.number > 255) {
      ctx.error(*opt, "Legend(\"c\", n) maps one character to a tile from 0 to 255");
      return false;
    }
    legend[static_cast<u8>(ch.text[0])] = static_cast<int>(value.number);
    has_legend = true;
  }

  const std::string_view name = cmd.params->text;
  const std::string_view file = cmd.params->next->text;
  const keel::Result<std::string> found = ctx.find_source(file);
  if (!found) {
    ctx.error(*cmd.params->next, fmt::format("tile map `{}` not found in the include paths", file));
    return false;
  }
  const std::string& path = *found;
  if (!ctx.set_output(name)) return false;
  if (ctx.up_to_date()) return true;

  const keel::Result<std::string> source = ctx.read_file(path);
  if (!source) return false;
  std::vector<std::string> rows;
  std::string row;
  for (char c : *source) {
    if (c == '\n') {
      rows.push_back(std::move(row));
      row.clear();
    } else if (c != '\r') {
      row += c;
    }
  }
  if (!row.empty()) rows.push_back(std::move(row));
  u32 width = 0;
  for (const std::string& r : rows) width = std::max(width, static_cast<u32>(r.size()));
  if (rows.empty() || width == 0) {
    ctx.error(*cmd.params->next, fmt::format("tile map `{}` is empty", file));
    return false;
  }

  keel::ByteBuffer bytes;
  put_u32(bytes, width);
  put_u32(bytes, static_cast<u32>(rows.size()));
  for (usize y = 0; y < rows.size(); ++y) {
    for (u32 x = 0; x < width; ++x) {
      int tile = 0;
      if (x < rows[y].size()) {
        const u8 c = static_cast<u8>(rows[y][x]);
        tile = has_legend ? legend[c] : c;
        if (tile < 0) {
          ctx.log(keel::log::Level::kError,
                  fmt::format("{}:{}:{}: character '{}' is not in the legend", path, y + 1, x + 1,
                              static_cast<char>(c)));
          return false;
        }
      }
      bytes.push_back(static_cast<std::byte>(tile));
    }
  }

  keel::pipeline::OutputFile* out = ctx.create_output();
  if (out == nullptr) return false;
  const u32 chunk = out->add_chunk(name, keel::pipeline::kBlockGeneral, bytes, 4);
  out->add_item(name, "TileMap", chunk);
  return out->close();
}

void register_handlers(keel::pipeline::Registrar& registrar) {
  registrar.add({.platform = keel::pipeline::kCommon,
                 .type = "TileMap",
                 .fn = build_tile_map,
                 .version = 1,
                 .description = "tile maps drawn as text (example plug-in)"});
}

}  // namespace

KEEL_PIPELINE_PLUGIN(register_handlers)
