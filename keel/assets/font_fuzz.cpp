// Fuzz target: the font chunk view (data files are external data).
#include "keel/assets/font.h"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace keel::assets;
  const keel::ByteSpan bytes = keel::as_bytes(std::span<const uint8_t>(data, size));
  keel::Result<FontView> font = FontView::parse(bytes);
  if (!font) return 0;
  for (keel::u32 i = 0; i < font->glyph_count(); ++i) {
    const FontGlyph g = font->glyph(i);
    if (g.x + g.width > font->atlas_width() || g.y + g.height > font->atlas_height()) std::abort();
  }
  std::vector<FontVertex> vertices;
  const TextRun run = font->layout("AV To\n\xc3\xa4?\xff", 0, 0, vertices);
  if (vertices.size() != keel::usize{run.glyphs} * 4) std::abort();
  for (const FontVertex& v : vertices) {
    if (v.u < 0.0f || v.u > 1.0f || v.v < 0.0f || v.v > 1.0f) std::abort();  // inside the atlas
  }
  (void)font->measure("WAVE");
  return 0;
}
