#include "keel/pipeline/string_table_asset.h"

#include <gtest/gtest.h>

namespace keel::pipeline {
namespace {

TEST(PipelineStringTable, EncodeAndFind) {
  const std::vector<std::string> keys = {"TITLE", "START", "QUIT", ""};
  const std::vector<StringTableLanguage> langs = {{"english", {"Game", "Start", "Quit", "empty"}},
                                                  {"french", {"Jeu", "", "Quitter", "vide"}}};
  const std::vector<std::byte> bytes = encode_string_table(keys, langs);
  Result<StringTableView> v = StringTableView::parse(bytes);
  ASSERT_TRUE(v) << v.error().to_string();
  EXPECT_EQ(v->key_count(), 4u);
  EXPECT_EQ(v->language(1), "french");
  EXPECT_EQ(v->language(2), "");
  EXPECT_EQ(v->find_language("french"), 1u);
  EXPECT_FALSE(v->find_language("german"));
  for (usize l = 0; l < langs.size(); ++l) {
    for (usize k = 0; k < keys.size(); ++k) {
      EXPECT_EQ(v->find(l, keys[k]), langs[l].texts[k]) << l << " " << keys[k];
    }
  }
  EXPECT_FALSE(v->find(0, "NOPE"));
  EXPECT_FALSE(v->find(2, "TITLE"));
}

TEST(PipelineStringTable, DamagedChunksAreErrors) {
  const std::vector<std::string> keys = {"A", "B", "C"};
  const std::vector<StringTableLanguage> langs = {{"en", {"a", "bb", "ccc"}}};
  const std::vector<std::byte> good = encode_string_table(keys, langs);
  for (usize n = 0; n < good.size(); ++n) {
    EXPECT_FALSE(StringTableView::parse(std::span(good).first(n))) << n;
  }
  // Counts that would overflow a size computation.
  std::vector<std::byte> huge = good;
  for (usize i = 8; i < 16; ++i) huge[i] = std::byte{0xFF};
  EXPECT_FALSE(StringTableView::parse(huge));
  // Offsets out of order.
  std::vector<std::byte> swapped = good;
  const usize offsets = (5 + 3 + 2) * 4;
  std::swap(swapped[offsets + 4], swapped[offsets + 8]);
  EXPECT_FALSE(StringTableView::parse(swapped));
}

}  // namespace
}  // namespace keel::pipeline
