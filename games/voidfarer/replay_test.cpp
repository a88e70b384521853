// Replay files (replay.h): round trip, the header checks, hostile files.
#include "replay.h"

#include "keel/core/file.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

namespace keel::voidfarer {
namespace {

namespace fs = std::filesystem;

fs::path scratch(const std::string& name) {
  const fs::path dir = fs::path(KEEL_TEST_TMPDIR) / "replay";
  fs::create_directories(dir);
  return dir / name;
}

Replay sample() {
  Replay r{.pack_hash = 0x0123456789abcdefULL,
           .difficulty = Difficulty::kHard,
           .seed = 42,
           .controls = {}};
  for (u8 i = 0; i < 32; ++i) r.controls.push_back(i);
  return r;
}

TEST(Replay, SavesAndLoadsEveryFrameAndTheHeader) {
  const fs::path path = scratch("round_trip.vfr");
  const Replay written = sample();
  ASSERT_TRUE(written.save(path));
  // Header: 4 + 2 + 8 + 1 + 8 bytes, the count (4) and one byte per frame.
  EXPECT_EQ(fs::file_size(path), 27u + 32u);
  Result<Replay> read = Replay::load(path);
  ASSERT_TRUE(read) << read.error().to_string();
  EXPECT_EQ(read->pack_hash, written.pack_hash);
  EXPECT_EQ(read->difficulty, Difficulty::kHard);
  EXPECT_EQ(read->seed, 42u);
  EXPECT_EQ(read->controls, written.controls);
  EXPECT_EQ(Controls::from_bits(read->controls[17]), (Controls{.thrust = true, .fire = true}));
}

TEST(Replay, MatchesOnlyTheSamePackAndOptions) {
  const Replay r = sample();
  EXPECT_TRUE(r.matches(r.pack_hash, {.difficulty = Difficulty::kHard, .seed = 42}));
  Status other_pack = r.matches(1, {.difficulty = Difficulty::kHard, .seed = 42});
  ASSERT_FALSE(other_pack);
  EXPECT_NE(other_pack.error().message().find("another pack"), std::string::npos);
  EXPECT_FALSE(r.matches(r.pack_hash, {.difficulty = Difficulty::kEasy, .seed = 42}));
  EXPECT_FALSE(r.matches(r.pack_hash, {.difficulty = Difficulty::kHard, .seed = 7}));
}

TEST(Replay, RejectsBadFilesWithTheirOffset) {
  Result<ByteBuffer> good = sample().to_bytes();
  ASSERT_TRUE(good);

  ByteBuffer magic = *good;
  magic[0] = std::byte{'X'};
  Result<Replay> bad_magic = Replay::parse(magic);
  ASSERT_FALSE(bad_magic);
  EXPECT_NE(bad_magic.error().message().find("not a Voidfarer replay"), std::string::npos);

  ByteBuffer version = *good;
  version[5] = std::byte{9};
  Result<Replay> bad_version = Replay::parse(version);
  ASSERT_FALSE(bad_version);
  EXPECT_EQ(bad_version.error().code(), ErrorCode::kUnsupported);

  ByteBuffer difficulty = *good;
  difficulty[14] = std::byte{3};
  EXPECT_FALSE(Replay::parse(difficulty));

  ByteBuffer stray = *good;
  stray.back() = std::byte{0x40};
  Result<Replay> bad_bits = Replay::parse(stray);
  ASSERT_FALSE(bad_bits);
  EXPECT_NE(bad_bits.error().message().find("frame 31"), std::string::npos);

  ByteBuffer truncated(good->begin(), good->end() - 3);
  EXPECT_FALSE(Replay::parse(truncated));

  ByteBuffer trailing = *good;
  trailing.push_back(std::byte{0});
  EXPECT_FALSE(Replay::parse(trailing));
}

TEST(Replay, LoadErrorsNameTheFile) {
  const fs::path path = scratch("garbage.vfr");
  ASSERT_TRUE(write_file_atomic(path, std::string_view("definitely not a replay at all")));
  Result<Replay> read = Replay::load(path);
  ASSERT_FALSE(read);
  EXPECT_NE(read.error().to_string().find("garbage.vfr"), std::string::npos);
  EXPECT_FALSE(Replay::load(scratch("missing.vfr")));
}

}  // namespace
}  // namespace keel::voidfarer
