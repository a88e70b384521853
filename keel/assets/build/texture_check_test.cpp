// The spec's texture acceptance checks 1-12 (golden-rules-ch6-7 part C.1) and the book's five
// examples, on generated source images.
#include "keel/assets/build/detail/texture_process.h"
#include "keel/assets/build/detail/texture_spec.h"
#include "keel/assets/build/image.h"
#include "keel/assets/build/texture_preview.h"
#include "keel/assets/build/texture_writer.h"
#include "keel/assets/texture.h"
#include "keel/text/document.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <set>
#include <string>

namespace keel::assets {
namespace {

using detail::ProcessLog;
using detail::TextureSpec;

Rgba rgb8(u32 r, u32 g, u32 b, u32 a = 255) {
  return {static_cast<f32>(r) / 255.0f, static_cast<f32>(g) / 255.0f, static_cast<f32>(b) / 255.0f,
          static_cast<f32>(a) / 255.0f};
}

// A smooth colour picture: red across, green down, blue diagonal.
Image gradient(u32 w, u32 h) {
  Image image(w, h);
  for (u32 y = 0; y < h; ++y) {
    for (u32 x = 0; x < w; ++x) {
      image.at(x, y) = {static_cast<f32>(x) / static_cast<f32>(w),
                        static_cast<f32>(y) / static_cast<f32>(h),
                        static_cast<f32>(x + y) / static_cast<f32>(w + h), 1.0f};
    }
  }
  return image;
}

struct Built {
  ByteBuffer chunk;
  Texture texture;
  ProcessLog log;
};

using Sources = std::map<std::string, Image>;

std::optional<TextureSpec> parse(std::string_view source, text::Diagnostics& diag,
                                 std::unique_ptr<text::Document>& doc) {
  doc = text::parse(std::string(source), "test.kcmd", diag);
  if (doc == nullptr) return std::nullopt;
  return detail::parse_texture(*doc->first(), diag);
}

// Parses one Texture command and runs the six steps with `sources` as the files.
Result<Built> build(std::string_view source, const Sources& sources,
                    std::string_view platform = "PC") {
  text::Diagnostics diag;
  std::unique_ptr<text::Document> doc;
  std::optional<TextureSpec> spec = parse(source, diag, doc);
  if (!spec) return Unexpected(diag.status().error());
  Built out{.chunk = {}, .texture = {}, .log = {}};
  const detail::ImageLoader load = [&](const detail::ImageSpec& image) -> Result<Image> {
    const auto it = sources.find(image.file);
    if (it == sources.end()) return fail(ErrorCode::kNotFound, "no source {}", image.file);
    return it->second;
  };
  Result<ByteBuffer> chunk = detail::build_texture(*spec, platform, load, &out.log);
  if (!chunk) return Unexpected(chunk.error());
  out.chunk = std::move(*chunk);
  Result<Texture> view = Texture::view(out.chunk);
  if (!view) return Unexpected(view.error());
  out.texture = *view;
  return out;
}

// After a failed check, the texture's contact sheet goes next to the test (artists and
// programmers look at pictures): <test tmp dir>/<test name>.png.
class FailurePicture {
 public:
  explicit FailurePicture(const Texture& texture) : texture_(texture) {}
  FailurePicture(const FailurePicture&) = delete;
  FailurePicture& operator=(const FailurePicture&) = delete;
  ~FailurePicture() {
    if (!::testing::Test::HasFailure()) return;
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    const std::filesystem::path dir = KEEL_TEST_TMPDIR;
    std::filesystem::create_directories(dir);
    const std::filesystem::path path = dir / (std::string(info->name()) + ".png");
    auto sheet = texture_contact_sheet(texture_);
    if (sheet && write_png(*sheet, path))
      std::fprintf(stderr, "texture picture: %s\n", path.c_str());
  }

 private:
  const Texture& texture_;
};

// Pixel (x, y) of level `level` as 8-bit RGBA.
std::array<u8, 4> pixel(const Texture& t, u32 level, u32 x, u32 y) {
  const TextureLevel l = t.level(level);
  const std::vector<u8> rgba = decode_level_rgba8(t.format(), l);
  const usize i = (usize{y} * l.width + x) * 4;
  return {rgba[i], rgba[i + 1], rgba[i + 2], rgba[i + 3]};
}

TEST(TextureCheck, C01_GrayFormula) {
  EXPECT_NEAR(gray_of(rgb8(255, 0, 0)) * 255.0f, 76.5f, 1e-3f);
  EXPECT_NEAR(gray_of(rgb8(0, 255, 0)) * 255.0f, 150.45f, 1e-3f);
  EXPECT_NEAR(gray_of(rgb8(0, 0, 255)) * 255.0f, 28.05f, 1e-3f);
  EXPECT_NEAR(gray_of(rgb8(255, 255, 255)) * 255.0f, 255.0f, 1e-3f);
  EXPECT_NEAR(gray_of(rgb8(100, 150, 200)) * 255.0f, 140.5f, 1e-3f);
  // Quantising rounds halves up; float arithmetic may land just below a half (the spec allows it).
  EXPECT_GE(to_u8(gray_of(rgb8(255, 0, 0))), 76);
  EXPECT_LE(to_u8(gray_of(rgb8(255, 0, 0))), 77);
  EXPECT_EQ(to_u8(gray_of(rgb8(0, 255, 0))), 150);
  EXPECT_EQ(to_u8(gray_of(rgb8(0, 0, 255))), 28);
  EXPECT_EQ(to_u8(gray_of(rgb8(255, 255, 255))), 255);
  EXPECT_GE(to_u8(gray_of(rgb8(100, 150, 200))), 140);
  EXPECT_LE(to_u8(gray_of(rgb8(100, 150, 200))), 141);
  EXPECT_EQ(to_u8(76.5f / 255.0f), 77);  // the rounding rule itself
}

TEST(TextureCheck, C02_GrayscaleIsMonochrome) {
  const Image source = gradient(17, 9);
  const Image gray = source.grayscale();
  const Image mono = source.monochrome(0.30f, 0.59f, 0.11f, 0.0f);
  ASSERT_EQ(gray.pixels().size(), mono.pixels().size());
  EXPECT_EQ(std::memcmp(gray.pixels().data(), mono.pixels().data(), gray.pixels().size_bytes()), 0);
  const Image red = source.monochrome(1.0f, 0.0f, 0.0f, 0.0f);
  for (usize i = 0; i < red.pixels().size(); ++i)
    EXPECT_EQ(red.pixels()[i].g, source.pixels()[i].r);
}

TEST(TextureCheck, C03_ManipulatorsDoNotMutate) {
  Image source = gradient(16, 8);
  const std::vector<Rgba> before(source.pixels().begin(), source.pixels().end());
  const Image a = source.resized(5, 3);
  const Image b = source.duplicate();
  const Image c = source.grayscale();
  const Image d = source.normal_map(4.0f);
  EXPECT_TRUE(std::ranges::equal(before, source.pixels()));
  EXPECT_EQ(a.width(), 5u);
  EXPECT_TRUE(std::ranges::equal(b.pixels(), source.pixels()));
  EXPECT_NE(b.pixels().data(), source.pixels().data());
  EXPECT_NE(c.pixels()[3], source.pixels()[3]);
  EXPECT_EQ(d.pixels()[0].a, 0.0f);  // IImage::NormalMap leaves alpha 0
}

TEST(TextureCheck, C04_Example1ConstantAlpha) {
  const Image photo = gradient(300, 200);
  auto built =
      build(R"(Texture("Example1") { Size(256,256); Format("A8R8G8B8"); Color(255,255,255,192);
                         Image("example1.jpg","r","g","b","n"); })",
            {{"example1.jpg", photo}});
  ASSERT_TRUE(built.has_value()) << built.error().to_string();
  const Texture& t = built->texture;
  const FailurePicture picture(t);
  EXPECT_EQ(t.format(), TextureFormat::kA8R8G8B8);
  EXPECT_EQ(t.width(), 256u);
  EXPECT_EQ(t.height(), 256u);
  EXPECT_EQ(t.level_count(), 9u);
  const std::vector<u8> expected = photo.resized(256, 256).to_rgba8();
  const std::span<const u8> level0 = as_u8(t.level(0).data);  // B, G, R, A
  for (usize i = 0; i < usize{256} * 256; ++i) {
    ASSERT_EQ(level0[i * 4 + 3], 192) << "pixel " << i;
    ASSERT_EQ(level0[i * 4 + 2], expected[i * 4 + 0]) << "pixel " << i;
    ASSERT_EQ(level0[i * 4 + 1], expected[i * 4 + 1]) << "pixel " << i;
    ASSERT_EQ(level0[i * 4 + 0], expected[i * 4 + 2]) << "pixel " << i;
  }
  for (u32 l = 1; l < t.level_count(); ++l) EXPECT_EQ(pixel(t, l, 0, 0)[3], 192) << "level " << l;
}

TEST(TextureExample, Example2SixteenBitGrayAlphaPointSampled) {
  // The book prints Size(128,28); its text says 128x128.
  const Image photo = gradient(64, 64);
  auto built = build(R"(Texture("Example2") { Size(128,128); Format("A4R4G4B4"); Filter("point");
                         Image("example2.jpg","r","g","b","gray"); })",
                     {{"example2.jpg", photo}});
  ASSERT_TRUE(built.has_value()) << built.error().to_string();
  const Texture& t = built->texture;
  const FailurePicture picture(t);
  EXPECT_EQ(t.format(), TextureFormat::kA4R4G4B4);
  EXPECT_EQ(t.filter(), TextureFilter::kPoint);
  EXPECT_EQ(t.width(), 128u);
  EXPECT_EQ(t.level_count(), 8u);
  const Image big = photo.resized(128, 128);
  for (u32 y = 0; y < 128; y += 13) {
    for (u32 x = 0; x < 128; x += 11) {
      const std::array<u8, 4> p = pixel(t, 0, x, y);
      EXPECT_NEAR(p[3], to_u8(gray_of(big.at(x, y))), 9) << x << "," << y;  // 4-bit alpha
      EXPECT_NEAR(p[0], to_u8(big.at(x, y).r), 9);
    }
  }
}

TEST(TextureCheck, C05_Example3CompressedColourWithGrayAlpha) {
  const Image color = gradient(64, 32);
  Image alpha(64, 32);
  for (u32 y = 0; y < 32; ++y) {
    for (u32 x = 0; x < 64; ++x) alpha.at(x, y) = rgb8(x * 4, 255 - y * 8, 60);
  }
  const char* source = R"(Texture("Example3") { Format("DXT2"); Image("example3color.jpg");
                          Image("example3alpha.jpg","n","n","n","gray"); })";
  const Sources sources{{"example3color.jpg", color}, {"example3alpha.jpg", alpha}};
  auto built = build(source, sources);
  ASSERT_TRUE(built.has_value()) << built.error().to_string();
  const Texture& t = built->texture;
  const FailurePicture picture(t);
  EXPECT_EQ(t.width(), 64u);  // the colour image's size
  EXPECT_EQ(t.height(), 32u);
  EXPECT_EQ(t.format(), TextureFormat::kBC2);  // DXT2 = BC2 with premultiplied colour
  EXPECT_TRUE(t.premultiplied());
  // The composite itself is exact: RGB from the colour image, A = gray of the alpha image.
  text::Diagnostics diag;
  std::unique_ptr<text::Document> doc;
  auto spec = parse(source, diag, doc);
  ASSERT_TRUE(spec.has_value());
  const Image sources_in_order[] = {color, alpha};
  auto canvas = detail::composite(*spec, sources_in_order);
  ASSERT_TRUE(canvas.has_value());
  for (u32 y = 0; y < 32; ++y) {
    for (u32 x = 0; x < 64; ++x) {
      ASSERT_EQ(canvas->at(x, y).r, color.at(x, y).r);
      ASSERT_EQ(canvas->at(x, y).a, gray_of(alpha.at(x, y)));
      const std::array<u8, 4> p = pixel(t, 0, x, y);
      ASSERT_NEAR(p[3], to_u8(gray_of(alpha.at(x, y))), 9);  // BC2 alpha is 4-bit
    }
  }
  // The handheld has no BC2: the lookup table gives its closest format.
  auto handheld = build(source, sources, "Handheld");
  ASSERT_TRUE(handheld.has_value()) << handheld.error().to_string();
  EXPECT_EQ(handheld->texture.format(), TextureFormat::kA4R4G4B4);
  EXPECT_EQ(handheld->log.notes.size(), 1u);
}

TEST(TextureCheck, C06_Example4ClampOneLevelMaxAlpha) {
  Image photo(8, 4, rgb8(10, 200, 30));
  photo.at(1, 1) = rgb8(250, 5, 6);
  auto built = build(R"(Texture("Example4") { Wrap("clamp"); Levels(1);
                         Image("example4.jpg", "r", "g", "b", "maxrgb"); })",
                     {{"example4.jpg", photo}});
  ASSERT_TRUE(built.has_value()) << built.error().to_string();
  const Texture& t = built->texture;
  const FailurePicture picture(t);
  EXPECT_EQ(t.wrap(), TextureWrap::kClamp);
  EXPECT_EQ(t.level_count(), 1u);
  EXPECT_EQ(t.width(), 8u);
  EXPECT_EQ(t.format(), TextureFormat::kA8R8G8B8);
  EXPECT_EQ(pixel(t, 0, 0, 0), (std::array<u8, 4>{10, 200, 30, 200}));
  EXPECT_EQ(pixel(t, 0, 1, 1)[3], 250);
}

TEST(TextureCheck, C07_Example5NormalMapWithGrayAlpha) {
  const Image flat(128, 128, rgb8(90, 90, 90));
  auto built = build(
      R"(Texture("Example5") { Size(128,128); Image("example5.jpg", "nx", "ny", "nz", "gray"); })",
      {{"example5.jpg", flat}});
  ASSERT_TRUE(built.has_value()) << built.error().to_string();
  const Texture& t = built->texture;
  const FailurePicture picture(t);
  EXPECT_EQ(t.format(), TextureFormat::kA8R8G8B8);
  EXPECT_EQ(t.level_count(), 8u);
  for (u32 l = 0; l < t.level_count(); ++l) {
    EXPECT_EQ(pixel(t, l, 0, 0), (std::array<u8, 4>{128, 128, 255, 90})) << "level " << l;
  }
  const std::vector<u8> all = decode_level_rgba8(t.format(), t.level(0));
  for (usize i = 0; i < all.size(); i += 4) ASSERT_EQ(all[i + 2], 255) << "pixel " << i / 4;
  // A ramp tilts the normals away from the rising side.
  Image ramp(16, 16);
  for (u32 y = 0; y < 16; ++y) {
    for (u32 x = 0; x < 16; ++x) ramp.at(x, y) = rgb8(x * 16, x * 16, x * 16);
  }
  auto tilted =
      build(R"(Texture("Ramp") { Wrap("clamp"); Image("ramp.png", "nx", "ny", "nz", "gray"); })",
            {{"ramp.png", ramp}});
  ASSERT_TRUE(tilted.has_value());
  EXPECT_LT(pixel(tilted->texture, 0, 8, 8)[0], 120);
  EXPECT_EQ(pixel(tilted->texture, 0, 8, 8)[1], 128);
}

TEST(TextureCheck, C08_ChannelSpecifiers) {
  using detail::ChannelOp;
  using detail::parse_channel;
  EXPECT_EQ(parse_channel("red")->op, ChannelOp::kChannel);
  EXPECT_EQ(parse_channel("red")->channel, parse_channel("r")->channel);
  EXPECT_EQ(parse_channel("ALPHA")->channel, 3);
  EXPECT_EQ(parse_channel("maxrgb")->mask, 0b0111);
  EXPECT_EQ(parse_channel("minra")->mask, 0b1001);
  EXPECT_EQ(parse_channel("avgrgba")->mask, 0b1111);
  EXPECT_EQ(parse_channel("n")->op, ChannelOp::kNone);
  EXPECT_EQ(parse_channel("nz")->op, ChannelOp::kNz);
  EXPECT_EQ(parse_channel("gray")->op, ChannelOp::kGray);
  for (const char* bad : {"maxr", "maxrr", "avgrgbar", "maxrgx", "purple", "", "max"}) {
    EXPECT_FALSE(parse_channel(bad).has_value()) << bad;
  }
  auto built = build(R"(Texture("avg") { Image("p.png", "avgrb", "minrg", "maxgb", "avgrgba"); })",
                     {{"p.png", Image(4, 4, rgb8(10, 200, 30, 100))}});
  ASSERT_TRUE(built.has_value()) << built.error().to_string();
  EXPECT_EQ(pixel(built->texture, 0, 0, 0), (std::array<u8, 4>{20, 10, 200, 85}));
}

TEST(TextureCheck, C09_Defaults) {
  auto built =
      build(R"(Texture("d") { Image("p.png"); })", {{"p.png", Image(32, 16, rgb8(1, 2, 3, 4))}});
  ASSERT_TRUE(built.has_value()) << built.error().to_string();
  const Texture& t = built->texture;
  const FailurePicture picture(t);
  EXPECT_EQ(t.format(), TextureFormat::kA8R8G8B8);                // 32-bit
  EXPECT_EQ(t.level_count(), 6u);                                 // full chain
  EXPECT_EQ(t.wrap(), TextureWrap::kWrap);                        // wrap
  EXPECT_EQ(t.filter(), TextureFilter::kTrilinear);               // mip-mapped: trilinear
  EXPECT_EQ(pixel(t, 0, 5, 5), (std::array<u8, 4>{1, 2, 3, 4}));  // omitted: copied
  auto canvas = build(R"(Texture("c") { Image("p.png", "n", "g", "n", "n"); })",
                      {{"p.png", Image(2, 2, rgb8(1, 2, 3, 4))}});
  ASSERT_TRUE(canvas.has_value());
  EXPECT_EQ(pixel(canvas->texture, 0, 0, 0),
            (std::array<u8, 4>{255, 2, 255, 255}));  // white canvas
  EXPECT_EQ(canvas->texture.level_count(), 2u);
  auto one = build(R"(Texture("o") { Levels(1); Image("p.png"); })", {{"p.png", Image(2, 2)}});
  ASSERT_TRUE(one.has_value());
  EXPECT_EQ(one->texture.filter(), TextureFilter::kBilinear);
}

TEST(TextureCheck, C10_SizeRules) {
  auto late = build(R"(Texture("s") { Image("p.png"); Size(4,4); })", {{"p.png", Image(2, 2)}});
  ASSERT_FALSE(late.has_value());
  EXPECT_NE(late.error().message().find("before the first Image"), std::string::npos);
  auto none = build(R"(Texture("s") { Format("A8R8G8B8"); })", {});
  ASSERT_FALSE(none.has_value());
  EXPECT_NE(none.error().message().find("needs a Size"), std::string::npos);
  EXPECT_EQ(none.error().where().line, 1u);
  auto first = build(R"(Texture("s") { Image("a.png"); Image("b.png", "n", "n", "n", "r"); })",
                     {{"a.png", Image(40, 24)}, {"b.png", Image(8, 8)}});
  ASSERT_TRUE(first.has_value());
  EXPECT_EQ(first->texture.width(), 40u);
  EXPECT_EQ(first->texture.height(), 24u);
  auto red = build(R"(Texture("s") { Size(4,4); Color(255,0,0,255); })", {});
  ASSERT_TRUE(red.has_value()) << red.error().to_string();
  const std::vector<u8> px = decode_level_rgba8(red->texture.format(), red->texture.level(0));
  ASSERT_EQ(px.size(), 16u * 4);
  for (usize i = 0; i < px.size(); i += 4) {
    EXPECT_EQ((std::array<u8, 4>{px[i], px[i + 1], px[i + 2], px[i + 3]}),
              (std::array<u8, 4>{255, 0, 0, 255}));
  }
}

TEST(TextureCheck, C11_MipChain) {
  auto full = build(R"(Texture("m") { Size(256,256); })", {});
  ASSERT_TRUE(full.has_value());
  const u32 sizes[] = {256, 128, 64, 32, 16, 8, 4, 2, 1};
  ASSERT_EQ(full->texture.level_count(), 9u);
  for (u32 i = 0; i < 9; ++i) EXPECT_EQ(full->texture.level(i).width, sizes[i]);
  EXPECT_EQ(full->chunk.size() - kTextureHeaderSize, 349524u);
  EXPECT_NEAR(349524.0 / (256.0 * 256 * 4), 1.3333, 1e-4);
  auto wide = build(R"(Texture("m") { Size(256,64); })", {});
  ASSERT_TRUE(wide.has_value());
  ASSERT_EQ(wide->texture.level_count(), 9u);
  EXPECT_EQ(wide->texture.level(6).width, 4u);
  EXPECT_EQ(wide->texture.level(6).height, 1u);
  EXPECT_EQ(wide->texture.level(7).width, 2u);
  EXPECT_EQ(wide->texture.level(8).width, 1u);
  EXPECT_EQ(wide->texture.level(8).height, 1u);
  EXPECT_EQ(build(R"(Texture("m") { Size(256,256); Levels(1); })", {})->texture.level_count(), 1u);
  auto three = build(R"(Texture("m") { Size(256,256); Levels(3); })", {});
  ASSERT_EQ(three->texture.level_count(), 3u);
  EXPECT_EQ(three->texture.level(2).width, 64u);
  EXPECT_EQ(build(R"(Texture("m") { Size(8,8); Levels(20); })", {})->texture.level_count(),
            4u);  // clamped
}

TEST(TextureCheck, C12_ProcessingOrderKeepsPrecision) {
  // A dark 16-bit ramp (sRGB codes 0..20 over 512 pixels) with an 8-bit alpha image, shrunk in
  // linear light. Linear values of dark colours need more than 8 bits: a pipeline that stored
  // them in 8 bits before resizing would band.
  Image ramp(512, 2);
  Image mask(512, 2);
  for (u32 y = 0; y < 2; ++y) {
    for (u32 x = 0; x < 512; ++x) {
      const f32 v = std::round(static_cast<f32>(x) / 511.0f * 20.0f / 255.0f * 65535.0f) / 65535.0f;
      ramp.at(x, y) = {v, v, v, 1.0f};
      mask.at(x, y) = rgb8(x / 2, 0, 0);
    }
  }
  const char* source = R"(Texture("p") { Size(64,2); Levels(1);
                          Image("ramp.png"); Image("mask.png", "n", "n", "n", "r"); })";
  auto built = build(source, {{"ramp.png", ramp}, {"mask.png", mask}});
  ASSERT_TRUE(built.has_value()) << built.error().to_string();
  EXPECT_EQ(built->log.steps, (std::vector<std::string>{"load", "promote", "composite", "resize",
                                                        "mip", "convert", "save"}));
  const Image exact = ramp.resized(64, 2);  // float all the way, quantised once
  Image early(512, 2);                      // linear light rounded to 8 bits before resizing
  for (u32 x = 0; x < 512; ++x) {
    const f32 l = static_cast<f32>(to_u8(srgb_to_linear(ramp.at(x, 0).r))) / 255.0f;
    early.at(x, 0) = early.at(x, 1) = {l, l, l, 1.0f};
  }
  const Image early_small = early.resized(64, 2, ResizeSpace::kRaw);
  const std::span<const u8> out = as_u8(built->texture.level(0).data);  // B, G, R, A
  std::set<u8> ours;
  std::set<u8> banded;
  for (u32 x = 0; x < 64; ++x) {
    EXPECT_EQ(out[x * 4 + 2], to_u8(exact.at(x, 0).r)) << x;
    EXPECT_EQ(out[x * 4 + 3], to_u8(mask.resized(64, 2, ResizeSpace::kRaw).at(x, 0).r)) << x;
    ours.insert(out[x * 4 + 2]);
    banded.insert(to_u8(linear_to_srgb(early_small.at(x, 0).r)));
  }
  EXPECT_GE(ours.size(), 18u);
  EXPECT_LT(banded.size() * 2, ours.size());
}

}  // namespace
}  // namespace keel::assets
