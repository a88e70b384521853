// FileSaver / FileLoader: streaming through small buffers, atomic replacement, file errors.
#include "keel/core/file.h"
#include "keel/serial/serial.h"
#include "keel/serial/testing/wire.h"

#include <gtest/gtest.h>

#include <array>
#include <filesystem>
#include <string>
#include <vector>

namespace keel::serial {
namespace {

using serial::testing::wire;

namespace fs = std::filesystem;

// Each test gets its own directory: ctest runs tests in parallel.
fs::path scratch(const char* name) {
  const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
  fs::path dir = fs::path(KEEL_TEST_TMPDIR) / "serial_file_test" / test->name();
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir / name;
}

ByteBuffer file_bytes(const fs::path& path) {
  auto text = read_file(path);
  EXPECT_TRUE(text);
  return text ? to_buffer(*text) : ByteBuffer{};
}

bool has_temporaries(const fs::path& dir) {
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().string().find(".tmp.") != std::string::npos) return true;
  }
  return false;
}

// Larger than the 64-byte buffers used below, with values straddling buffer boundaries.
struct Level {
  std::string title;
  std::vector<u32> tiles;
  std::vector<std::string> names;
  std::vector<f64> heights;
  std::string blob;  // bigger than the staging buffer: goes straight to/from the file
  u16 tail = 0;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(title, tiles, names, heights, blob, tail);
  }
  friend bool operator==(const Level&, const Level&) = default;
};

Level sample_level() {
  Level level;
  level.title = "The Long Corridor";
  for (u32 i = 0; i < 301; ++i) level.tiles.push_back(i * 2654435761u);
  for (int i = 0; i < 20; ++i) level.names.push_back(std::string(static_cast<usize>(i), 'a' + i));
  for (int i = 0; i < 33; ++i) level.heights.push_back(i * 0.37);
  level.blob.assign(1000, '\0');
  for (usize i = 0; i < level.blob.size(); ++i) level.blob[i] = static_cast<char>(i * 7);
  level.tail = 0xCAFE;
  return level;
}

TEST(SerialFile, FileSaverStreamsTheSameBytesAsTheBufferSaver) {
  const fs::path path = scratch("level.bin");
  const Level level = sample_level();
  for (usize buffer_size : {usize{64}, usize{100}, FileSaver::kDefaultBufferSize}) {
    FileSaver saver(path, buffer_size);
    saver.io(level);
    ASSERT_TRUE(saver.commit());
    EXPECT_EQ(file_bytes(path), *save_to_bytes(level)) << buffer_size;
  }
  EXPECT_FALSE(has_temporaries(path.parent_path()));
}

TEST(SerialFile, FileLoaderStreamsThroughSmallBuffers) {
  const fs::path path = scratch("level.bin");
  const Level level = sample_level();
  ASSERT_TRUE(save_file(path, level));
  for (usize buffer_size : {usize{64}, usize{65}, usize{4096}}) {
    Level loaded;
    FileLoader loader(path, {}, buffer_size);
    loader.io(loaded);
    ASSERT_TRUE(loader.finish()) << loader.status().error().to_string();
    EXPECT_EQ(loaded, level) << buffer_size;
    EXPECT_EQ(loader.offset(), loader.file_size());
  }
}

TEST(SerialFile, FailedSaveKeepsTheOldFile) {
  const fs::path path = scratch("save.bin");
  ASSERT_TRUE(write_file_atomic(path, std::string_view("precious")));
  {
    FileSaver saver(path, 64);
    const Level level = sample_level();
    saver.io(level);  // more than one buffer's worth reaches the temporary file
    saver.fail(ErrorCode::kCorrupt, "the game state is inconsistent");
    auto status = saver.commit();
    ASSERT_FALSE(status);
    EXPECT_EQ(status.error().code(), ErrorCode::kCorrupt);
  }
  {
    FileSaver saver(path);
    u32 x = 1;
    saver.io(x);
    // destroyed without commit: a crash mid-save
  }
  EXPECT_EQ(*read_file(path), "precious");
  EXPECT_FALSE(has_temporaries(path.parent_path()));
}

TEST(SerialFile, MissingFileIsNotFoundAndUnwritablePathIsIo) {
  const fs::path missing = scratch("nothing-here.dat");
  Level level;
  auto status = load_file(missing, level);
  ASSERT_FALSE(status);
  EXPECT_EQ(status.error().code(), ErrorCode::kNotFound);
  EXPECT_NE(status.error().to_string().find("nothing-here.dat"), std::string::npos);

  auto saved = save_file(missing.parent_path() / "no-such-dir" / "x.dat", level);
  ASSERT_FALSE(saved);
  EXPECT_EQ(saved.error().code(), ErrorCode::kIo);
}

TEST(SerialFile, TruncatedAndOverlongFiles) {
  const fs::path path = scratch("level.bin");
  const ByteBuffer bytes = *save_to_bytes(sample_level());
  // Truncated at a few places, including inside the large blob.
  for (usize keep : {usize{0}, usize{3}, usize{70}, bytes.size() - 500, bytes.size() - 1}) {
    ASSERT_TRUE(write_file_atomic(path, as_chars(ByteSpan(bytes).first(keep))));
    Level loaded;
    FileLoader loader(path, {}, 64);
    loader.io(loaded);
    auto status = loader.finish();
    ASSERT_FALSE(status) << keep;
    EXPECT_EQ(status.error().code(), ErrorCode::kUnderflow) << keep;
  }
  ByteBuffer longer = bytes;
  longer.push_back(std::byte{0});
  ASSERT_TRUE(write_file_atomic(path, as_chars(longer)));
  Level loaded;
  auto status = load_file(path, loaded);
  ASSERT_FALSE(status);
  EXPECT_EQ(status.error().code(), ErrorCode::kTrailingData);
  EXPECT_EQ(status.error().where().offset, bytes.size());
  EXPECT_EQ(loaded, Level{});  // all-or-nothing
}

TEST(SerialFile, LengthFieldsAreCheckedAgainstTheFileSize) {
  const fs::path path = scratch("garbage.bin");
  const ByteBuffer bytes = wire({0, 0, 0, 3, 'a', 'b', 'c', 0x7F, 0xFF, 0xFF, 0xFF, 0, 0});
  ASSERT_TRUE(write_file_atomic(path, as_chars(bytes)));
  Level loaded;
  FileLoader loader(path,
                    LoadLimits{std::numeric_limits<u32>::max(), std::numeric_limits<u32>::max()});
  loader.io(loaded);
  auto status = loader.finish();
  ASSERT_FALSE(status);
  EXPECT_EQ(status.error().code(), ErrorCode::kUnderflow);
  EXPECT_EQ(status.error().where().offset, 7u);
  EXPECT_TRUE(loaded.tiles.empty());
}

TEST(SerialFile, ErrorsMatchTheBufferLoaderByteForByte) {
  // A fixed array cut short after its first element, read through a buffer that holds only
  // part of it: both loaders fail at the array's start and leave it untouched.
  const fs::path path = scratch("array.bin");
  ByteBuffer bytes(60, std::byte{0x11});  // padding, so the array straddles the 64-byte buffer
  const ByteBuffer one_double = wire({0x3F, 0xF0, 0, 0, 0, 0, 0, 0});
  bytes.insert(bytes.end(), one_double.begin(), one_double.end());
  ASSERT_TRUE(write_file_atomic(path, as_chars(bytes)));
  for (int which = 0; which < 2; ++which) {
    std::array<u8, 60> padding{};
    std::array<f64, 2> values = {5, 6};
    Status status;
    if (which == 0) {
      BufferLoader loader(bytes);
      loader(padding, values);
      status = loader.finish();
    } else {
      FileLoader loader(path, {}, 64);
      loader(padding, values);
      status = loader.finish();
    }
    ASSERT_FALSE(status);
    EXPECT_EQ(status.error().code(), ErrorCode::kUnderflow) << which;
    EXPECT_EQ(status.error().where().offset, 60u) << which;
    EXPECT_EQ(values[0], 5) << which;
  }
}

// Runs of scalars (checked as a block) straddling the 64-byte staging buffers, and cut short.
struct Particles {
  std::vector<std::array<f32, 3>> unused;  // keeps the vector-of-arrays path honest too
  u8 tag = 0;
  std::vector<u16> pad;
  u32 a = 0, b = 0, c = 0;
  f64 d = 0;
  s16 e = 0;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(unused, tag, pad);
    for (int i = 0; i < 20; ++i) ar(a, b, c, d, e);
  }
  friend bool operator==(const Particles&, const Particles&) = default;
};

TEST(SerialFile, ScalarRunsAcrossStagingBuffers) {
  const fs::path path = scratch("particles.bin");
  Particles p{{{1, 2, 3}}, 7, std::vector<u16>(21, 3), 10, 20, 30, 0.5, -4};
  for (usize buffer_size : {usize{64}, usize{70}, usize{1000}}) {
    FileSaver saver(path, buffer_size);
    saver.io(p);
    ASSERT_TRUE(saver.commit());
    const ByteBuffer bytes = file_bytes(path);
    EXPECT_EQ(bytes, *save_to_bytes(p));
    Particles loaded;
    FileLoader loader(path, {}, buffer_size);
    loader.io(loaded);
    ASSERT_TRUE(loader.finish());
    EXPECT_EQ(loaded, p);
    // Cut inside a run: both loaders stop at the same value.
    const ByteBuffer cut(bytes.begin(), bytes.end() - 9);
    ASSERT_TRUE(write_file_atomic(path, as_chars(cut)));
    Particles from_file, from_buffer;
    FileLoader file_loader(path, {}, buffer_size);
    file_loader.io(from_file);
    BufferLoader buffer_loader(cut);
    buffer_loader.io(from_buffer);
    ASSERT_FALSE(file_loader.finish());
    ASSERT_FALSE(buffer_loader.finish());
    EXPECT_EQ(file_loader.status().error().where().offset,
              buffer_loader.status().error().where().offset);
    EXPECT_EQ(from_file, from_buffer);
  }
}

}  // namespace
}  // namespace keel::serial
