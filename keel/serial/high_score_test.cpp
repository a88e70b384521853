// The seed's high-score table (keel/serial/high_score_table.h, used by examples/highscore):
// acceptance check 21 and the program's behaviour around its file.
#include "keel/serial/high_score_table.h"

#include "keel/core/file.h"
#include "keel/serial/testing/wire.h"

#include <gtest/gtest.h>

#include <filesystem>

namespace keel::examples {
namespace {

using serial::HighScoreTable;
using serial::testing::wire;

namespace fs = std::filesystem;

fs::path scratch() {
  const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
  fs::path dir = fs::path(KEEL_TEST_TMPDIR) / "high_score_test" / test->name();
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir / "highscor.dat";
}

TEST(HighScore, Check21_DefaultTableIs140BytesAndLoadsBackIdentical) {
  const HighScoreTable defaults;
  EXPECT_EQ(defaults.entries()[0], (HighScoreTable::Entry{"Nobody", 100}));
  EXPECT_EQ(defaults.entries()[9], (HighScoreTable::Entry{"Nobody", 10}));
  auto bytes = serial::save_to_bytes(defaults);
  ASSERT_TRUE(bytes);
  EXPECT_EQ(bytes->size(), 140u);  // 10 x (4 + 6 + 4)
  EXPECT_EQ(ByteBuffer(bytes->begin(), bytes->begin() + 14),
            (wire({0, 0, 0, 6, 'N', 'o', 'b', 'o', 'd', 'y', 0, 0, 0, 100})));

  const fs::path path = scratch();
  ASSERT_TRUE(defaults.save(path));
  EXPECT_EQ(fs::file_size(path), 140u);
  HighScoreTable loaded;
  loaded.add("Someone", 1000);
  ASSERT_TRUE(loaded.load(path));
  EXPECT_EQ(loaded, defaults);
}

TEST(HighScore, AddKeepsTheTableSortedAndTenLong) {
  HighScoreTable table;
  EXPECT_EQ(table.add("Ada", 95), 1u);
  EXPECT_EQ(table.add("Bob", 10), std::nullopt);  // equal to the last: does not qualify
  EXPECT_EQ(table.add("Cy", 500), 0u);
  EXPECT_EQ(table.entries()[0].name, "Cy");
  EXPECT_EQ(table.entries()[2].name, "Ada");
  EXPECT_EQ(table.entries()[9].score, 30u);
  const fs::path path = scratch();
  ASSERT_TRUE(table.save(path));
  HighScoreTable loaded;
  ASSERT_TRUE(loaded.load(path));
  EXPECT_EQ(loaded, table);
}

TEST(HighScore, MissingOrDamagedFileKeepsTheDefaults) {
  const fs::path path = scratch();
  HighScoreTable table;
  auto missing = table.load(path);
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().code(), ErrorCode::kNotFound);
  EXPECT_EQ(table, HighScoreTable{});

  HighScoreTable better;
  better.add("Zed", 999);
  auto bytes = *serial::save_to_bytes(better);
  ASSERT_EQ(bytes[10], std::byte{999 & 0xFF});  // "Zed" is 4 + 3 bytes, then its score
  bytes[9] = std::byte{0};
  bytes[10] = std::byte{1};  // the first score drops below the second: out of order
  ASSERT_TRUE(write_file_atomic(path, as_chars(bytes)));
  auto damaged = table.load(path);
  ASSERT_FALSE(damaged);
  EXPECT_EQ(damaged.error().code(), ErrorCode::kCorrupt);
  EXPECT_EQ(table, HighScoreTable{});

  bytes = *serial::save_to_bytes(HighScoreTable{});
  bytes.pop_back();  // 139 bytes
  ASSERT_TRUE(write_file_atomic(path, as_chars(bytes)));
  EXPECT_EQ(table.load(path).error().code(), ErrorCode::kUnderflow);
  EXPECT_EQ(table, HighScoreTable{});
}

}  // namespace
}  // namespace keel::examples
