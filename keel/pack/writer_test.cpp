// PackWriter: sorting (check 43), collision safety (44), alignment (46), add_chunk semantics (59).
#include "keel/pack/writer.h"
#include "keel/pack/detail/index.h"

#include "keel/pack/merge.h"
#include "keel/pack/pack_file.h"
#include "keel/pack/testing/samples.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>

namespace keel::pack {
namespace {

using testing::bytes_of;
using testing::kMetaBlock;
using testing::kVertexBlock;
using testing::kVideoBlock;
using testing::pattern;

PackFile open_bytes(PackWriter& writer) {
  auto bytes = writer.to_bytes();
  EXPECT_TRUE(bytes) << bytes.error().to_string();
  auto pack = PackFile::from_bytes(std::move(*bytes));
  EXPECT_TRUE(pack) << pack.error().to_string();
  return std::move(*pack);
}

TEST(PackFormat, Check43_Sorting) {
  PackWriter writer(WriterOptions{.compression = Compression::kZstd});
  std::vector<std::string> names;
  for (int i = 0; i < 40; ++i) names.push_back("asset_" + std::to_string(i * 7919 % 1000));
  std::vector<std::pair<std::string, LocatorId>> chunks;
  for (usize i = 0; i < names.size(); ++i) {
    const LocatorId a = writer.add_chunk(names[i], kMetaBlock, pattern(8 + i, static_cast<u32>(i)));
    const LocatorId b =
        writer.add_chunk(names[i], static_cast<u16>(i % 3 == 0 ? kVideoBlock : kMetaBlock),
                         pattern(3 * i, static_cast<u32>(i + 100)));
    writer.add_item(names[i], type_hash("Blob"), a);
    chunks.emplace_back(names[i], a);
    chunks.emplace_back(names[i], b);
  }
  PackFile pack = open_bytes(writer);

  // Master entries strictly ascending by name hash; block entries strictly ascending by key.
  ASSERT_EQ(pack.items().size(), names.size());
  for (usize i = 1; i < pack.items().size(); ++i) {
    EXPECT_LT(pack.items()[i - 1].name_hash, pack.items()[i].name_hash);
  }
  for (usize b = 0; b < pack.blocks().size(); ++b) {
    const auto entries = pack.chunks(b);
    for (usize i = 1; i < entries.size(); ++i) {
      EXPECT_LT(chunk_key(entries[i - 1].name_hash, entries[i - 1].locator),
                chunk_key(entries[i].name_hash, entries[i].locator));
    }
  }
  // Binary search finds every asset and chunk; misses say "not found".
  for (usize i = 0; i < names.size(); ++i) {
    const PackItem* item = pack.find_item(names[i]);
    ASSERT_NE(item, nullptr) << names[i];
    EXPECT_EQ(item->name, names[i]);
    EXPECT_TRUE(pack.index().find_chunk(name_hash(names[i]), chunks[2 * i].second));
    EXPECT_TRUE(pack.index().find_chunk(name_hash(names[i]), chunks[2 * i + 1].second));
    auto data = pack.read_chunk(name_hash(names[i]), chunks[2 * i].second);
    ASSERT_TRUE(data);
    EXPECT_EQ(*data, pattern(8 + i, static_cast<u32>(i)));
  }
  EXPECT_EQ(pack.find_item("no such asset"), nullptr);
  EXPECT_FALSE(pack.index().find_chunk(name_hash(names[0]), LocatorId::make(kMetaBlock, 999)));
  EXPECT_FALSE(pack.index().find_chunk(name_hash("nobody"), chunks[0].second));
  auto miss = pack.read_chunk(name_hash("nobody"), chunks[0].second);
  ASSERT_FALSE(miss);
  EXPECT_EQ(miss.error().code(), ErrorCode::kNotFound);
}

TEST(PackFormat, Check44_CollisionSafety) {
  // Two intermediate files each number their chunks from 1, so both assets own locator {0,1}.
  PackWriter first(WriterOptions{.compression = Compression::kNone});
  const LocatorId a = first.add_chunk("alpha", kMetaBlock, bytes_of("alpha's data"));
  first.add_item("alpha", type_hash("Blob"), a);
  PackWriter second(WriterOptions{.compression = Compression::kNone});
  const LocatorId b = second.add_chunk("beta", kMetaBlock, bytes_of("beta's other data"));
  second.add_item("beta", type_hash("Blob"), b);
  ASSERT_EQ(a, LocatorId::make(0, 1));
  ASSERT_EQ(a, b);

  // Merged into one block, the (name hash, locator) keys stay distinct.
  PackFile pa = open_bytes(first);
  PackFile pb = open_bytes(second);
  const PackFile* inputs[] = {&pa, &pb};
  auto merged = merge_to_bytes(inputs, WriterOptions{.compression = Compression::kNone});
  ASSERT_TRUE(merged) << merged.error().to_string();
  auto pack = PackFile::from_bytes(std::move(*merged));
  ASSERT_TRUE(pack) << pack.error().to_string();
  ASSERT_EQ(pack->blocks().size(), 1u);
  EXPECT_EQ(pack->blocks()[0].chunk_count, 2u);
  auto da = pack->read_chunk(name_hash("alpha"), LocatorId::make(0, 1));
  auto db = pack->read_chunk(name_hash("beta"), LocatorId::make(0, 1));
  ASSERT_TRUE(da && db);
  EXPECT_EQ(*da, bytes_of("alpha's data"));
  EXPECT_EQ(*db, bytes_of("beta's other data"));
}

TEST(PackFormat, Check46_Alignment) {
  PackWriter writer(WriterOptions{.compression = Compression::kZlib});
  const u32 alignments[] = {1, 4, 16, 2, 256, 8, 64, 4096, 1};
  std::vector<LocatorId> ids;
  for (usize i = 0; i < std::size(alignments); ++i) {
    ids.push_back(writer.add_chunk("mesh", kVertexBlock, pattern(13 + i, static_cast<u32>(i)),
                                   alignments[i]));
  }
  ids.push_back(writer.add_chunk("mesh", kMetaBlock, pattern(5, 1), 2));
  writer.add_item("mesh", type_hash("Mesh"), ids.back());
  PackFile pack = open_bytes(writer);
  const PackBlock* vertices = pack.find_block(kVertexBlock);
  const PackBlock* meta = pack.find_block(kMetaBlock);
  ASSERT_NE(vertices, nullptr);
  ASSERT_NE(meta, nullptr);
  EXPECT_EQ(vertices->alignment, 4096u);  // the largest chunk alignment in the block
  EXPECT_EQ(meta->alignment, 2u);
  for (usize i = 0; i < std::size(alignments); ++i) {
    auto entry = pack.index().find_chunk(name_hash("mesh"), ids[i]);
    ASSERT_TRUE(entry);
    EXPECT_EQ(entry->block_offset % alignments[i], 0u) << "chunk " << i;
    EXPECT_EQ(entry->data_length, 13 + i);
  }
  // Padding is zeros, so the file is deterministic.
  auto again = writer.to_bytes();
  auto once = writer.to_bytes();
  ASSERT_TRUE(again && once);
  EXPECT_EQ(*again, *once);
}

TEST(PackWriter, AddChunkCopiesTheDataAndNumbersChunksPerFile) {
  PackWriter writer(WriterOptions{.compression = Compression::kNone});
  ByteBuffer buffer = bytes_of("original");
  const LocatorId first = writer.add_chunk("a", 7, buffer);
  std::fill(buffer.begin(), buffer.end(), std::byte{0});  // the caller may reuse its buffer
  buffer.clear();
  buffer.shrink_to_fit();
  const LocatorId second = writer.add_chunk("a", 2, bytes_of("x"));
  const LocatorId third = writer.add_chunk("b", 7, bytes_of("y"));
  EXPECT_EQ(first, LocatorId::make(7, 1));
  EXPECT_EQ(second, LocatorId::make(2, 2));
  EXPECT_EQ(third, LocatorId::make(7, 3));
  writer.add_item("a", type_hash("Blob"), first);
  PackFile pack = open_bytes(writer);
  auto data = pack.read_chunk(name_hash("a"), first);
  ASSERT_TRUE(data);
  EXPECT_EQ(*data, bytes_of("original"));
  EXPECT_EQ(pack.items().size(), 1u);  // "b" has chunks but no item
}

TEST(PackWriter, WriteIsAtomicAndReadable) {
  const std::filesystem::path dir = std::filesystem::path(KEEL_TEST_TMPDIR) / "pack_writer";
  std::filesystem::create_directories(dir);
  const auto path = dir / "face.kpk";
  PackWriter writer;
  testing::add_texture(writer, "face", 8, 8, 3);
  ASSERT_TRUE(writer.write(path));
  auto pack = PackFile::open(path);
  ASSERT_TRUE(pack) << pack.error().to_string();
  EXPECT_TRUE(pack->verify());
  EXPECT_EQ(pack->items().size(), 1u);
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    EXPECT_EQ(entry.path().filename(), "face.kpk") << "temporary file left behind";
  }
}

TEST(PackWriter, DataErrorsAreReportedByWrite) {
  {
    PackWriter writer;
    const LocatorId id = writer.add_chunk("a", 0, bytes_of("1"));
    writer.add_item("a", 1, id);
    writer.add_item("A", 1, id);  // the same asset: names fold case
    auto bytes = writer.to_bytes();
    ASSERT_FALSE(bytes);
    EXPECT_EQ(bytes.error().code(), ErrorCode::kAlreadyExists);
  }
  {
    PackWriter writer;  // a primary chunk that belongs to another asset
    const LocatorId id = writer.add_chunk("a", 0, bytes_of("1"));
    writer.add_item("b", 1, id);
    auto bytes = writer.to_bytes();
    ASSERT_FALSE(bytes);
    EXPECT_EQ(bytes.error().code(), ErrorCode::kNotFound);
  }
  {
    // Two different names with the same hash: ('a' << 7) + '0' == ('`' << 7) + 0xB0.
    const std::string x = "a0";
    const std::string y = "`\xB0";
    ASSERT_EQ(name_hash(x), name_hash(y));
    PackWriter writer;
    writer.add_chunk(x, 0, bytes_of("1"));
    writer.add_chunk(y, 0, bytes_of("2"));
    auto bytes = writer.to_bytes();
    ASSERT_FALSE(bytes);
    EXPECT_EQ(bytes.error().code(), ErrorCode::kAlreadyExists);
    EXPECT_NE(bytes.error().message().find("same hash"), std::string::npos);
  }
  {
    PackWriter writer;
    for (u32 i = 0; i < 0xFFFF; ++i) writer.add_chunk("many", 0, {});
    EXPECT_TRUE(writer.add_chunk("many", 0, {}).is_null());  // the 65536th chunk
    auto bytes = writer.to_bytes();
    ASSERT_FALSE(bytes);
    EXPECT_EQ(bytes.error().code(), ErrorCode::kOverflow);
  }
}

TEST(PackWriter, IncompressibleBlocksAreStoredRaw) {
  PackWriter writer(WriterOptions{.compression = Compression::kZstd});
  ByteBuffer noise(4096);
  u64 x = 88172645463325252ull;
  for (auto& b : noise) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    b = static_cast<std::byte>(x);
  }
  const LocatorId id = writer.add_chunk("noise", kMetaBlock, noise);
  writer.add_chunk("noise", kVideoBlock, ByteBuffer(4096, std::byte{0}));
  writer.add_item("noise", type_hash("Blob"), id);
  PackFile pack = open_bytes(writer);
  EXPECT_EQ(pack.find_block(kMetaBlock)->compression, Compression::kNone);
  EXPECT_EQ(pack.find_block(kVideoBlock)->compression, Compression::kZstd);
  EXPECT_LT(pack.find_block(kVideoBlock)->stored_length, 100u);
  EXPECT_TRUE(pack.verify());
}

}  // namespace
}  // namespace keel::pack
