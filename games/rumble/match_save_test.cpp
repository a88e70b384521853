// Save and restore a match mid-fight: N frames, save, M frames, hash; load, the same M frames,
// the same hash.
#include "match_save.h"

#include "keel/core/file.h"

#include <gtest/gtest.h>

#include <filesystem>

namespace rumble {
namespace {

MatchSetup seeded(u64 seed) {
  MatchSetup setup =
      MatchSetup::from_data_dir(std::filesystem::path(KEEL_SOURCE_DIR) / "games/rumble/data");
  setup.seed = seed;
  return setup;
}

std::filesystem::path temp_save(const char* name) {
  auto dir = std::filesystem::path(KEEL_TEST_TMPDIR);
  std::filesystem::create_directories(dir);
  return dir / name;
}

TEST(RumbleSave, SaveMidFightThenSameFramesGiveTheSameHash) {
  constexpr u64 kN = 240;
  constexpr u64 kM = 600;
  const auto path = temp_save("midfight.ksav");
  auto match = Match::create(seeded(7));
  ASSERT_TRUE(match) << match.error().to_string();
  (*match)->advance_to(kN);
  ASSERT_FALSE((*match)->over());
  ASSERT_TRUE(save_match(**match, path));
  (*match)->advance_to(kN + kM);
  const u64 expected = state_hash(**match);

  auto loaded = load_match(path, seeded(7));
  ASSERT_TRUE(loaded) << loaded.error().to_string();
  EXPECT_EQ((*loaded)->ticks(), kN);
  (*loaded)->advance_to(kN + kM);
  EXPECT_EQ(state_hash(**loaded), expected);
}

TEST(RumbleSave, SaveOfAnotherSetupIsRefused) {
  const auto path = temp_save("other.ksav");
  auto match = Match::create(seeded(7));
  ASSERT_TRUE(match);
  (*match)->advance_to(120);
  ASSERT_TRUE(save_match(**match, path));
  EXPECT_FALSE(load_match(path, seeded(8)));
}

TEST(RumbleSave, DamagedSaveIsRefused) {
  const auto path = temp_save("damaged.ksav");
  auto match = Match::create(seeded(7));
  ASSERT_TRUE(match);
  (*match)->advance_to(60);
  ASSERT_TRUE(save_match(**match, path));
  std::string bytes;
  {
    auto text = keel::read_file(path);
    ASSERT_TRUE(text);
    bytes = *text;
  }
  bytes[bytes.size() - 3] ^= 0x40;
  ASSERT_TRUE(keel::write_file_atomic(path, std::string_view(bytes)));
  auto loaded = load_match(path, seeded(7));
  ASSERT_FALSE(loaded);
  EXPECT_NE(loaded.error().message().find("corrupt at byte"), std::string::npos);
}

TEST(RumbleSave, TemplatesHaveNoHoles) {
  EXPECT_TRUE(match_save_system().problems().empty()) << match_save_system().problems().front();
}

}  // namespace
}  // namespace rumble
