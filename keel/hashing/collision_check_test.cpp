#include "keel/hashing/collision_check.h"

#include "keel/core/file.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

namespace keel::hashing {
namespace {

namespace fs = std::filesystem;

fs::path scratch(const std::string& test) {
  auto dir = fs::path(KEEL_TEST_TMPDIR) / "collision_check" / test;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

void touch(const fs::path& path) {
  fs::create_directories(path.parent_path());
  ASSERT_TRUE(write_file_atomic(path, std::string_view("x")));
}

// C3-13: the filenamehash scan: recursive, exactly 1 collision for aaaab + qaaaa, 0 without.
TEST(CollisionCheck, C3_13_DirectoryScanCountsCollisions) {
  const fs::path root = scratch("c3_13");
  touch(root / "aaaab");
  touch(root / "qaaaa");
  touch(root / "textures" / "wall.tga");
  touch(root / "textures" / "floor.tga");
  touch(root / "sounds" / "deep" / "boom.wav");
  Result<CollisionReport> report = check_directory(root, NameHash{});
  ASSERT_TRUE(report) << report.error().to_string();
  EXPECT_EQ(report->names, 5u);
  EXPECT_EQ(report->collisions, 1u);
  ASSERT_EQ(report->groups.size(), 1u);
  EXPECT_EQ(report->groups[0].hash, 0x1C3870E8u);
  ASSERT_EQ(report->groups[0].names.size(), 2u);
  EXPECT_EQ(report->groups[0].names[0].name, "aaaab");
  EXPECT_EQ(report->groups[0].names[1].name, "qaaaa");
  const std::vector<std::string> lines = format_report(*report);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0], fmt::format("collision 0x1C3870E8: 'aaaab' ({}), 'qaaaa' ({})",
                                  (root / "aaaab").string(), (root / "qaaaa").string()));
  EXPECT_EQ(lines[1], "5 names checked with the filename hash: 1 collision, 0 duplicates");

  const fs::path clean = scratch("c3_13_clean");
  touch(clean / "aaaab");
  touch(clean / "a" / "b" / "c" / "player.txt");
  touch(clean / "a" / "alien.txt");
  Result<CollisionReport> none = check_directory(clean, NameHash{});
  ASSERT_TRUE(none);
  EXPECT_EQ(none->names, 3u);  // files in nested directories are found: the scan is recursive
  EXPECT_EQ(none->collisions, 0u);
  EXPECT_TRUE(none->groups.empty());

  // Leaf names: the colliding files may sit anywhere in the tree.
  const fs::path nested = scratch("c3_13_nested");
  touch(nested / "one" / "aaaab");
  touch(nested / "two" / "three" / "qaaaa");
  touch(nested / "unique.txt");
  Result<CollisionReport> by_path = check_directory(nested, NameHash{});
  ASSERT_TRUE(by_path);
  EXPECT_EQ(by_path->collisions, 0u);  // "one/aaaab" and "two/three/qaaaa" differ
  Result<CollisionReport> by_leaf = check_directory(nested, NameHash{}, {.leaf_names = true});
  ASSERT_TRUE(by_leaf);
  EXPECT_EQ(by_leaf->names, 3u);
  EXPECT_EQ(by_leaf->collisions, 1u);

  Result<CollisionReport> missing = check_directory(root / "nope", NameHash{});
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().code(), ErrorCode::kNotFound);
}

TEST(CollisionCheck, NamesFileReportsEveryCollisionAndDuplicate) {
  const std::string names =
      "# object names\n"
      "Player\n"
      "aaaab\n"
      "  Alien  \n"
      "\n"
      "qaaaa\n"
      "PLAYER\n"
      "QAAAA\n";
  Result<CollisionReport> r = check_names(names, "names.txt", NameHash{});
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_EQ(r->names, 6u);
  EXPECT_EQ(r->collisions, 1u);
  EXPECT_EQ(r->duplicates, 2u);
  EXPECT_EQ(format_report(*r), (std::vector<std::string>{
                                   "collision 0x1C3870E8: 'aaaab' (names.txt:3), 'qaaaa' "
                                   "(names.txt:6)",
                                   "duplicate: 'PLAYER' (names.txt:7) is 'Player' (names.txt:2)",
                                   "duplicate: 'QAAAA' (names.txt:8) is 'qaaaa' (names.txt:6)",
                                   "6 names checked with the filename hash: 1 collision, 2 "
                                   "duplicates",
                               }));

  // Under the case-sensitive string hash "PLAYER" is a different name with a different hash,
  // while "QAAAA" does not collide with "AAAAB" (absent) and is unique.
  Result<NameHash> string_hash_choice = parse_name_hash("string");
  ASSERT_TRUE(string_hash_choice);
  Result<CollisionReport> s = check_names(names, "names.txt", *string_hash_choice);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->duplicates, 0u);
  EXPECT_EQ(s->collisions, 1u);  // aaaab / qaaaa collide under both hashes

  // Three names under one hash count two collisions.
  HashCatalog catalog;
  catalog.add("x", "1");
  catalog.add("aaaab", "2");
  catalog.add("qaaaa", "3");
  catalog.add("QAAAB", "4");  // folds to "qaaab": a different hash
  const CollisionReport c = catalog.report();
  EXPECT_EQ(c.collisions, 1u);
  EXPECT_EQ(string_hash("aaaab"), filename_hash("aaaab"));
}

TEST(CollisionCheck, HashChoicesAndErrors) {
  EXPECT_EQ(parse_name_hash("filename-signed")->high_bytes, HighBytes::kSignExtend);
  EXPECT_EQ(parse_name_hash("string-signed")->kind, NameHashKind::kString);
  EXPECT_EQ(parse_name_hash("crc32").error().code(), ErrorCode::kInvalidArgument);
  const NameHash signed_hash{NameHashKind::kFilename, HighBytes::kSignExtend};
  EXPECT_EQ(signed_hash("\xE9"), 0xFFFFFFE9u);
  EXPECT_EQ(NameHash{}("\xE9"), 0xE9u);
  EXPECT_EQ(signed_hash.describe(), "filename hash (signed char)");

  Result<CollisionReport> bad = check_names("ok\nbro\rken\n", "list.txt", NameHash{});
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().to_string(), "list.txt:2:4: error: carriage return inside a line");
  EXPECT_EQ(check_names_file("/nonexistent/names.txt", NameHash{}).error().code(), ErrorCode::kIo);
}

}  // namespace
}  // namespace keel::hashing
