// The Font handler through the real build: a scratch project, keel::pipeline's Builder, and the
// data file it writes read back with PackFile.
#include "keel/assets/build/asset_handlers.h"
#include "keel/assets/build/font_builder.h"
#include "keel/assets/build/font_preview.h"
#include "keel/assets/font.h"
#include "keel/core/file.h"
#include "keel/pack/format.h"
#include "keel/pack/pack_file.h"
#include "keel/pipeline/builder.h"
#include "keel/pipeline/project.h"
#include "keel/pipeline/registry.h"
#include "keel/pipeline/testing/test_project.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>

namespace keel::assets {
namespace {

namespace fs = std::filesystem;

class FontHandler : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!fs::exists(kDejaVuDir)) GTEST_SKIP() << "fonts-dejavu-core is not installed";
    dir_ = fs::path(KEEL_TEST_TMPDIR) / "font_handler" /
           ::testing::UnitTest::GetInstance()->current_test_info()->name();
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    write("project.kproj", fmt::format("Project(\"fonts\");\nIntermediatePath(\"obj\");\n"
                                       "ImagePath(\"image\");\nPlatform(\"PC\");\n"
                                       "IncludePath(\"{}\", \"common\", \"Font\");\n"
                                       "DataFile(\"main.kcmd\");\n",
                                       kDejaVuDir));
    register_asset_handlers(registry_);
  }

  void write(std::string_view rel, std::string_view text) {
    ASSERT_TRUE(write_file_atomic(dir_ / std::string(rel), text));
  }

  // Builds main.kcmd; the report's ok flag, with messages kept in messages_.
  bool build() {
    text::Diagnostics diag;
    std::optional<pipeline::Project> project = pipeline::load_project(dir_ / "project.kproj", diag);
    EXPECT_TRUE(project) << diag.render();
    if (!project) return false;
    project_ = std::move(*project);
    pipeline::testing::RecordingObserver observer;
    pipeline::Builder builder(project_, registry_, {}, &observer);
    Result<pipeline::DataFileReport> report = builder.build("PC", "main.kcmd");
    messages_ = observer.messages;
    return report && report->ok;
  }

  Result<pack::PackFile> data_file() const {
    return pack::PackFile::open(project_.data_file_path("PC", "main"));
  }

  static constexpr const char* kDejaVuDir = "/usr/share/fonts/truetype/dejavu";
  fs::path dir_;
  pipeline::HandlerRegistry registry_;
  pipeline::Project project_;
  std::string messages_;
};

TEST_F(FontHandler, BuildsFontAndAtlasFromACommandFile) {
  write("main.kcmd",
        "Font(\"Sans\")\n{\n    Source(\"DejaVuSans.ttf\");\n    FitTexture(256, 128);\n"
        "    Characters(32, 126);\n    Characters(\"\xc3\xa4\xc3\xb6\xc3\xbc\xe2\x82\xac\");\n"
        "    Border(1);\n}\n");
  ASSERT_TRUE(build()) << messages_;
  Result<pack::PackFile> pack = data_file();
  ASSERT_TRUE(pack) << pack.error().to_string();
  const pack::PackItem* item = pack->find_item("Sans");
  ASSERT_NE(item, nullptr);
  EXPECT_EQ(item->type_hash, pack::type_hash("Font"));
  Result<ByteBuffer> chunk = pack->read_chunk(item->name_hash, item->primary);
  ASSERT_TRUE(chunk);
  Result<FontView> font = FontView::parse(*chunk);
  ASSERT_TRUE(font) << font.error().to_string();
  EXPECT_EQ(font->glyph_count(), 95u + 4u);
  EXPECT_EQ(font->atlas_width(), 256);
  EXPECT_EQ(font->atlas_height(), 128);
  EXPECT_EQ(font->border(), 1);
  EXPECT_GT(font->pixel_size(), 10);
  EXPECT_GT(font->kerning_count(), 0u);
  const pack::PackItem* atlas = pack->find_item("Sans_atlas");
  ASSERT_NE(atlas, nullptr);
  EXPECT_EQ(atlas->type_hash, pack::type_hash("Texture"));
  EXPECT_EQ(font->atlas_name_hash(), atlas->name_hash);
  Result<Picture> picture = picture_of_font(*pack, "Sans");
  ASSERT_TRUE(picture) << picture.error().to_string();
  EXPECT_EQ(picture->width, 512u);  // drawn twice as large
  EXPECT_EQ(picture->height, 256u);
  EXPECT_FALSE(picture_of_font(*pack, "Sans_atlas"));  // a texture, not a font
  EXPECT_FALSE(picture_of_font(*pack, "nothing"));
}

TEST_F(FontHandler, ReportsBadCommandsWithLocations) {
  write("main.kcmd",
        "Font(\"A\") { Source(\"DejaVuSans.ttf\"); }\n"           // no size
        "Font(\"B\") { Size(12); }\n"                             // no source
        "Font(\"C\") { Source(\"missing.ttf\"); Size(12); }\n"    // not found
        "Font(\"D\") { Source(\"DejaVuSans.ttf\"); Size(0); }\n"  // out of range
        "Font(\"E\") { Source(\"DejaVuSans.ttf\"); Size(90); FitTexture(32, 32); }\n"
        "Font(\"F\") { Source(\"DejaVuSans.ttf\"); Size(12); Colour(1); }\n"  // unknown option
        "Font(\"G\") { Source(\"DejaVuSans.ttf\"); Size(12); Characters(90, 65); }\n");
  EXPECT_FALSE(build());
  EXPECT_NE(messages_.find("main.kcmd:1:1: error: Font needs Size"), std::string::npos)
      << messages_;
  EXPECT_NE(messages_.find("main.kcmd:2:1: error: Font needs a Source"), std::string::npos);
  EXPECT_NE(messages_.find("main.kcmd:3:20: error: source `missing.ttf` not found"),
            std::string::npos)
      << messages_;
  EXPECT_NE(messages_.find("main.kcmd:4:"), std::string::npos);
  EXPECT_NE(messages_.find("do not fit a 32x32 texture"), std::string::npos);
  EXPECT_NE(messages_.find("unknown Font option `Colour`"), std::string::npos);
  EXPECT_NE(messages_.find("main.kcmd:7:"), std::string::npos);
}

// keel-font's command file (the book's makefont output) builds the same font chunk; its Texture
// block is the Texture handler's, so only the Font block is used here.
TEST_F(FontHandler, BuildsTheBooksFontDescription) {
  const std::string ttf = read_file(fs::path(kDejaVuDir) / "DejaVuSans.ttf").value();
  FontOptions options;
  options.size = 18;
  options.border = 1;
  const FontBuild made = build_font(as_bytes(ttf), "DejaVuSans.ttf", options).value();
  const std::string kcmd = font_command_file(made, "Sans18", "Sans18.tga");
  write("main.kcmd", kcmd.substr(kcmd.find("Font(\"Sans18\")")));
  ASSERT_TRUE(build()) << messages_;
  Result<pack::PackFile> pack = data_file();
  ASSERT_TRUE(pack) << pack.error().to_string();
  const pack::PackItem* item = pack->find_item("Sans18");
  ASSERT_NE(item, nullptr);
  const ByteBuffer chunk = pack->read_chunk(item->name_hash, item->primary).value();
  FontData expect = made.font;
  expect.atlas_name_hash = pack::name_hash("Sans18_atlas");
  EXPECT_EQ(chunk, encode_font(expect));
}

TEST_F(FontHandler, ReportsBadDescriptions) {
  write("main.kcmd",
        "Font(\"A\") { Texture(\"t\"); Characters(1) { Character(65, 0, 0, 4, 4, 0, 0); } }\n"
        "Font(\"B\") { Texture(\"t\"); TextureSize(8, 8);\n"
        "  Characters(2) { Character(65, 6, 0, 4, 4, 0, 0); Character(64, 0, 0, 1, 1, 0, 0); } }\n"
        "Font(\"C\") { Texture(\"t\"); TextureSize(8, 8); Characters(3) { } }\n"
        "Font(\"D\") { Texture(\"t\"); Height(4); Baseline(9); Glyphs(1); }\n");
  EXPECT_FALSE(build());
  EXPECT_NE(messages_.find("main.kcmd:1:27: error: TextureSize(width, height) must come before"),
            std::string::npos)
      << messages_;
  EXPECT_NE(messages_.find("character 65 lies outside the 8x8 texture"), std::string::npos);
  EXPECT_NE(messages_.find("main.kcmd:3:52: error: characters must be listed once each"),
            std::string::npos);
  EXPECT_NE(messages_.find("Characters(3) lists 0 characters"), std::string::npos);
  EXPECT_NE(messages_.find("unknown option `Glyphs`"), std::string::npos);
  EXPECT_NE(messages_.find("the Baseline lies below the cell Height"), std::string::npos);
}

TEST(EntryPoints, FontPictureOfDamagedPack) {
  Result<pack::PackFile> pack = pack::PackFile::from_bytes(ByteBuffer{});
  if (pack) {
    EXPECT_FALSE(picture_of_font(*pack, "x"));
  }
}

}  // namespace
}  // namespace keel::assets
