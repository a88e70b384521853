// The book's font description (what keel-font --kcmd writes after the Texture block): a Font
// block that names its atlas texture and lists every character's record. The handler turns it
// into the same font chunk a Font built from a source makes; the atlas is the Texture asset it
// names, built by the Texture handler from the TGA.
#include "keel/assets/build/detail/font_description.h"

#include "keel/assets/font.h"
#include "keel/pack/format.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>

namespace keel::assets::detail {
namespace {

using text::kNumber;
using text::kString;

// Reads `count` numbers of `cmd`, each within [lo[i], hi[i]].
template <usize N>
bool numbers(pipeline::BuildContext& ctx, const text::Token& cmd, const std::array<s32, N>& lo,
             const std::array<s32, N>& hi, std::array<s32, N>& out) {
  bool ok = true;
  for (usize i = 0; i < N; ++i) {
    const text::Token* p = cmd.param(static_cast<u32>(i));
    if (p == nullptr || !p->is_number()) {
      ctx.error(p != nullptr ? *p : cmd, fmt::format("{} needs {} numbers", cmd.text, N));
      return false;
    }
    out[i] = p->as_int();
    if (out[i] < lo[i] || out[i] > hi[i]) {
      ctx.error(*p, fmt::format("{}: parameter {} is {} to {}", cmd.text, i + 1, lo[i], hi[i]));
      ok = false;
    }
  }
  if (cmd.param_count() != N) {
    ctx.error(cmd, fmt::format("{} takes {} numbers", cmd.text, N));
    ok = false;
  }
  return ok;
}

bool read_characters(pipeline::BuildContext& ctx, const text::Token& block, FontData& font) {
  std::array<s32, 1> count{};
  if (!numbers<1>(ctx, block, {0}, {0x110000}, count)) return false;
  bool ok = true;
  for (const text::Token& c : text::chain(block.conditional)) {
    std::array<s32, 7> v{};
    if (!c.is("Character")) {
      ctx.error(c,
                fmt::format("`{}` in Characters (Character(code, x, y, w, h, pre, post))", c.text));
      ok = false;
      continue;
    }
    if (!numbers<7>(ctx, c, {0, 0, 0, 0, 0, -32768, -32768},
                    {0x10FFFF, 65535, 65535, 65535, 65535, 32767, 32767}, v)) {
      ok = false;
      continue;
    }
    const FontGlyph g{static_cast<u32>(v[0]), static_cast<u16>(v[1]), static_cast<u16>(v[2]),
                      static_cast<u16>(v[3]), static_cast<u16>(v[4]), static_cast<s16>(v[5]),
                      static_cast<s16>(v[6])};
    if (!font.glyphs.empty() && font.glyphs.back().code >= g.code) {
      ctx.error(c, "characters must be listed once each, in ascending order");
      ok = false;
    }
    if (u32{g.x} + g.width > font.atlas_width || u32{g.y} + g.height > font.atlas_height) {
      ctx.error(c, fmt::format("character {} lies outside the {}x{} texture", g.code,
                               font.atlas_width, font.atlas_height));
      ok = false;
    }
    font.glyphs.push_back(g);
  }
  if (ok && static_cast<usize>(count[0]) != font.glyphs.size()) {
    ctx.error(block,
              fmt::format("Characters({}) lists {} characters", count[0], font.glyphs.size()));
    ok = false;
  }
  return ok;
}

bool read_kerning(pipeline::BuildContext& ctx, const text::Token& block, FontData& font) {
  std::array<s32, 1> count{};
  if (!numbers<1>(ctx, block, {0}, {1 << 30}, count)) return false;
  bool ok = true;
  for (const text::Token& k : text::chain(block.conditional)) {
    std::array<s32, 3> v{};
    if (!k.is("Kerning")) {
      ctx.error(k, fmt::format("`{}` in KerningPairs (Kerning(first, second, amount))", k.text));
      ok = false;
    } else if (numbers<3>(ctx, k, {0, 0, -32768}, {0x10FFFF, 0x10FFFF, 32767}, v)) {
      if (v[2] != 0) {
        font.kerning.push_back({static_cast<u32>(v[0]), static_cast<u32>(v[1]), v[2]});
      }
    } else {
      ok = false;
    }
  }
  const usize listed = static_cast<usize>(
      std::distance(text::chain(block.conditional).begin(), text::chain(block.conditional).end()));
  if (ok && static_cast<usize>(count[0]) != listed) {
    ctx.error(block, fmt::format("KerningPairs({}) lists {} pairs", count[0], listed));
    ok = false;
  }
  const auto before = [](const FontKerning& a, const FontKerning& b) {
    return a.first != b.first ? a.first < b.first : a.second < b.second;
  };
  std::sort(font.kerning.begin(), font.kerning.end(), before);
  const auto same = [](const FontKerning& a, const FontKerning& b) {
    return a.first == b.first && a.second == b.second;
  };
  if (std::adjacent_find(font.kerning.begin(), font.kerning.end(), same) != font.kerning.end()) {
    ctx.error(block, "a kerning pair is listed twice");
    ok = false;
  }
  return ok;
}

bool read_field(pipeline::BuildContext& ctx, const text::Token& opt, FontData& font) {
  std::array<s32, 1> v{};
  std::array<s32, 2> wh{};
  u16* field = opt.is("Size")         ? &font.pixel_size
               : opt.is("Border")     ? &font.border
               : opt.is("Height")     ? &font.cell_height
               : opt.is("Baseline")   ? &font.baseline
               : opt.is("LineHeight") ? &font.line_height
                                      : nullptr;
  if (field != nullptr) {
    if (!numbers<1>(ctx, opt, {0}, {65535}, v)) return false;
    *field = static_cast<u16>(v[0]);
    return true;
  }
  if (opt.is("TextureSize")) {
    if (!numbers<2>(ctx, opt, {1, 1}, {65535, 65535}, wh)) return false;
    font.atlas_width = static_cast<u16>(wh[0]);
    font.atlas_height = static_cast<u16>(wh[1]);
    return true;
  }
  if (opt.is("Characters")) return read_characters(ctx, opt, font);
  if (opt.is("KerningPairs")) return read_kerning(ctx, opt, font);
  ctx.error(opt, fmt::format("unknown option `{}` in a font description (Texture, TextureSize, "
                             "Size, Border, Height, Baseline, LineHeight, Characters, "
                             "KerningPairs)",
                             opt.text));
  return false;
}

}  // namespace

bool is_font_description(const text::Token& cmd) {
  for (const text::Token& opt : text::chain(cmd.conditional)) {
    if (opt.is("Texture")) return true;
  }
  return false;
}

bool build_described_font(pipeline::BuildContext& ctx) {
  const text::Token& cmd = ctx.command();
  FontData font;
  const text::Token* texture = nullptr;
  bool ok = true;
  for (const text::Token& opt : text::chain(cmd.conditional)) {
    if (opt.is("Texture")) {
      if (ctx.check(opt, {kString})) texture = opt.param(0);
      ok = ok && texture != nullptr;
      continue;
    }
    if (opt.is("Characters") && font.atlas_width == 0) {
      ctx.error(opt, "TextureSize(width, height) must come before Characters");
      ok = false;
      continue;
    }
    ok = read_field(ctx, opt, font) && ok;
  }
  if (font.baseline > font.cell_height) {
    ctx.error(cmd, "the Baseline lies below the cell Height");
    ok = false;
  }
  if (!ok || texture == nullptr) return false;
  font.atlas_name_hash = pack::name_hash(texture->text);
  const std::string_view name = cmd.param(0)->text;
  if (!ctx.set_output(name)) return false;
  if (ctx.up_to_date()) return true;
  pipeline::OutputFile* out = ctx.create_output();
  if (out == nullptr) return false;
  const u32 chunk = out->add_chunk(name, pipeline::kBlockGeneral, encode_font(font));
  if (chunk == 0) {
    out->close();
    return false;
  }
  out->add_item(name, kFontType, chunk);
  return out->close();
}

}  // namespace keel::assets::detail
