// keel-font: the book's makefont on the command line (Golden Rules ch. 6), through FreeType.
//   keel-font FONT.ttf --size 32 [--fit 256x256] [--chars 32-126,160-255] [--text "äöü"]
//             [--border 1] [--mono] [--no-kerning] [--name Sans32]
//             [--tga Sans32.tga] [--kcmd Sans32.kcmd] [--fnt Sans32.fnt] [--png Sans32.png]
//             [--sample-png text.png [--sample "text"]]
// Without --size it searches the largest size whose characters fit --fit (the book's search).
// Writes the book's 8-bit TGA and command file, an AngelCode BMFont .fnt and a picture of the
// atlas with its glyph boxes on request. Exit status: 0 fine, 1 the font cannot be built, 2 usage
// or I/O error. The logic lives in keel/assets/build.
#include "keel/assets/build/font_builder.h"
#include "keel/assets/build/font_preview.h"
#include "keel/core/file.h"

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <charconv>
#include <filesystem>
#include <string>

namespace {

using namespace keel;

bool parse_int(std::string_view s, s32& out) {
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && end == s.data() + s.size();
}

// "32-126,160-255,8364" -> code points.
bool parse_ranges(std::string_view spec, std::vector<u32>& out) {
  while (!spec.empty()) {
    const usize comma = spec.find(',');
    const std::string_view part = spec.substr(0, comma);
    spec = comma == std::string_view::npos ? std::string_view() : spec.substr(comma + 1);
    const usize dash = part.find('-');
    s32 lo = 0;
    s32 hi = 0;
    if (!parse_int(part.substr(0, dash), lo)) return false;
    hi = lo;
    if (dash != std::string_view::npos && !parse_int(part.substr(dash + 1), hi)) return false;
    if (lo < 0 || hi < lo || hi > 0x10FFFF) return false;
    for (s32 c = lo; c <= hi; ++c) out.push_back(static_cast<u32>(c));
  }
  return true;
}

int io_error(const Error& e) {
  fmt::print(stderr, "keel-font: {}\n", e.to_string());
  return 2;
}

struct Args {
  std::string font;
  s32 size = 0;
  std::string fit;
  std::string chars;
  std::string text;
  s32 border = 0;
  bool mono = false;
  bool no_kerning = false;
  std::string name;
  std::string tga, kcmd, fnt, png;
  std::string sample =
      "The quick brown fox jumps over the lazy dog.\nAVATAR WAVE To Yo LT 0123456789";
  std::string sample_png;
};

int run(const Args& a) {
  assets::FontOptions options;
  options.size = a.size;
  options.border = a.border;
  options.antialias = !a.mono;
  options.kerning = !a.no_kerning;
  if (!a.fit.empty()) {
    const usize x = a.fit.find('x');
    if (x == std::string::npos ||
        !parse_int(std::string_view(a.fit).substr(0, x), options.fit_width) ||
        !parse_int(std::string_view(a.fit).substr(x + 1), options.fit_height)) {
      fmt::print(stderr, "keel-font: --fit wants WIDTHxHEIGHT, e.g. 256x256\n");
      return 2;
    }
  }
  if (!a.chars.empty() && !parse_ranges(a.chars, options.characters)) {
    fmt::print(stderr, "keel-font: --chars wants code points and ranges, e.g. 32-126,160-255\n");
    return 2;
  }
  if (!a.text.empty() && !assets::append_utf8(a.text, options.characters)) {
    fmt::print(stderr, "keel-font: --text is not valid UTF-8\n");
    return 2;
  }
  const Result<std::string> bytes = read_file(a.font);
  if (!bytes) return io_error(bytes.error());
  const Result<assets::FontBuild> build = assets::build_font(as_bytes(*bytes), a.font, options);
  if (!build) {
    fmt::print(stderr, "keel-font: {}\n", build.error().to_string());
    return 1;
  }
  const assets::FontData& f = build->font;
  const std::string name =
      a.name.empty() ? std::filesystem::path(a.font).stem().string() + std::to_string(f.pixel_size)
                     : a.name;
  fmt::print(
      "{}: {} characters at {} px in {}x{} (cells {:.1f}% of the texture), {} kerning "
      "pairs\n",
      build->family, f.glyphs.size(), f.pixel_size, f.atlas_width, f.atlas_height,
      100.0 * build->packing_efficiency(), f.kerning.size());
  if (!build->missing.empty()) {
    fmt::print("  {} characters are not in the font\n", build->missing.size());
  }
  const auto tga_file =
      a.tga.empty() ? name + ".tga" : std::filesystem::path(a.tga).filename().string();
  if (!a.tga.empty()) {
    if (auto s = write_file_atomic(a.tga, assets::font_tga(*build)); !s) return io_error(s.error());
  }
  if (!a.kcmd.empty()) {
    if (auto s = write_file_atomic(a.kcmd, assets::font_command_file(*build, name, tga_file)); !s)
      return io_error(s.error());
  }
  if (!a.fnt.empty()) {
    if (auto s = write_file_atomic(a.fnt, assets::font_bmfont_text(*build, tga_file)); !s)
      return io_error(s.error());
  }
  const ByteBuffer chunk = assets::encode_font(f);
  const Result<assets::FontView> view = assets::FontView::parse(chunk);
  if (!view) return io_error(view.error());
  if (!a.png.empty()) {
    if (auto s = assets::write_png(assets::font_atlas_picture(*view, build->atlas), a.png); !s)
      return io_error(s.error());
  }
  if (!a.sample_png.empty()) {
    std::string sample = a.sample;
    for (usize at = sample.find("\\n"); at != std::string::npos; at = sample.find("\\n", at)) {
      sample.replace(at, 2, "\n");
    }
    const assets::Picture text = assets::font_text_picture(*view, build->atlas, sample);
    if (auto s = assets::write_png(text, a.sample_png); !s) return io_error(s.error());
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"keel-font: bitmap fonts from TrueType/OpenType files (the book's makefont)"};
  Args a;
  app.add_option("font", a.font, "font file (.ttf, .otf)")->required();
  app.add_option("--size", a.size, "pixel size; without it, the largest that fits --fit");
  app.add_option("--fit", a.fit, "texture size WIDTHxHEIGHT to fit");
  app.add_option("--chars", a.chars,
                 "code points and ranges, e.g. 32-126,160-255 (default 32-126)");
  app.add_option("--text", a.text, "characters given as UTF-8 text");
  app.add_option("--border", a.border, "empty pixels around every character");
  app.add_flag("--mono", a.mono, "no anti-aliasing");
  app.add_flag("--no-kerning", a.no_kerning, "leave out kerning pairs");
  app.add_option("--name", a.name, "asset name in the command file (default: file stem + size)");
  app.add_option("--tga", a.tga, "write the atlas as an 8-bit grayscale TGA");
  app.add_option("--kcmd", a.kcmd, "write the book's command file (Texture + Font blocks)");
  app.add_option("--fnt", a.fnt, "write an AngelCode BMFont text file");
  app.add_option("--png", a.png, "write a picture of the atlas with its glyph boxes");
  app.add_option("--sample", a.sample, "text for --sample-png (UTF-8, \\n for new lines)");
  app.add_option("--sample-png", a.sample_png, "write the sample text drawn with the font");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  return run(a);
}
