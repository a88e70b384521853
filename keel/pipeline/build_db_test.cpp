// The build database: round trip, and every kind of damage is an error (never a crash).
#include "keel/pipeline/detail/build_db.h"

#include "keel/core/file.h"
#include "keel/core/hash.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
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

TEST(PipelineBuildDb, RoundTrip) {
  const BuildDatabase db = sample();
  const ByteBuffer bytes = db.to_bytes();
  Result<BuildDatabase> back = BuildDatabase::from_bytes(bytes);
  ASSERT_TRUE(back) << back.error().to_string();
  EXPECT_EQ(*back, db);
  ASSERT_NE(back->find("Blob/face.kpk"), nullptr);
  EXPECT_EQ(back->find("Blob/face.kpk")->sources[0].hash, 0xABCDu);
  EXPECT_EQ(back->find("nope"), nullptr);
  EXPECT_EQ(back->file("/p/src/face.tga")->stamp.inode, 42u);
  EXPECT_EQ(back->pack().inputs.size(), 2u);
  EXPECT_EQ(BuildDatabase().to_bytes().size(), 32u + 4 + 4 + 1 + 8 + 4);
}

// File states are written in the order they were put (the order the next build looks them up),
// and load in any order; a key written twice loads too (a lookup by key finds the later entry).
TEST(PipelineBuildDb, FileStatesKeepTheirOrderAndAnyOrderLoads) {
  BuildDatabase db;
  db.put_file(u64{9}, FileRecord{{6, 7, 8}, 9, 10});
  db.put_file(u64{5}, FileRecord{{1, 2, 3}, 4, 5});
  ByteBuffer bytes = db.to_bytes();
  Result<BuildDatabase> back = BuildDatabase::from_bytes(bytes);
  ASSERT_TRUE(back) << back.error().to_string();
  EXPECT_EQ(*back, db);
  ASSERT_EQ(back->files().entries().size(), 2u);
  EXPECT_EQ(back->files().entries()[0].first, 9u) << "in the order put, not sorted";
  // The two 48-byte file entries follow the header (32 bytes) and the count (4).
  ByteBuffer swapped = bytes;
  std::swap_ranges(swapped.begin() + 36, swapped.begin() + 84, swapped.begin() + 84);
  ByteBuffer twice = bytes;  // both entries say 9
  std::copy(bytes.begin() + 36, bytes.begin() + 44, twice.begin() + 84);
  for (ByteBuffer* b : {&swapped, &twice}) {
    const u64 checksum = hash64(b->data() + 32, b->size() - 32);
    for (int i = 0; i < 8; ++i) (*b)[16 + i] = std::byte{static_cast<u8>(checksum >> (8 * i))};
  }
  Result<BuildDatabase> other_order = BuildDatabase::from_bytes(swapped);
  ASSERT_TRUE(other_order) << other_order.error().to_string();
  EXPECT_EQ(*other_order, db);
  Result<BuildDatabase> repeated = BuildDatabase::from_bytes(twice);
  ASSERT_TRUE(repeated) << repeated.error().to_string();
  ASSERT_NE(repeated->file(u64{9}), nullptr);
  EXPECT_EQ(repeated->file(u64{9})->hash, 4u) << "the later entry of a repeated key counts";
  EXPECT_EQ(repeated->file(u64{5}), nullptr);
  // It writes and reads back equal (found by the fuzz target: equality compared the entries one
  // by one, and the first of the repeated key never matched).
  Result<BuildDatabase> again = BuildDatabase::from_bytes(repeated->to_bytes());
  ASSERT_TRUE(again) << again.error().to_string();
  EXPECT_EQ(*again, *repeated);
  BuildDatabase one;
  one.put_file(u64{9}, FileRecord{{1, 2, 3}, 4, 5});
  EXPECT_EQ(*repeated, one) << "a key listed twice compares as its later entry";
}

// Records keep the order they were put in (the jobs' order) through a save and load, and a
// lookup with a cursor finds them in that order and out of it.
TEST(PipelineBuildDb, RecordsKeepTheirOrderAndAreFoundWithACursor) {
  BuildDatabase db;
  for (const char* name : {"Blob/z.kpk", "Blob/a.kpk", "Script/m.kpk", "Blob/b.kpk"}) {
    db.put({name, name, "Blob", "PC", 1, 2, 3, {}});
  }
  Result<BuildDatabase> back = BuildDatabase::from_bytes(db.to_bytes());
  ASSERT_TRUE(back) << back.error().to_string();
  ASSERT_EQ(back->records().size(), 4u);
  EXPECT_EQ(back->records()[0].output, "Blob/z.kpk");
  EXPECT_EQ(back->records()[3].output, "Blob/b.kpk");
  BuildDatabase::Cursor cursor;
  for (usize i = 0; i < 4; ++i) {
    const IntermediateRecord* r = back->find(back->records()[i].output, cursor);
    ASSERT_NE(r, nullptr);
    EXPECT_EQ(r, &back->records()[i]);
    EXPECT_EQ(cursor.next, i + 1);
  }
  BuildDatabase::Cursor late{99};
  EXPECT_EQ(back->find("Blob/a.kpk", late), &back->records()[1]);
  EXPECT_EQ(late.next, 2u);
  EXPECT_EQ(back->find("Blob/none.kpk", late), nullptr);
  EXPECT_EQ(late.next, 2u) << "a miss leaves the cursor";
}

TEST(PipelineBuildDb, PutReplacesByOutputAndEqualityIgnoresOrder) {
  BuildDatabase a = sample();
  BuildDatabase b;
  b.put_file("/p/src/face.tga", FileRecord{{7, 1'700'000'000'123'456'789, 42}, 0xABCD, 99});
  b.put({"Script/ai.kpk", "ai", "Script", "PC", 4, 5, 6, {}});
  b.put({"Blob/face.kpk", "old", "Blob", "PC", 0, 0, 0, {}});
  b.put({"Blob/face.kpk", "face", "Blob", "PC", 1, 2, 3, {{"src/face.tga", 0xABCD}}});
  b.set_pack(a.pack());
  EXPECT_EQ(b.records().size(), 2u) << "a second put of one output replaces the record";
  EXPECT_EQ(a, b) << "the same records put in another order";
  b.put({"Blob/face.kpk", "face", "Blob", "PC", 1, 2, 4, {{"src/face.tga", 0xABCD}}});
  EXPECT_FALSE(a == b);
  EXPECT_EQ(b.find("Blob/face.kpk")->output_hash, 4u);
}

TEST(PipelineBuildDb, EveryTruncationAndBitFlipIsAnError) {
  const ByteBuffer bytes = sample().to_bytes();
  for (usize n = 0; n < bytes.size(); ++n) {
    ByteBuffer cut(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(n));
    EXPECT_FALSE(BuildDatabase::from_bytes(cut)) << "truncated to " << n;
  }
  for (usize i = 0; i < bytes.size(); ++i) {
    ByteBuffer flipped = bytes;
    flipped[i] ^= std::byte{0x10};
    EXPECT_FALSE(BuildDatabase::from_bytes(flipped)) << "flipped byte " << i;
  }
}

TEST(PipelineBuildDb, OtherVersionIsUnsupported) {
  ByteBuffer bytes = sample().to_bytes();
  bytes[4] = std::byte{9};
  Result<BuildDatabase> r = BuildDatabase::from_bytes(bytes);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code(), ErrorCode::kUnsupported);
}

TEST(PipelineBuildDb, LoadSaveAndDamagedFiles) {
  const std::filesystem::path dir = std::filesystem::path(KEEL_TEST_TMPDIR) / "pipeline" / "db";
  std::filesystem::remove_all(dir);
  // Missing: empty, and not an error.
  Result<BuildDatabase> missing = BuildDatabase::load(dir / "build.kdb");
  ASSERT_TRUE(missing) << missing.error().to_string();
  EXPECT_EQ(*missing, BuildDatabase());
  ASSERT_TRUE(sample().save(dir / "sub" / "build.kdb"));
  Result<BuildDatabase> saved = BuildDatabase::load(dir / "sub" / "build.kdb");
  ASSERT_TRUE(saved) << saved.error().to_string();
  EXPECT_EQ(*saved, sample());
  ASSERT_TRUE(write_file_atomic(dir / "sub" / "build.kdb", "garbage"));
  Result<BuildDatabase> damaged = BuildDatabase::load(dir / "sub" / "build.kdb");
  ASSERT_FALSE(damaged);
  EXPECT_EQ(damaged.error().code(), ErrorCode::kCorrupt);
  EXPECT_THAT(damaged.error().to_string(), ::testing::HasSubstr("sub/build.kdb: byte 0: error: "));
}

}  // namespace
}  // namespace keel::pipeline
