// The Sound handler through the real build: a scratch project over the sample sounds in
// data/assets/sounds, keel::pipeline's Builder, and the data file read back with PackFile.
#include "keel/assets/build/asset_handlers.h"
#include "keel/assets/sound.h"
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

class SoundHandler : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::path(KEEL_TEST_TMPDIR) / "sound_handler" /
           ::testing::UnitTest::GetInstance()->current_test_info()->name();
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    write("project.kproj", fmt::format("Project(\"sounds\");\nIntermediatePath(\"obj\");\n"
                                       "ImagePath(\"image\");\nPlatform(\"PC\");\n"
                                       "IncludePath(\"{}/data/assets\");\n"
                                       "IncludePath(\".\");\n"
                                       "DataFile(\"main.kcmd\");\n",
                                       KEEL_SOURCE_DIR));
    register_asset_handlers(registry_);
  }

  void write(std::string_view rel, std::string_view text) {
    ASSERT_TRUE(write_file_atomic(dir_ / std::string(rel), text));
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

  // The chunk of sound `name` (kept alive in chunk_) as a view.
  Result<SoundView> sound(const pack::PackFile& pack, std::string_view name) {
    const pack::PackItem* item = pack.find_item(name);
    if (item == nullptr) return fail(ErrorCode::kNotFound, "no item {}", name);
    EXPECT_EQ(item->type_hash, pack::type_hash(kSoundType));
    Result<ByteBuffer> chunk = pack.read_chunk(item->name_hash, item->primary);
    if (!chunk) return Unexpected(chunk.error());
    chunk_ = std::move(*chunk);
    return SoundView::parse(chunk_);
  }

  fs::path dir_;
  pipeline::HandlerRegistry registry_;
  pipeline::Project project_;
  std::string messages_;
  ByteBuffer chunk_;
};

TEST_F(SoundHandler, BuildsWavAndOggSounds) {
  write("main.kcmd",
        "Sound(\"laser\", \"sounds/laser.wav\") { Volume(0.8); Stream(false); }\n"
        "Sound(\"boom\", \"sounds/explosion.wav\");\n"
        "Sound(\"music\", \"sounds/music.ogg\") { Stream(true); Loop(true); }\n"
        "Sound(\"music_pcm\", \"sounds/music.ogg\");\n");
  ASSERT_TRUE(build()) << messages_;
  Result<pack::PackFile> pack = pack::PackFile::open(project_.data_file_path("PC", "main"));
  ASSERT_TRUE(pack) << pack.error().to_string();

  Result<SoundView> laser = sound(*pack, "laser");
  ASSERT_TRUE(laser) << laser.error().to_string();
  EXPECT_EQ(laser->encoding(), SoundEncoding::kPcm16);
  EXPECT_EQ(laser->sample_rate(), kSoundRate);
  EXPECT_EQ(laser->channels(), 1);
  EXPECT_NEAR(laser->frame_count(), 12000, 1);  // 0.25 s at 48 kHz (sox rounds 5512.5 frames)
  EXPECT_FLOAT_EQ(laser->volume(), 0.8f);
  EXPECT_FALSE(laser->loops());

  Result<SoundView> boom = sound(*pack, "boom");
  ASSERT_TRUE(boom) << boom.error().to_string();
  EXPECT_EQ(boom->frame_count(), 33600u);  // 0.7 s

  Result<SoundView> music = sound(*pack, "music");
  ASSERT_TRUE(music) << music.error().to_string();
  EXPECT_EQ(music->encoding(), SoundEncoding::kVorbis);
  EXPECT_EQ(music->sample_rate(), 44100u);
  EXPECT_EQ(music->channels(), 2);
  EXPECT_EQ(music->frame_count(), 4u * 44100u);
  EXPECT_TRUE(music->loops());

  Result<SoundView> decoded = sound(*pack, "music_pcm");
  ASSERT_TRUE(decoded) << decoded.error().to_string();
  EXPECT_EQ(decoded->encoding(), SoundEncoding::kPcm16);
  EXPECT_EQ(decoded->frame_count(), 4u * 48000u);
}

TEST_F(SoundHandler, ReportsBadCommandsWithLocations) {
  write("bad.wav", std::string_view("RIFF....WAVEfmt \x40\0\0\0", 20));  // fmt past the end
  write("main.kcmd",
        "Sound(\"a\", \"sounds/missing.wav\");\n"
        "Sound(\"b\", \"sounds/laser.wav\") { Volume(9); }\n"
        "Sound(\"c\", \"sounds/laser.wav\") { Stream(maybe); }\n"
        "Sound(\"d\", \"sounds/laser.wav\") { Pitch(2); }\n"
        "Sound(\"e\", \"sounds/laser.wav\") { Stream(true); }\n"
        "Sound(\"f\");\n"
        "Sound(\"g\", \"bad.wav\");\n");
  EXPECT_FALSE(build());
  EXPECT_NE(messages_.find("main.kcmd:1:12: error: source `sounds/missing.wav` not found"),
            std::string::npos)
      << messages_;
  EXPECT_NE(messages_.find("main.kcmd:2:41: error: Volume is 0 to 4"), std::string::npos)
      << messages_;
  EXPECT_NE(messages_.find("main.kcmd:3:41: error: Stream: true or false, not `maybe`"),
            std::string::npos)
      << messages_;
  EXPECT_NE(messages_.find("main.kcmd:4:34: error: unknown Sound option `Pitch`"),
            std::string::npos)
      << messages_;
  EXPECT_NE(messages_.find("main.kcmd:5:12: error: sounds/laser.wav: byte 0: Stream(true) needs"),
            std::string::npos)
      << messages_;
  EXPECT_NE(messages_.find("main.kcmd:6:"), std::string::npos) << messages_;
  EXPECT_NE(messages_.find("main.kcmd:7:12: error: bad.wav: byte 16: fmt chunk runs past the end"),
            std::string::npos)
      << messages_;
}

}  // namespace
}  // namespace keel::assets
