// The build database: round trip, and every kind of damage is an error (never a crash).
#include "keel/pipeline/build_db.h"

#include "keel/core/file.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>

namespace keel::pipeline {
namespace {

BuildDatabase sample() {
  BuildDatabase db;
  db.put_file("/p/src/face.tga", FileRecord{{7, 1'700'000'000'123'456'789, 42}, 0xABCD, 99});
  db.put({"Blob/face.kpk", "face", "Blob", "PC", 1, 2, 3, {{"src/face.tga", 0xABCD}}});
  db.put({"Script/ai.kpk", "ai", "Script", "PC", 4, 5, 6, {}});
  db.set_pack({true, 77, {{"Blob/face.kpk", 3}, {"Script/ai.kpk", 6}}});
  return db;
}

std::span<const u8> span_of(const std::vector<u8>& v) { return v; }

TEST(PipelineBuildDb, RoundTrip) {
  const BuildDatabase db = sample();
  const std::vector<u8> bytes = db.to_bytes();
  Result<BuildDatabase> back = BuildDatabase::from_bytes(span_of(bytes));
  ASSERT_TRUE(back) << back.error().to_string();
  EXPECT_EQ(*back, db);
  ASSERT_NE(back->find("Blob/face.kpk"), nullptr);
  EXPECT_EQ(back->find("Blob/face.kpk")->sources[0].hash, 0xABCDu);
  EXPECT_EQ(back->find("nope"), nullptr);
  EXPECT_EQ(back->file("/p/src/face.tga")->stamp.inode, 42u);
  EXPECT_EQ(back->pack().inputs.size(), 2u);
  EXPECT_EQ(BuildDatabase().to_bytes().size(), 32u + 4 + 4 + 1 + 8 + 4);
}

TEST(PipelineBuildDb, EveryTruncationAndBitFlipIsAnError) {
  const std::vector<u8> bytes = sample().to_bytes();
  for (usize n = 0; n < bytes.size(); ++n) {
    std::vector<u8> cut(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(n));
    EXPECT_FALSE(BuildDatabase::from_bytes(span_of(cut))) << "truncated to " << n;
  }
  for (usize i = 0; i < bytes.size(); ++i) {
    std::vector<u8> flipped = bytes;
    flipped[i] ^= 0x10;
    EXPECT_FALSE(BuildDatabase::from_bytes(span_of(flipped))) << "flipped byte " << i;
  }
}

TEST(PipelineBuildDb, OtherVersionIsUnsupported) {
  std::vector<u8> bytes = sample().to_bytes();
  bytes[4] = 9;
  Result<BuildDatabase> r = BuildDatabase::from_bytes(span_of(bytes));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code(), ErrorCode::kUnsupported);
}

TEST(PipelineBuildDb, LoadSaveAndDamagedFiles) {
  const std::filesystem::path dir = std::filesystem::path(KEEL_TEST_TMPDIR) / "pipeline" / "db";
  std::filesystem::remove_all(dir);
  std::string problem;
  // Missing: empty, and not a problem.
  EXPECT_EQ(BuildDatabase::load(dir / "build.kdb", &problem), BuildDatabase());
  EXPECT_EQ(problem, "");
  ASSERT_TRUE(sample().save(dir / "sub" / "build.kdb"));
  EXPECT_EQ(BuildDatabase::load(dir / "sub" / "build.kdb", &problem), sample());
  EXPECT_EQ(problem, "");
  ASSERT_TRUE(write_file_atomic(dir / "sub" / "build.kdb", "garbage"));
  EXPECT_EQ(BuildDatabase::load(dir / "sub" / "build.kdb", &problem), BuildDatabase());
  EXPECT_THAT(problem, ::testing::HasSubstr("build.kdb: build database: byte 0: error: "));
}

}  // namespace
}  // namespace keel::pipeline
