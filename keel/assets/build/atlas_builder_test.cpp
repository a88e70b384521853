// The atlas packer on its own (placement, extrusion, errors) and the Atlas command through the
// real build: PNG frames written by stb_image_write, the data file read back with PackFile.
#include "keel/assets/build/atlas_builder.h"
#include "keel/assets/build/asset_handlers.h"
#include "keel/assets/texture.h"
#include "keel/core/file.h"
#include "keel/pack/format.h"
#include "keel/pack/pack_file.h"
#include "keel/pipeline/builder.h"
#include "keel/pipeline/project.h"
#include "keel/pipeline/registry.h"
#include "keel/pipeline/testing/test_project.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <stb/stb_image_write.h>

#include <filesystem>

namespace keel::assets {
namespace {

namespace fs = std::filesystem;

// A w x h sprite whose every pixel is distinct: (id, x, y, 255).
AtlasSprite sprite(std::string name, u32 w, u32 h, u8 id) {
  AtlasSprite s{.name = std::move(name), .width = w, .height = h, .rgba = {}};
  for (u32 y = 0; y < h; ++y) {
    for (u32 x = 0; x < w; ++x) {
      s.rgba.insert(s.rgba.end(), {id, static_cast<u8>(x), static_cast<u8>(y), 255});
    }
  }
  return s;
}

const u8* pixel(const AtlasBuild& b, u32 x, u32 y) {
  return &b.rgba[(usize{y} * b.data.width + x) * 4];
}

std::vector<AtlasSprite> some_sprites() {
  std::vector<AtlasSprite> s;
  s.push_back(sprite("ships/player", 64, 64, 1));
  s.push_back(sprite("ships/boss", 128, 128, 2));
  s.push_back(sprite("shots/bullet", 32, 16, 3));
  s.push_back(sprite("star", 16, 16, 4));
  s.push_back(sprite("white", 8, 8, 5));
  for (u8 i = 0; i < 20; ++i)
    s.push_back(sprite(fmt::format("bits/{}", i), 5 + i, 17 - i / 2, 10 + i));
  return s;
}

TEST(AtlasPacker, FramesAreInsideDisjointAndCopiedExactly) {
  const std::vector<AtlasSprite> sprites = some_sprites();
  const u32 pad = 2;
  Result<AtlasBuild> b = pack_atlas(sprites, {.padding = pad, .max_size = 1024});
  ASSERT_TRUE(b) << b.error().to_string();
  ASSERT_EQ(b->data.frames.size(), sprites.size());
  EXPECT_TRUE(std::has_single_bit(u32{b->data.width}));
  EXPECT_TRUE(std::has_single_bit(u32{b->data.height}));
  EXPECT_GT(b->efficiency, 0.3);
  for (usize i = 0; i < sprites.size(); ++i) {
    const AtlasData::Frame& f = b->data.frames[i];
    const AtlasSprite& s = sprites[i];
    ASSERT_EQ(f.name, s.name);
    EXPECT_EQ(f.width, s.width);
    EXPECT_EQ(f.height, s.height);
    // Inside the texture with its padding.
    EXPECT_GE(f.x, pad);
    EXPECT_GE(f.y, pad);
    EXPECT_LE(f.x + f.width + pad, b->data.width);
    EXPECT_LE(f.y + f.height + pad, b->data.height);
    // Padded rectangles never overlap.
    for (usize j = 0; j < i; ++j) {
      const AtlasData::Frame& g = b->data.frames[j];
      const bool apart = f.x + f.width + pad <= g.x - pad || g.x + g.width + pad <= f.x - pad ||
                         f.y + f.height + pad <= g.y - pad || g.y + g.height + pad <= f.y - pad;
      EXPECT_TRUE(apart) << f.name << " overlaps " << g.name;
    }
    // Every pixel where it belongs.
    for (u32 y = 0; y < s.height; ++y) {
      for (u32 x = 0; x < s.width; ++x) {
        const u8* p = pixel(*b, f.x + x, f.y + y);
        ASSERT_EQ(p[0], s.rgba[(usize{y} * s.width + x) * 4]) << s.name;
        ASSERT_EQ(p[1], x);
        ASSERT_EQ(p[2], y);
      }
    }
    // The padding repeats the edge: left of column 0 is column 0, above the corner is the corner.
    const u8* left = pixel(*b, f.x - pad, f.y + 1);
    EXPECT_EQ(left[0], s.rgba[0]);
    EXPECT_EQ(left[1], 0);
    EXPECT_EQ(left[2], 1);
    const u8* corner = pixel(*b, f.x + f.width + pad - 1, f.y + f.height + pad - 1);
    EXPECT_EQ(corner[1], s.width - 1);
    EXPECT_EQ(corner[2], s.height - 1);
    EXPECT_EQ(corner[3], 255);
  }
  // The encoded chunk reads back with the same frames.
  b->data.texture_name_hash = 7;
  Result<ByteBuffer> chunk = encode_atlas(b->data);
  ASSERT_TRUE(chunk);
  Result<AtlasView> view = AtlasView::parse(*chunk);
  ASSERT_TRUE(view) << view.error().to_string();
  EXPECT_EQ(view->frame_count(), sprites.size());
  EXPECT_EQ(view->find("ships/boss")->width, 128);
}

TEST(AtlasPacker, PicksTheSmallestTexture) {
  std::vector<AtlasSprite> sprites;
  sprites.push_back(sprite("a", 30, 30, 1));
  Result<AtlasBuild> b = pack_atlas(sprites, {.padding = 1, .max_size = 1024});
  ASSERT_TRUE(b);
  EXPECT_EQ(b->data.width, 32);
  EXPECT_EQ(b->data.height, 32);
  sprites.push_back(sprite("b", 30, 30, 2));
  b = pack_atlas(sprites, {.padding = 1, .max_size = 1024});
  ASSERT_TRUE(b);
  EXPECT_EQ(b->data.width, 64);  // wider than tall
  EXPECT_EQ(b->data.height, 32);
}

TEST(AtlasPacker, ReportsWhatDoesNotFit) {
  std::vector<AtlasSprite> sprites;
  sprites.push_back(sprite("big", 60, 60, 1));
  Result<AtlasBuild> b = pack_atlas(sprites, {.padding = 4, .max_size = 64});
  ASSERT_FALSE(b);
  EXPECT_NE(b.error().message().find("`big`"), std::string::npos) << b.error().message();
  sprites = {sprite("a", 40, 40, 1), sprite("b", 40, 40, 2)};
  b = pack_atlas(sprites, {.padding = 0, .max_size = 64});
  ASSERT_FALSE(b);
  EXPECT_NE(b.error().message().find("do not fit in 64x64"), std::string::npos);
  sprites = {sprite("a", 4, 4, 1), sprite("a", 4, 4, 2)};
  b = pack_atlas(sprites, {});
  ASSERT_FALSE(b);
  EXPECT_NE(b.error().message().find("declared twice"), std::string::npos);
  sprites = {sprite("empty", 0, 0, 1)};
  EXPECT_FALSE(pack_atlas(sprites, {}));
}

class AtlasHandler : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::path(KEEL_TEST_TMPDIR) / "atlas_handler" /
           ::testing::UnitTest::GetInstance()->current_test_info()->name();
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    write("project.kproj",
          "Project(\"atlas\");\nIntermediatePath(\"obj\");\nImagePath(\"image\");\n"
          "Platform(\"PC\");\nIncludePath(\".\");\nDataFile(\"main.kcmd\");\n");
    register_asset_handlers(registry_);
  }

  void write(std::string_view rel, std::string_view text) {
    ASSERT_TRUE(write_file_atomic(dir_ / std::string(rel), text));
  }
  void write_png(std::string_view rel, const AtlasSprite& s) {
    ASSERT_NE(
        stbi_write_png((dir_ / std::string(rel)).c_str(), static_cast<int>(s.width),
                       static_cast<int>(s.height), 4, s.rgba.data(), static_cast<int>(s.width * 4)),
        0);
  }

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

  ByteBuffer chunk(const pack::PackFile& pack, std::string_view name, std::string_view type) {
    const pack::PackItem* item = pack.find_item(name);
    EXPECT_NE(item, nullptr) << name;
    if (item == nullptr) return {};
    EXPECT_EQ(item->type_hash, pack::type_hash(type));
    Result<ByteBuffer> bytes = pack.read_chunk(item->name_hash, item->primary);
    EXPECT_TRUE(bytes);
    return bytes ? *bytes : ByteBuffer{};
  }

  fs::path dir_;
  pipeline::HandlerRegistry registry_;
  pipeline::Project project_;
  std::string messages_;
};

TEST_F(AtlasHandler, BuildsTheAtlasAndItsTexture) {
  const AtlasSprite ship = sprite("ship", 24, 20, 7);
  const AtlasSprite shot = sprite("shot", 6, 3, 9);
  write_png("ship.png", ship);
  write_png("shot.png", shot);
  write("main.kcmd",
        "Atlas(\"sprites\")\n{\n    Frame(\"ships/player\", \"ship.png\");\n"
        "    Frame(\"shots/bullet\", \"shot.png\", 0.25, 0.5);\n    Padding(1);\n"
        "    MaxSize(64);\n}\n");
  ASSERT_TRUE(build()) << messages_;
  Result<pack::PackFile> pack = pack::PackFile::open(project_.data_file_path("PC", "main"));
  ASSERT_TRUE(pack) << pack.error().to_string();
  const ByteBuffer atlas_bytes = chunk(*pack, "sprites", "Atlas");
  Result<AtlasView> atlas = AtlasView::parse(atlas_bytes);
  ASSERT_TRUE(atlas) << atlas.error().to_string();
  EXPECT_EQ(atlas->texture_name_hash(), pack::name_hash("sprites_texture"));
  const ByteBuffer texture_bytes = chunk(*pack, "sprites_texture", "Texture");
  Result<Texture> texture = Texture::view(texture_bytes);
  ASSERT_TRUE(texture) << texture.error().to_string();
  EXPECT_EQ(texture->width(), atlas->width());
  EXPECT_EQ(texture->height(), atlas->height());
  EXPECT_EQ(texture->format(), TextureFormat::kA8R8G8B8);
  EXPECT_EQ(texture->level_count(), 1u);
  EXPECT_EQ(texture->wrap(), TextureWrap::kClamp);
  const std::optional<AtlasFrame> bullet = atlas->find("shots/bullet");
  ASSERT_TRUE(bullet);
  EXPECT_EQ(bullet->width, 6);
  EXPECT_EQ(bullet->height, 3);
  EXPECT_FLOAT_EQ(bullet->pivot_x, 0.25f);
  // The texture holds the PNG's pixels (A8R8G8B8 is B, G, R, A in memory).
  const TextureLevel level = texture->level(0);
  const auto* px = reinterpret_cast<const u8*>(level.data.data()) +
                   (static_cast<usize>(bullet->y) + 2) * level.row_bytes +
                   (static_cast<usize>(bullet->x) + 5) * 4;
  EXPECT_EQ(px[2], 9);  // red: the sprite's id
  EXPECT_EQ(px[1], 5);  // green: x
  EXPECT_EQ(px[0], 2);  // blue: y
  EXPECT_EQ(px[3], 255);
  const std::optional<AtlasFrame> player = atlas->find("ships/player");
  ASSERT_TRUE(player);
  EXPECT_EQ(player->width, 24);
}

// Every frame's image is a dependency: changing one rebuilds the atlas with the new pixels.
TEST_F(AtlasHandler, RebuildsWhenAFrameImageChanges) {
  write_png("a.png", sprite("a", 8, 8, 1));
  write_png("b.png", sprite("b", 4, 4, 2));
  write("main.kcmd", "Atlas(\"s\") { Frame(\"a\", \"a.png\"); Frame(\"b\", \"b.png\"); }\n");
  const auto red_of_b = [&]() -> int {
    Result<pack::PackFile> pack = pack::PackFile::open(project_.data_file_path("PC", "main"));
    EXPECT_TRUE(pack);
    if (!pack) return -1;
    const ByteBuffer atlas_bytes = chunk(*pack, "s", "Atlas");
    const ByteBuffer texture_bytes = chunk(*pack, "s_texture", "Texture");
    Result<AtlasView> atlas = AtlasView::parse(atlas_bytes);
    Result<Texture> texture = Texture::view(texture_bytes);
    if (!atlas || !texture) return -1;
    const AtlasFrame b = *atlas->find("b");
    const TextureLevel level = texture->level(0);
    return static_cast<int>(reinterpret_cast<const u8*>(
        level.data.data())[static_cast<usize>(b.y) * level.row_bytes + b.x * 4u + 2]);
  };
  ASSERT_TRUE(build()) << messages_;
  EXPECT_EQ(red_of_b(), 2);
  write_png("b.png", sprite("b", 4, 4, 77));
  ASSERT_TRUE(build()) << messages_;
  EXPECT_EQ(red_of_b(), 77);
}

TEST_F(AtlasHandler, ReportsBadCommandsWithLocations) {
  write_png("ship.png", sprite("ship", 40, 40, 1));
  write("main.kcmd",
        "Atlas(\"a\") { Frame(\"x\", \"missing.png\"); }\n"
        "Atlas(\"b\") { Frame(\"x\", \"ship.png\"); MaxSize(32); }\n"
        "Atlas(\"c\") { Frame(\"x\", \"ship.png\"); Shrink(1); }\n"
        "Atlas(\"d\") { Padding(2); }\n"
        "Atlas(\"e\") { Frame(\"x\", \"main.kcmd\"); }\n");
  EXPECT_FALSE(build());
  EXPECT_NE(messages_.find("main.kcmd:1:25: error: source `missing.png` not found"),
            std::string::npos)
      << messages_;
  EXPECT_NE(messages_.find("main.kcmd:2:1: error: atlas frame `x` (40x40 + 2 padding) is larger "
                           "than MaxSize 32"),
            std::string::npos)
      << messages_;
  EXPECT_NE(messages_.find("main.kcmd:3:38: error: unknown Atlas option `Shrink`"),
            std::string::npos)
      << messages_;
  EXPECT_NE(messages_.find("main.kcmd:4:1: error: Atlas needs at least one Frame"),
            std::string::npos)
      << messages_;
  EXPECT_NE(messages_.find("main.kcmd:5:25: error: main.kcmd: not a readable image"),
            std::string::npos)
      << messages_;
}

}  // namespace
}  // namespace keel::assets
