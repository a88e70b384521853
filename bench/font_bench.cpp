// The font processor (Golden Rules ch. 6 makefont through FreeType): 256 glyphs of DejaVu Sans at
// 32 px into the smallest atlas, with and without kerning pairs (FreeType kern table + HarfBuzz
// GPOS, 65,536 pairs shaped), against the floor: FreeType rendering the same glyphs with nothing
// else. Prints the packing efficiency (pixels inside glyph cells / atlas area; goal >= 80%).
#include "bench_support.h"

#include "keel/assets/build/font_builder.h"
#include "keel/core/file.h"

#include <benchmark/benchmark.h>
#include <fmt/format.h>
#include <ft2build.h>
#include FT_FREETYPE_H

#include <cstdio>
#include <string>
#include <vector>

namespace {

using namespace keel;

constexpr const char* kDejaVu = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
constexpr s32 kSize = 32;

const std::string& font_file() {
  static const std::string bytes = [] {
    Result<std::string> r = read_file(kDejaVu);
    return r ? *r : std::string();
  }();
  return bytes;
}

// The first 256 printable code points the font has, from the space up.
const std::vector<u32>& characters() {
  static const std::vector<u32> codes = [] {
    std::vector<u32> out;
    FT_Library lib = nullptr;
    FT_Face face = nullptr;
    FT_Init_FreeType(&lib);
    if (FT_New_Memory_Face(lib, reinterpret_cast<const FT_Byte*>(font_file().data()),  // NOLINT
                           static_cast<FT_Long>(font_file().size()), 0, &face) == 0) {
      for (u32 c = 32; out.size() < 256 && c < 0x10000; ++c) {
        if ((c < 127 || c >= 160) && FT_Get_Char_Index(face, c) != 0) out.push_back(c);
      }
      FT_Done_Face(face);
    }
    FT_Done_FreeType(lib);
    return out;
  }();
  return codes;
}

assets::FontOptions options(bool kerning) {
  assets::FontOptions o;
  o.characters = characters();
  o.size = kSize;
  o.kerning = kerning;
  return o;
}

void BM_FontBuild(benchmark::State& state) {
  const assets::FontOptions o = options(state.range(0) != 0);
  if (font_file().empty()) return state.SkipWithError("fonts-dejavu-core is not installed");
  for (auto _ : state) {
    Result<assets::FontBuild> b = assets::build_font(as_bytes(font_file()), "DejaVuSans.ttf", o);
    benchmark::DoNotOptimize(b->atlas.data());
  }
}
BENCHMARK(BM_FontBuild)->Arg(0)->Arg(1)->ArgName("kerning")->Unit(benchmark::kMillisecond);

// The floor: FreeType renders every glyph once (what any bitmap-font maker has to pay).
void BM_FreeTypeRenderOnly(benchmark::State& state) {
  if (font_file().empty()) return state.SkipWithError("fonts-dejavu-core is not installed");
  for (auto _ : state) {
    FT_Library lib = nullptr;
    FT_Face face = nullptr;
    FT_Init_FreeType(&lib);
    FT_New_Memory_Face(lib, reinterpret_cast<const FT_Byte*>(font_file().data()),  // NOLINT
                       static_cast<FT_Long>(font_file().size()), 0, &face);
    FT_Set_Pixel_Sizes(face, 0, kSize);
    usize ink = 0;
    for (u32 c : characters()) {
      FT_Load_Char(face, c, FT_LOAD_RENDER);
      ink += face->glyph->bitmap.width * face->glyph->bitmap.rows;
    }
    benchmark::DoNotOptimize(ink);
    FT_Done_Face(face);
    FT_Done_FreeType(lib);
  }
}
BENCHMARK(BM_FreeTypeRenderOnly)->Unit(benchmark::kMillisecond);

KEEL_BENCH_RATIO("font build (256 glyphs, 32 px, no kerning) vs FreeType rendering them",
                 "BM_FontBuild/kerning:0", "BM_FreeTypeRenderOnly");

void print_packing() {
  Result<assets::FontBuild> b =
      assets::build_font(as_bytes(font_file()), "DejaVuSans.ttf", options(true));
  if (!b) return;
  std::printf(
      "packing efficiency=%.3f (%zu glyphs at %d px in %dx%d, %zu kerning pairs; goal >= "
      "0.80)\n",
      b->packing_efficiency(), b->font.glyphs.size(), b->font.pixel_size, b->font.atlas_width,
      b->font.atlas_height, b->font.kerning.size());
}

}  // namespace

int main(int argc, char** argv) {
  const int status = keel::bench::run_main(argc, argv);
  if (!font_file().empty()) print_packing();
  return status;
}
