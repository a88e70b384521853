// merge_packs: the repack step (check 45).
#include "keel/pack/merge.h"
#include "keel/pack/detail/index.h"

#include "keel/pack/loader.h"
#include "keel/pack/testing/samples.h"

#include <gtest/gtest.h>

#include <filesystem>

namespace keel::pack {
namespace {

using testing::kMetaBlock;
using testing::kVideoBlock;
using testing::pattern;
using testing::TextureHeader;

std::filesystem::path temp_dir(const char* name) {
  const auto dir = std::filesystem::path(KEEL_TEST_TMPDIR) / name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

TEST(PackMerge, Check45_MergeKeepsLocatorsAndChunkBytes) {
  const auto dir = temp_dir("pack_merge");
  // Two intermediate files, as the build tool writes them: one per asset group.
  PackWriter first(WriterOptions{.compression = Compression::kZstd});
  testing::add_texture(first, "face", 4, 4, 1);
  testing::add_texture(first, "rock", 3, 5, 2);
  ASSERT_TRUE(first.write(dir / "a.kpk"));
  PackWriter second(WriterOptions{.compression = Compression::kZlib});
  testing::add_texture(second, "tree", 8, 2, 3);
  second.add_chunk("tree", 9, pattern(5, 4), 1);  // a block type only the second file has
  ASSERT_TRUE(second.write(dir / "b.kpk"));

  const std::vector<std::filesystem::path> inputs = {dir / "a.kpk", dir / "b.kpk"};
  ASSERT_TRUE(merge_packs(inputs, dir / "merged.kpk"));
  auto merged = PackFile::open(dir / "merged.kpk");
  ASSERT_TRUE(merged) << merged.error().to_string();
  ASSERT_TRUE(merged->verify());
  EXPECT_EQ(merged->items().size(), 3u);
  EXPECT_EQ(merged->blocks().size(), 3u);  // types 0, 3 and 9, each once

  // Every chunk of every input: same key, same bytes (embedded locator ids included); only the
  // block offset may change, and only by the aligned base of its input's block.
  for (const auto& path : inputs) {
    auto input = PackFile::open(path);
    ASSERT_TRUE(input);
    for (usize b = 0; b < input->blocks().size(); ++b) {
      const PackBlock& in_block = input->blocks()[b];
      auto in_data = input->read_block(b);
      ASSERT_TRUE(in_data);
      std::optional<s64> shift;
      for (const PackChunk& c : input->chunks(b)) {
        auto entry = merged->index().find_chunk(c.name_hash, c.locator);
        ASSERT_TRUE(entry) << path << " chunk " << c.locator.value;
        EXPECT_EQ(entry->data_length, c.length);
        const s64 delta = s64{entry->block_offset} - s64{c.block_offset};
        if (!shift) shift = delta;
        EXPECT_EQ(delta, *shift) << "chunks of one input block move together";
        EXPECT_EQ(*shift % in_block.alignment, 0);
        auto bytes = merged->read_chunk(c.name_hash, c.locator);
        ASSERT_TRUE(bytes);
        EXPECT_TRUE(std::equal(bytes->begin(), bytes->end(), in_data->begin() + c.block_offset));
      }
    }
    for (const PackItem& item : input->items()) {
      const PackItem* m = merged->find_item_hash(item.name_hash);
      ASSERT_NE(m, nullptr);
      EXPECT_EQ(m->type_hash, item.type_hash);
      EXPECT_EQ(m->primary, item.primary);
      EXPECT_EQ(m->name, item.name);
    }
  }

  // After loading, every locator id resolves to the right chunk.
  Loader loader;
  loader.register_type(type_hash("Texture"), testing::setup_texture);
  auto pack = loader.load(dir / "merged.kpk");
  ASSERT_TRUE(pack) << pack.error().to_string();
  struct Expect {
    const char* name;
    u32 w, h, seed;
  };
  for (const Expect& e :
       {Expect{"face", 4, 4, 1}, Expect{"rock", 3, 5, 2}, Expect{"tree", 8, 2, 3}}) {
    auto* texture = pack->find_as<TextureHeader>(e.name);
    ASSERT_NE(texture, nullptr) << e.name;
    EXPECT_EQ(texture->width, e.w);
    const auto expected = pattern(usize{e.w} * e.h, e.seed);
    EXPECT_TRUE(std::equal(expected.begin(), expected.end(), texture->pixels.get())) << e.name;
  }
}

TEST(PackMerge, DuplicateAssetsAcrossInputsAreAnError) {
  const auto dir = temp_dir("pack_merge_dup");
  PackWriter a;
  testing::add_texture(a, "face", 2, 2, 1);
  ASSERT_TRUE(a.write(dir / "a.kpk"));
  PackWriter b;
  testing::add_texture(b, "FACE", 2, 2, 9);  // same asset (names fold case)
  ASSERT_TRUE(b.write(dir / "b.kpk"));
  const std::vector<std::filesystem::path> inputs = {dir / "a.kpk", dir / "b.kpk"};
  auto s = merge_packs(inputs, dir / "merged.kpk");
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code(), ErrorCode::kAlreadyExists);
  EXPECT_FALSE(std::filesystem::exists(dir / "merged.kpk"));
}

TEST(PackMerge, MissingOrBrokenInputIsReported) {
  const auto dir = temp_dir("pack_merge_bad");
  const std::vector<std::filesystem::path> inputs = {dir / "missing.kpk"};
  auto s = merge_packs(inputs, dir / "merged.kpk");
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code(), ErrorCode::kIo);
}

}  // namespace
}  // namespace keel::pack
