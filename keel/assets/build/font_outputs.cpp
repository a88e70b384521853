// The files keel-font writes on request: the book's TGA + command file, and AngelCode BMFont text.
#include "keel/assets/build/font_builder.h"

#include <fmt/format.h>
#include <stb/stb_image_write.h>

namespace keel::assets {
namespace {

void append_bytes(void* context, void* data, int size) {
  auto* out = static_cast<ByteBuffer*>(context);
  const auto* p = static_cast<const std::byte*>(data);
  out->insert(out->end(), p, p + size);
}

}  // namespace

ByteBuffer font_tga(const FontBuild& build) {
  ByteBuffer out;
  const FontData& font = build.font;
  if (font.atlas_width == 0 || font.atlas_height == 0) return out;
  stbi_write_tga_to_func(append_bytes, &out, font.atlas_width, font.atlas_height, 1,
                         build.atlas.data());
  return out;
}

std::string font_command_file(const FontBuild& build, std::string_view name,
                              std::string_view tga_file) {
  const FontData& font = build.font;
  const std::string atlas = font_atlas_name(name);
  std::string s = fmt::format("// {} at {} px: made by keel-font (Golden Rules ch. 6 makefont)\n",
                              build.family, font.pixel_size);
  s += fmt::format(
      "Texture(\"{}\")\n{{\n    Format(\"A8\");\n    Levels(1);\n"
      "    Image(\"{}\", \"gray\", \"gray\", \"gray\", \"gray\");\n}}\n\n",
      atlas, tga_file);
  s += fmt::format("Font(\"{}\")\n{{\n    Texture(\"{}\");\n", name, atlas);
  s += fmt::format("    TextureSize({}, {});\n", font.atlas_width, font.atlas_height);
  s += fmt::format("    Size({});\n    Border({});\n", font.pixel_size, font.border);
  s += fmt::format("    Height({});          // cell height\n", font.cell_height);
  s += fmt::format("    Baseline({});        // from a cell's top\n", font.baseline);
  s += fmt::format("    LineHeight({});\n", font.line_height);
  s +=
      fmt::format("    Characters({})       // code, x, y, w, h, preadvance, postadvance\n    {{\n",
                  font.glyphs.size());
  for (const FontGlyph& g : font.glyphs) {
    s += fmt::format("        Character({}, {}, {}, {}, {}, {}, {});\n", g.code, g.x, g.y, g.width,
                     g.height, g.preadvance, g.postadvance);
  }
  s += "    }\n";
  if (!font.kerning.empty()) {
    s += fmt::format("    KerningPairs({})     // first, second, amount\n    {{\n",
                     font.kerning.size());
    for (const FontKerning& k : font.kerning) {
      s += fmt::format("        Kerning({}, {}, {});\n", k.first, k.second, k.amount);
    }
    s += "    }\n";
  }
  s += "}\n";
  return s;
}

std::string font_bmfont_text(const FontBuild& build, std::string_view page_file) {
  const FontData& font = build.font;
  const int b = font.border;
  std::string s = fmt::format(
      "info face=\"{}\" size={} bold=0 italic=0 charset=\"\" unicode=1 stretchH=100 smooth=1 "
      "aa=1 padding={},{},{},{} spacing=0,0 outline=0\n",
      build.family, font.pixel_size, b, b, b, b);
  s += fmt::format(
      "common lineHeight={} base={} scaleW={} scaleH={} pages=1 packed=0 alphaChnl=0 redChnl=4 "
      "greenChnl=4 blueChnl=4\n",
      font.line_height, font.baseline, font.atlas_width, font.atlas_height);
  s += fmt::format("page id=0 file=\"{}\"\n", page_file);
  s += fmt::format("chars count={}\n", font.glyphs.size());
  for (const FontGlyph& g : font.glyphs) {
    s += fmt::format(
        "char id={} x={} y={} width={} height={} xoffset={} yoffset=0 xadvance={} page=0 "
        "chnl=15\n",
        g.code, g.x, g.y, g.width, g.height, g.preadvance, g.advance());
  }
  s += fmt::format("kernings count={}\n", font.kerning.size());
  for (const FontKerning& k : font.kerning) {
    s += fmt::format("kerning first={} second={} amount={}\n", k.first, k.second, k.amount);
  }
  return s;
}

}  // namespace keel::assets
