// The format-version helper: tag + version header, old versions loaded, newer ones refused.
#include "keel/serial/serial.h"
#include "keel/serial/testing/wire.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

namespace keel::serial {
namespace {

using serial::testing::wire;

// Version 1 had only a volume; version 2 added subtitles; version 3 widened volume to u16 and
// added a language.
struct Options {
  static constexpr u32 kMagic = fourcc("OPTS");
  static constexpr u32 kVersion = 3;
  u16 volume = 80;
  bool subtitles = false;
  std::string language = "en";

  template <class Archive>
  void serialize(Archive& ar, u32 version) {
    if (version >= 3) {
      ar(volume);
    } else {
      u8 old_volume = static_cast<u8>(volume);
      ar(old_volume);
      volume = old_volume;
    }
    if (version >= 2) ar(subtitles);
    if (version >= 3) ar(language);
  }
  friend bool operator==(const Options&, const Options&) = default;
};

// How an old build wrote its files.
struct OptionsV1 {
  u8 volume = 0;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(volume);
  }
};

TEST(SerialVersioned, FourccReadsAsText) {
  EXPECT_EQ(fourcc("OPTS"), 0x4F505453u);
  EXPECT_EQ(describe_tag(fourcc("OPTS")), "'OPTS'");
  EXPECT_EQ(describe_tag(0x00000001u), "0x00000001");
}

TEST(SerialVersioned, WritesTagThenVersionThenObject) {
  Options options;
  options.volume = 0x0102;
  Versioned versioned(options, Options::kMagic, Options::kVersion);
  auto bytes = save_to_bytes(versioned);
  ASSERT_TRUE(bytes);
  EXPECT_EQ(*bytes, (wire({'O', 'P', 'T', 'S', 0, 0, 0, 3, 1, 2, 0, 0, 0, 0, 2, 'e', 'n'})));
  EXPECT_EQ(versioned.version(), 3u);
}

TEST(SerialVersioned, CurrentVersionRoundTrips) {
  Options options{55, true, "fr"};
  auto bytes = save_to_bytes(Versioned(options, Options::kMagic, Options::kVersion));
  Options loaded;
  Versioned target(loaded, Options::kMagic, Options::kVersion);
  ASSERT_TRUE(load_from_bytes(*bytes, target));
  EXPECT_EQ(loaded, options);
  EXPECT_EQ(target.version(), 3u);
}

TEST(SerialVersioned, OlderVersionsAreHandedToTheObject) {
  OptionsV1 old{42};
  auto bytes = save_to_bytes(Versioned(old, Options::kMagic, 1));
  ASSERT_TRUE(bytes);
  EXPECT_EQ(bytes->size(), 9u);
  Options loaded;
  loaded.subtitles = true;
  Versioned target(loaded, Options::kMagic, Options::kVersion);
  ASSERT_TRUE(load_from_bytes(*bytes, target));
  EXPECT_EQ(target.version(), 1u);
  EXPECT_EQ(loaded.volume, 42);
  EXPECT_TRUE(loaded.subtitles);  // not in version 1: keeps its value
  EXPECT_EQ(loaded.language, "en");
}

TEST(SerialVersioned, NewerVersionIsUnsupported) {
  ByteBuffer bytes = wire({'O', 'P', 'T', 'S', 0, 0, 0, 4, 0, 80, 0, 0, 0, 0, 0});
  Options loaded;
  BufferLoader loader(bytes);
  const u32 version = io_versioned(loader, loaded, Options::kMagic, Options::kVersion);
  EXPECT_EQ(version, 0u);
  auto status = loader.finish();
  ASSERT_FALSE(status);
  EXPECT_EQ(status.error().code(), ErrorCode::kUnsupported);
  EXPECT_EQ(status.error().where().offset, 4u);
  EXPECT_NE(status.error().message().find("version 4"), std::string::npos);
  EXPECT_EQ(loaded, Options{});
}

TEST(SerialVersioned, WrongTagOrVersionZeroIsCorrupt) {
  Options loaded;
  Versioned target(loaded, Options::kMagic, Options::kVersion);
  auto wrong_tag = load_from_bytes(wire({'S', 'A', 'V', 'E', 0, 0, 0, 1, 9}), target);
  ASSERT_FALSE(wrong_tag);
  EXPECT_EQ(wrong_tag.error().code(), ErrorCode::kCorrupt);
  EXPECT_EQ(wrong_tag.error().where().offset, 0u);
  EXPECT_NE(wrong_tag.error().message().find("'SAVE'"), std::string::npos);
  auto zero = load_from_bytes(wire({'O', 'P', 'T', 'S', 0, 0, 0, 0, 9}), target);
  ASSERT_FALSE(zero);
  EXPECT_EQ(zero.error().code(), ErrorCode::kCorrupt);
}

TEST(SerialVersioned, WorksWithFiles) {
  const std::filesystem::path dir = std::filesystem::path(KEEL_TEST_TMPDIR) / "serial_versioned";
  std::filesystem::create_directories(dir);
  Options options{7, true, "de"};
  ASSERT_TRUE(save_file(dir / "options.bin", Versioned(options, Options::kMagic, 3)));
  Options loaded;
  Versioned target(loaded, Options::kMagic, 3);
  ASSERT_TRUE(load_file(dir / "options.bin", target));
  EXPECT_EQ(loaded, options);
}

}  // namespace
}  // namespace keel::serial
