// Checks 16-18 (Golden Rules ch. 6 makefont) on a real font: DejaVu Sans from Debian's
// fonts-dejavu-core, rasterised by FreeType; check 18 compares with FreeType's own advances and
// HarfBuzz's shaping instead of GDI's TextOut.
#include "keel/assets/build/font_builder.h"

#include "keel/assets/build/detail/font_face.h"
#include "keel/assets/build/font_preview.h"
#include "keel/core/file.h"
#include "keel/text/document.h"

#include <ft2build.h>
#include FT_FREETYPE_H
#include <gtest/gtest.h>
#include <hb-ft.h>
#include <hb.h>
#include <stb/stb_image.h>

#include <cmath>
#include <filesystem>

namespace keel::assets {
namespace {

constexpr const char* kDejaVu = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";

const std::string& dejavu() {
  static const std::string bytes = [] {
    Result<std::string> r = read_file(kDejaVu);
    return r ? *r : std::string();
  }();
  return bytes;
}

FontBuild build_or_die(const FontOptions& options) {
  Result<FontBuild> b = build_font(as_bytes(dejavu()), "DejaVuSans.ttf", options);
  EXPECT_TRUE(b) << b.error().to_string();
  return b ? std::move(*b) : FontBuild{};
}

class FontBuilder : public ::testing::Test {
 protected:
  void SetUp() override {
    if (dejavu().empty()) GTEST_SKIP() << kDejaVu << " missing (fonts-dejavu-core)";
  }
};

TEST_F(FontBuilder, C16_LayoutValidityOnDejaVu) {
  FontOptions options;
  options.fit_width = 256;
  options.fit_height = 256;
  options.border = 1;
  const FontBuild b = build_or_die(options);
  const FontData& f = b.font;
  EXPECT_EQ(f.atlas_width, 256);
  EXPECT_EQ(f.atlas_height, 256);
  ASSERT_EQ(f.glyphs.size(), 95u);  // every requested character exactly once, ascending
  for (usize i = 0; i < f.glyphs.size(); ++i) EXPECT_EQ(f.glyphs[i].code, 32 + i);
  std::vector<u8> covered(b.atlas.size(), 0);
  for (const FontGlyph& g : f.glyphs) {
    EXPECT_LE(g.x + g.width, f.atlas_width);
    EXPECT_LE(g.y + g.height, f.atlas_height);
    for (u32 y = g.y; y < u32{g.y} + g.height; ++y) {
      for (u32 x = g.x; x < u32{g.x} + g.width; ++x) {
        const usize at = usize{y} * f.atlas_width + x;
        EXPECT_EQ(covered[at], 0) << "cells overlap at " << x << "," << y;
        // Ink stays inside the cell, off its border.
        const bool border = x < u32{g.x} + f.border || x >= u32{g.x} + g.width - f.border ||
                            y < u32{g.y} + f.border || y >= u32{g.y} + g.height - f.border;
        if (border) {
          EXPECT_EQ(b.atlas[at], 0) << "ink on the border of U+" << g.code;
        }
        covered[at] = 1;
      }
    }
  }
  for (usize i = 0; i < covered.size(); ++i) {
    if (covered[i] == 0) {
      EXPECT_EQ(b.atlas[i], 0) << "ink outside every cell at " << i;
    }
  }
  if (HasFailure()) {  // the picture of the atlas next to the failing test
    const std::filesystem::path png = std::filesystem::path(KEEL_TEST_TMPDIR) / "c16_atlas.png";
    std::filesystem::create_directories(png.parent_path());
    const ByteBuffer chunk = encode_font(f);
    const Result<FontView> view = FontView::parse(chunk);
    if (view && write_png(font_atlas_picture(*view, b.atlas), png)) {
      ADD_FAILURE() << "the atlas with its glyph boxes: " << png.string();
    }
  }
  // The size search found the largest size: one pixel more does not fit 256x256.
  EXPECT_GT(b.size_tests, 0u);
  FontOptions bigger = options;
  bigger.size = f.pixel_size + 1;
  EXPECT_FALSE(build_font(as_bytes(dejavu()), "DejaVuSans.ttf", bigger));
  bigger.size = f.pixel_size;
  EXPECT_TRUE(build_font(as_bytes(dejavu()), "DejaVuSans.ttf", bigger));
}

TEST_F(FontBuilder, C17_OutputFiles) {
  FontOptions options;
  options.size = 20;
  const FontBuild b = build_or_die(options);
  const FontData& f = b.font;
  // An 8-bit grayscale TGA the size of the texture, holding the atlas.
  const ByteBuffer tga = font_tga(b);
  ASSERT_GT(tga.size(), 18u);
  const auto* bytes = reinterpret_cast<const stbi_uc*>(tga.data());  // NOLINT
  EXPECT_TRUE(bytes[2] == 3 || bytes[2] == 11);                      // grayscale, raw or run-length
  EXPECT_EQ(bytes[16], 8);                                           // bits per pixel
  int w = 0;
  int h = 0;
  int channels = 0;
  stbi_uc* pixels =
      stbi_load_from_memory(bytes, static_cast<int>(tga.size()), &w, &h, &channels, 1);
  ASSERT_NE(pixels, nullptr);
  EXPECT_EQ(channels, 1);
  EXPECT_EQ(w, f.atlas_width);
  EXPECT_EQ(h, f.atlas_height);
  EXPECT_TRUE(std::equal(b.atlas.begin(), b.atlas.end(), pixels));
  stbi_image_free(pixels);

  // The command file: a texture block, then the font block with its records.
  const std::string kcmd = font_command_file(b, "Sans20", "Sans20.tga");
  text::Diagnostics diag;
  auto doc = text::parse(kcmd, "Sans20.kcmd", diag);
  ASSERT_FALSE(diag.has_errors()) << diag.render();
  const text::Token* texture = doc->first();
  ASSERT_NE(texture, nullptr);
  EXPECT_TRUE(texture->is("Texture"));
  EXPECT_EQ(texture->param(0)->text, "Sans20_atlas");
  const text::Token* font = texture->next;
  ASSERT_NE(font, nullptr);
  EXPECT_TRUE(font->is("Font"));
  const text::Token* characters = nullptr;
  bool has_texture_ref = false;
  bool has_height = false;
  for (const text::Token& t : text::chain(font->conditional)) {
    if (t.is("Texture")) has_texture_ref = t.param(0)->text == "Sans20_atlas";
    if (t.is("Height")) has_height = t.param(0)->as_int() == f.cell_height;
    if (t.is("Characters")) characters = &t;
  }
  EXPECT_TRUE(has_texture_ref);
  EXPECT_TRUE(has_height);
  ASSERT_NE(characters, nullptr);
  usize records = 0;
  s32 previous = -1;
  for (const text::Token& c : text::chain(characters->conditional)) {
    ASSERT_TRUE(c.is("Character"));
    ASSERT_EQ(c.param_count(), 7u);  // char, x, y, w, h, preadvance, postadvance
    EXPECT_GT(c.param(0)->as_int(), previous);
    previous = c.param(0)->as_int();
    const FontGlyph& g = f.glyphs[records];
    EXPECT_EQ(c.param(1)->as_int(), g.x);
    EXPECT_EQ(c.param(5)->as_int(), g.preadvance);
    EXPECT_EQ(c.param(6)->as_int(), g.postadvance);
    ++records;
  }
  EXPECT_EQ(static_cast<usize>(characters->param(0)->as_int()), records);
  EXPECT_EQ(records, f.glyphs.size());

  // AngelCode BMFont text.
  const std::string fnt = font_bmfont_text(b, "Sans20.tga");
  EXPECT_EQ(fnt.rfind("info face=\"DejaVu Sans\" size=20 ", 0), 0u) << fnt.substr(0, 80);
  EXPECT_NE(fnt.find("chars count=95\n"), std::string::npos);
  EXPECT_NE(fnt.find("page id=0 file=\"Sans20.tga\""), std::string::npos);
  EXPECT_NE(fnt.find(fmt::format("kernings count={}\n", f.kerning.size())), std::string::npos);
  EXPECT_EQ(static_cast<usize>(std::count(fnt.begin(), fnt.end(), '\n')),
            4 + f.glyphs.size() + 1 + f.kerning.size());
}

// FreeType's and HarfBuzz's own view of a string: the cursor after each character.
class Reference {
 public:
  explicit Reference(s32 size) {
    FT_Init_FreeType(&library_);
    FT_New_Memory_Face(library_, reinterpret_cast<const FT_Byte*>(dejavu().data()),  // NOLINT
                       static_cast<FT_Long>(dejavu().size()), 0, &face_);
    FT_Set_Pixel_Sizes(face_, 0, static_cast<FT_UInt>(size));
    font_ = hb_ft_font_create_referenced(face_);
    hb_ft_font_set_load_flags(font_, FT_LOAD_DEFAULT);  // hinted advances, as rasterised
  }
  ~Reference() {
    hb_font_destroy(font_);
    FT_Done_Face(face_);
    FT_Done_FreeType(library_);
  }
  Reference(const Reference&) = delete;
  Reference& operator=(const Reference&) = delete;

  // FreeType alone: the sum of the hinted advances.
  std::vector<s32> freetype(std::string_view ascii) const {
    std::vector<s32> out;
    s32 x = 0;
    for (char c : ascii) {
      FT_Load_Char(face_, static_cast<FT_ULong>(c), FT_LOAD_DEFAULT);
      x += static_cast<s32>(std::lround(static_cast<double>(face_->glyph->advance.x) / 64.0));
      out.push_back(x);
    }
    return out;
  }
  // HarfBuzz shaping (GPOS kerning included).
  std::vector<s32> harfbuzz(std::string_view ascii) const {
    hb_buffer_t* buffer = hb_buffer_create();
    hb_buffer_add_utf8(buffer, ascii.data(), static_cast<int>(ascii.size()), 0, -1);
    hb_buffer_guess_segment_properties(buffer);
    hb_shape(font_, buffer, nullptr, 0);
    unsigned int n = 0;
    const hb_glyph_position_t* pos = hb_buffer_get_glyph_positions(buffer, &n);
    std::vector<s32> out;
    s64 x = 0;
    for (unsigned int i = 0; i < n; ++i) {
      x += pos[i].x_advance;
      out.push_back(static_cast<s32>(std::lround(static_cast<double>(x) / 64.0)));
    }
    hb_buffer_destroy(buffer);
    return out;
  }

 private:
  FT_Library library_ = nullptr;
  FT_Face face_ = nullptr;
  hb_font_t* font_ = nullptr;
};

// The cursor after each character, with the kerning of the pair it starts (where the next
// character is drawn from), as HarfBuzz's advances count it.
std::vector<s32> cursors(const FontView& view, std::string_view text) {
  std::vector<s32> out;
  for (usize i = 1; i <= text.size(); ++i) {
    const s32 kern =
        i < text.size() ? view.kerning(static_cast<u8>(text[i - 1]), static_cast<u8>(text[i])) : 0;
    out.push_back(view.measure(text.substr(0, i)) + kern);
  }
  return out;
}

TEST_F(FontBuilder, C18_RenderingMatchesFreeTypeAndHarfBuzz) {
  for (s32 size : {12, 20, 32, 48}) {
    for (s32 border : {0, 2}) {
      FontOptions options;
      options.size = size;
      options.border = border;
      const FontBuild b = build_or_die(options);
      const ByteBuffer chunk = encode_font(b.font);
      const FontView view = *FontView::parse(chunk);
      const Reference ref(size);
      EXPECT_EQ(cursors(view, "II"), ref.freetype("II")) << size << " px";
      EXPECT_EQ(cursors(view, "Hello, world"), ref.freetype("Hello, world")) << size << " px";
      // Kerned pairs: each pair as HarfBuzz shapes it.
      for (std::string_view pair : {"AV", "VA", "To", "LT", "Yo", "AT", "II"}) {
        EXPECT_EQ(cursors(view, pair), ref.harfbuzz(pair)) << pair << " at " << size << " px";
      }
      EXPECT_NE(view.kerning('A', 'V'), 0) << size << " px";
    }
  }
}

TEST_F(FontBuilder, TextPictureDrawsTheQuads) {
  FontOptions options;
  options.size = 20;
  const FontBuild b = build_or_die(options);
  const ByteBuffer chunk = encode_font(b.font);
  const FontView view = *FontView::parse(chunk);
  const Picture one = font_text_picture(view, b.atlas, "I");
  const Picture two = font_text_picture(view, b.atlas, "II");
  EXPECT_EQ(two.width - one.width, static_cast<u32>(view.measure("I")));
  EXPECT_EQ(two.height, one.height);
  const auto dark = [](const Picture& p) {
    usize n = 0;
    for (usize i = 0; i < p.rgba.size(); i += 4) n += p.rgba[i] < 128 ? 1 : 0;
    return n;
  };
  EXPECT_GT(dark(one), 20u);
  EXPECT_EQ(dark(two), 2 * dark(one));  // the same glyph twice, whole pixels apart
}

TEST_F(FontBuilder, KerningComesFromTheFont) {
  Result<detail::FontFace> face = detail::FontFace::open(as_bytes(dejavu()), "DejaVuSans.ttf");
  ASSERT_TRUE(face);
  ASSERT_TRUE(face->set_size(32));
  const std::vector<u32> codes{'A', 'V', 'T', 'o', 'I'};
  const auto pairs = face->kerning(codes);
  EXPECT_FALSE(pairs.empty());
  for (const auto& p : pairs) {
    EXPECT_NE(p.amount, 0);
    EXPECT_FALSE(p.first == 'I' && p.second == 'I');
  }
  FontOptions options;
  options.size = 32;
  options.kerning = false;
  EXPECT_TRUE(build_or_die(options).font.kerning.empty());
}

TEST_F(FontBuilder, UnicodeMissingAndMonochrome) {
  FontOptions options;
  options.size = 16;
  options.characters = {'a', 0xE4, 0x20AC, 0x10FFFD, 7};  // a, ä, €, no glyph, control
  options.antialias = false;
  const FontBuild b = build_or_die(options);
  ASSERT_EQ(b.font.glyphs.size(), 3u);
  EXPECT_EQ(b.missing, (std::vector<u32>{0x10FFFD}));
  for (u8 v : b.atlas) ASSERT_TRUE(v == 0 || v == 255);
  EXPECT_GT(b.packing_efficiency(), 0.0);
}

TEST(EntryPoints, FontBuildBadOptions) {
  FontOptions none;
  EXPECT_EQ(build_font(as_bytes(dejavu()), "x", none).error().code(), ErrorCode::kInvalidArgument);
  FontOptions options;
  options.size = 12;
  EXPECT_EQ(build_font({}, "empty.ttf", options).error().code(), ErrorCode::kCorrupt);
  EXPECT_EQ(build_font(as_bytes("not a font"), "x.ttf", options).error().code(),
            ErrorCode::kCorrupt);
  if (dejavu().empty()) return;
  options.fit_width = 16;  // half a texture size
  EXPECT_FALSE(build_font(as_bytes(dejavu()), "x", options));
  options.fit_height = 16;  // 12 px ASCII does not fit 16x16
  EXPECT_FALSE(build_font(as_bytes(dejavu()), "x", options));
  options.size = 0;  // nor at any size? at 1-2 px it may: either way no crash
  (void)build_font(as_bytes(dejavu()), "x", options);
  FontOptions huge;  // rendering stops once the ink alone exceeds the largest texture
  huge.size = 4096;
  huge.characters = {'W', 'M', '@', '#', 'Q'};
  Result<FontBuild> too_big = build_font(as_bytes(dejavu()), "x", huge);
  ASSERT_FALSE(too_big);
  EXPECT_NE(too_big.error().message().find("fit no texture up to 4096x4096"), std::string::npos);
  FontOptions border;
  border.size = 12;
  border.border = -1;
  EXPECT_FALSE(build_font(as_bytes(dejavu()), "x", border));
  FontOptions nothing;
  nothing.size = 12;
  nothing.characters = {0x10FFFD};
  EXPECT_EQ(build_font(as_bytes(dejavu()), "x", nothing).error().code(), ErrorCode::kNotFound);
  EXPECT_EQ(font_tga(FontBuild{}).size(), 0u);
}

}  // namespace
}  // namespace keel::assets

TEST(FontCharacters, Utf8DecodesAndRejectsMalformedText) {
  std::vector<keel::u32> codes;
  EXPECT_TRUE(keel::assets::append_utf8("A\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80", codes));
  EXPECT_EQ(codes, (std::vector<keel::u32>{'A', 0xE9, 0x20AC, 0x1F600}));
  EXPECT_FALSE(keel::assets::append_utf8("\xC3", codes));      // cut sequence
  EXPECT_FALSE(keel::assets::append_utf8("\xC3\x41", codes));  // bad continuation byte
  EXPECT_FALSE(keel::assets::append_utf8("\xFF", codes));      // bad lead byte
}
