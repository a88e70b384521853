// The Texture command language, the platform format table, mip chains (gamma, artist-made
// chains, per-level fades) and the entry points' handling of bad input.
#include "keel/assets/build/detail/texture_spec.h"
#include "keel/assets/build/detail/texture_formats.h"
#include "keel/assets/build/detail/texture_process.h"
#include "keel/text/document.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace keel::assets::detail {
namespace {

struct Parsed {
  std::unique_ptr<text::Document> doc;
  text::Diagnostics diag;
  std::optional<TextureSpec> spec;
};

std::unique_ptr<Parsed> parse(std::string_view source) {
  auto out = std::make_unique<Parsed>();
  out->doc = text::parse(std::string(source), "t.kcmd", out->diag);
  if (out->doc != nullptr) out->spec = parse_texture(*out->doc->first(), out->diag);
  return out;
}

TEST(TextureSpec, ReadsEveryDefinitionCommand) {
  auto p = parse(
      R"(Texture("T") { Size(64, 32); Format("dxt5"); Levels(3); Filter("Point"); Wrap("mirror");
                    Color(255, 0, 51, 0); Quality("fast"); MipSpace("linear"); NormalHeight(2);
                    MipFade(128, 128, 128, 255, 0.25); Image("a.png", "g", "r"); })");
  ASSERT_TRUE(p->spec.has_value()) << p->diag.render();
  const TextureSpec& s = *p->spec;
  EXPECT_EQ(s.name, "T");
  EXPECT_EQ((*s.size)[0], 64u);
  EXPECT_EQ(s.format, "dxt5");
  EXPECT_EQ(s.levels, 3u);
  EXPECT_EQ(s.filter, TextureFilter::kPoint);
  EXPECT_EQ(s.wrap, TextureWrap::kMirror);
  EXPECT_FLOAT_EQ(s.color.b, 0.2f);
  EXPECT_EQ(s.quality, BlockQuality::kFast);
  EXPECT_FALSE(s.filter_in_srgb());
  EXPECT_FLOAT_EQ(s.normal_height, 2.0f);
  EXPECT_FLOAT_EQ(s.fade->amount, 0.25f);
  ASSERT_EQ(s.images.size(), 1u);
  EXPECT_EQ(s.images[0].channels[0].channel, 1);
  EXPECT_EQ(s.images[0].channels[1].channel, 0);
  EXPECT_EQ(s.images[0].channels[2].op, ChannelOp::kCopy);
}

TEST(TextureSpec, NormalMapsFilterLinearly) {
  EXPECT_TRUE(parse(R"(Texture("T") { Image("a.png"); })")->spec->filter_in_srgb());
  EXPECT_FALSE(
      parse(R"(Texture("T") { Image("a.png", "nx", "ny", "nz"); })")->spec->filter_in_srgb());
  EXPECT_TRUE(
      parse(R"(Texture("T") { MipSpace("srgb"); Image("a.png", "nx"); })")->spec->filter_in_srgb());
}

TEST(EntryPoints, TextureCommandErrorsAreLocated) {
  struct Case {
    const char* source;
    const char* message;
    u32 column;
  };
  const Case cases[] = {
      {R"(Texture("T") { Size(0, 4); })", "Size is two whole numbers", 16},
      {R"(Texture("T") { Levels(-1); Size(4,4); })", "Levels is a whole number", 23},
      {R"(Texture("T") { Filter("cubic"); Size(4,4); })", "unknown filter", 23},
      {R"(Texture("T") { Wrap("repeat"); Size(4,4); })", "unknown wrap mode", 21},
      {R"(Texture("T") { Color(300,0,0,0); Size(4,4); })", "0 to 255", 22},
      {R"(Texture("T") { Image("a.png", "maxr"); })", "2 to 4 different channels", 31},
      {R"(Texture("T") { Image("a.png", "purple"); })", "unknown channel specifier", 31},
      {R"(Texture("T") { Bogus(1); Size(4,4); })", "unknown Texture command", 16},
      {R"(Texture("T") { Image("a.png"); Levels(2); })", "must come before the first Image", 32},
      {R"(Texture("T") { Image(3); })", "expects a string", 22},
      {R"(Texture("T") { MipFade(1,1,1,1,2); Size(4,4); })", "MipFade amount", 32},
      {R"(Texture(7) { Size(4,4); })", "expects a string", 9},
  };
  for (const Case& c : cases) {
    auto p = parse(c.source);
    ASSERT_FALSE(p->spec.has_value()) << c.source;
    ASSERT_TRUE(p->diag.has_errors()) << c.source;
    const Error& e = p->diag.items()[0].error;
    EXPECT_NE(e.message().find(c.message), std::string::npos) << c.source << ": " << e.message();
    EXPECT_EQ(e.where().line, 1u) << c.source;
    EXPECT_EQ(e.where().column, c.column) << c.source << ": " << e.to_string();
  }
}

TEST(TextureFormats, ArtistNamesAndPlatformTable) {
  EXPECT_EQ(artist_format("DXT2")->format, TextureFormat::kBC2);
  EXPECT_TRUE(artist_format("DXT2")->premultiplied);
  EXPECT_FALSE(artist_format("dxt3")->premultiplied);
  EXPECT_EQ(artist_format("DXT4")->format, TextureFormat::kBC3);
  EXPECT_EQ(artist_format("ATI2")->format, TextureFormat::kBC5);
  auto unknown = artist_format("PVRTC");
  ASSERT_FALSE(unknown.has_value());
  EXPECT_NE(unknown.error().message().find("A8R8G8B8"), std::string::npos);
  for (std::string_view name : artist_format_names()) {
    const TextureFormat wanted = artist_format(name)->format;
    for (std::string_view platform : {"PC", "Handheld", "Unknown"}) {
      EXPECT_TRUE(is_valid(closest_format(platform, wanted))) << name << " on " << platform;
    }
    EXPECT_EQ(closest_format("PC", wanted), wanted);
  }
  EXPECT_EQ(closest_format("handheld", TextureFormat::kBC3), TextureFormat::kA4R4G4B4);
  EXPECT_EQ(closest_format("Handheld", TextureFormat::kBC4), TextureFormat::kL8);
  EXPECT_EQ(closest_format("Handheld", TextureFormat::kBC1), TextureFormat::kBC1);
}

Image checkerboard(u32 size) {
  Image image(size, size);
  for (u32 y = 0; y < size; ++y) {
    for (u32 x = 0; x < size; ++x) {
      const f32 v = (x + y) % 2 == 0 ? 1.0f : 0.0f;
      image.at(x, y) = {v, v, v, 1.0f};
    }
  }
  return image;
}

TEST(TextureMips, GammaCorrectDownsampling) {
  const Image board = checkerboard(16);
  auto srgb = parse(R"(Texture("T") { Image("a.png"); })");
  auto levels = make_levels(*srgb->spec, board);
  ASSERT_TRUE(levels.has_value());
  ASSERT_EQ(levels->size(), 5u);
  // Half the light of white is sRGB 188, not 128.
  EXPECT_NEAR(to_u8(levels->back().at(0, 0).r), 188, 4);
  auto raw = parse(R"(Texture("T") { MipSpace("linear"); Image("a.png"); })");
  auto plain = make_levels(*raw->spec, board);
  ASSERT_TRUE(plain.has_value());
  EXPECT_NEAR(to_u8(plain->back().at(0, 0).r), 128, 4);
}

TEST(TextureMips, ArtistMadeChainIsCut) {
  // Level 0 (8x8 red) with 4x4 green, 2x2 blue and 1x1 white in a column beside it.
  Image sheet(12, 8, {0.0f, 0.0f, 0.0f, 1.0f});
  const auto fill = [&](u32 x0, u32 y0, u32 n, Rgba c) {
    for (u32 y = y0; y < y0 + n; ++y) {
      for (u32 x = x0; x < x0 + n; ++x) sheet.at(x, y) = c;
    }
  };
  fill(0, 0, 8, {1, 0, 0, 1});
  fill(8, 0, 4, {0, 1, 0, 1});
  fill(8, 4, 2, {0, 0, 1, 1});
  fill(8, 6, 1, {1, 1, 1, 1});
  auto p = parse(R"(Texture("T") { ArtistMips(); Image("chain.png"); })");
  auto levels = make_levels(*p->spec, sheet);
  ASSERT_TRUE(levels.has_value()) << levels.error().to_string();
  ASSERT_EQ(levels->size(), 4u);
  EXPECT_EQ((*levels)[0].width(), 8u);
  EXPECT_EQ((*levels)[1].at(3, 3), (Rgba{0, 1, 0, 1}));
  EXPECT_EQ((*levels)[2].at(1, 1), (Rgba{0, 0, 1, 1}));
  EXPECT_EQ((*levels)[3].at(0, 0), (Rgba{1, 1, 1, 1}));
  auto two = parse(R"(Texture("T") { ArtistMips(); Levels(2); Image("chain.png"); })");
  EXPECT_EQ(make_levels(*two->spec, sheet)->size(), 2u);
  auto bad = make_levels(*p->spec, Image(8, 8));
  ASSERT_FALSE(bad.has_value());
  EXPECT_NE(bad.error().message().find("ArtistMips"), std::string::npos);
  auto sized = parse(R"(Texture("T") { Size(4,4); ArtistMips(); Image("chain.png"); })");
  EXPECT_FALSE(make_levels(*sized->spec, sheet).has_value());
}

TEST(TextureMips, FadePerLevel) {
  auto p = parse(R"(Texture("T") { MipFade(0, 0, 0, 255, 0.5); Image("a.png"); })");
  auto levels = make_levels(*p->spec, Image(4, 4, {1, 1, 1, 1}));
  ASSERT_TRUE(levels.has_value());
  ASSERT_EQ(levels->size(), 3u);
  EXPECT_FLOAT_EQ((*levels)[0].at(0, 0).r, 1.0f);
  EXPECT_NEAR((*levels)[1].at(0, 0).r, 0.5f, 1e-5f);
  EXPECT_NEAR((*levels)[2].at(0, 0).r, 0.0f, 1e-5f);
}

TEST(EntryPoints, TextureProcessingRejectsBadInput) {
  auto p = parse(R"(Texture("T") { Image("a.png"); })");
  EXPECT_FALSE(composite(*p->spec, {}).has_value());  // sources missing
  const Image empty;
  EXPECT_FALSE(composite(*p->spec, std::span(&empty, 1)).has_value());
  EXPECT_FALSE(make_levels(*p->spec, Image()).has_value());
  const ImageLoader failing = [](const ImageSpec&) -> Result<Image> {
    return fail(ErrorCode::kNotFound, "gone");
  };
  EXPECT_FALSE(build_texture(*p->spec, "PC", failing).has_value());
  auto fmt = parse(R"(Texture("T") { Size(4,4); Format("PVRTC"); })");
  auto built = build_texture(*fmt->spec, "PC", failing);
  ASSERT_FALSE(built.has_value());
  EXPECT_NE(built.error().message().find("unknown texture format"), std::string::npos);
  EXPECT_FALSE(Image::decode(ByteSpan{}).has_value());
  EXPECT_FALSE(Image::decode(as_bytes("not an image")).has_value());
  EXPECT_FALSE(Image::load("/nonexistent/keel.png").has_value());
  EXPECT_TRUE(Image(0, 5).empty());
  EXPECT_TRUE(Image(4, 4).resized(0, 3).empty());
}

}  // namespace
}  // namespace keel::assets::detail
