// Checks 41 (record sizes) and 42 (the book's worked example, byte-exact after the Keel header).
#include "keel/pack/format.h"

#include "keel/pack/pack_file.h"
#include "keel/pack/testing/samples.h"
#include "keel/pack/writer.h"

#include <gtest/gtest.h>

#include <array>
#include <vector>

namespace keel::pack {
namespace {

using testing::as_bytes_of;
using testing::kMetaBlock;
using testing::kVideoBlock;

u32 u32_at(const ByteBuffer& bytes, usize offset) {
  return load_u32(as_u8(ByteSpan(bytes)).data() + offset);
}

TEST(PackFormat, LocatorIdPacksBlockLowChunkHigh) {
  constexpr LocatorId id = LocatorId::make(3, 2);
  static_assert(id.value == 0x00020003u);
  EXPECT_EQ(id.block_id(), 3);
  EXPECT_EQ(id.chunk(), 2);
  EXPECT_TRUE(LocatorId{}.is_null());
  EXPECT_FALSE(LocatorId::make(0, 1).is_null());
  EXPECT_EQ(chunk_key(0x0CD871E5u, id), 0x0CD871E500020003ull);
}

TEST(PackFormat, NamesAndTypesUseTheBooksFoldingHash) {
  EXPECT_EQ(name_hash("face"), 0x0CD871E5u);
  EXPECT_EQ(type_hash("Texture"), 0x8E9F4C94u);
  EXPECT_EQ(name_hash("Textures/FACE"), name_hash("textures\\face"));
}

TEST(PackFormat, Check41_RecordSizes) {
  EXPECT_EQ(kMasterIndexHeaderSize, 20u);
  EXPECT_EQ(kMasterIndexEntrySize, 12u);
  EXPECT_EQ(kBlockIndexHeaderSize, 16u);
  EXPECT_EQ(kBlockIndexEntrySize, 16u);
  EXPECT_EQ(sizeof(LocatorId), 4u);
  EXPECT_EQ(kFileHeaderSize, 32u);
  EXPECT_EQ(kBlockStorageSize, 16u);

  // Each encoder writes exactly its record size (the span extents make that a compile-time fact;
  // here we check the values land where the layout says).
  std::array<u8, kMasterIndexEntrySize> entry{};
  encode(MasterIndexEntry{1, 2, LocatorId{3}}, entry);
  EXPECT_EQ(load_u32(entry.data() + 8), 3u);
  std::array<u8, kBlockIndexEntrySize> block_entry{};
  encode(BlockIndexEntry{1, LocatorId{2}, 3, 4}, block_entry);
  EXPECT_EQ(load_u32(block_entry.data() + 12), 4u);

  // The first u32 of the book's layout is indexLength = 20 + 12 * numItems.
  for (u32 items : {0u, 1u, 5u}) {
    PackWriter writer(WriterOptions{.compression = Compression::kNone});
    for (u32 i = 0; i < items; ++i) {
      const std::string name = "asset" + std::to_string(i);
      const LocatorId id = writer.add_chunk(name, kMetaBlock, testing::pattern(8, i));
      writer.add_item(name, type_hash("Blob"), id);
    }
    auto bytes = writer.to_bytes();
    ASSERT_TRUE(bytes) << bytes.error().to_string();
    EXPECT_EQ(u32_at(*bytes, kFileHeaderSize), 20 + 12 * items);
  }
}

TEST(PackFormat, Check42_WorkedExample) {
  // Texture "face": a 16-byte header chunk (alignment 4, block 0, chunk 1) holding the locator of
  // a 64-byte pixel chunk (alignment 16, block 3, chunk 2).
  const LocatorId pixels_id = LocatorId::make(kVideoBlock, 2);
  std::array<u32, 4> header_chunk = {64, 1, pixels_id.value, 0};
  ByteBuffer pixels = testing::pattern(64, 7);

  PackWriter writer(WriterOptions{.compression = Compression::kNone, .write_dictionary = false});
  const LocatorId header_id = writer.add_chunk("face", kMetaBlock, as_bytes_of(header_chunk), 4);
  EXPECT_EQ(header_id, LocatorId::make(kMetaBlock, 1));
  EXPECT_EQ(writer.add_chunk("face", kVideoBlock, pixels, 16), pixels_id);
  writer.add_item("face", type_hash("Texture"), header_id);
  auto file = writer.to_bytes();
  ASSERT_TRUE(file) << file.error().to_string();

  // The book's layout, offsets relative to the end of the 32-byte Keel header.
  std::vector<u32> words = {
      32,         64,         0,          2,  1,  // off 0: MasterIndex
      0x0CD871E5, 0x8E9F4C94, 0x00010000,         // off 20: MasterIndexEntry, primary {0,1}
      0,          4,          16,         1,      // off 32: BlockIndex (type 0)
      0x0CD871E5, 0x00010000, 0,          16,     // off 48: entry {0,1}
      3,          16,         64,         1,      // off 64: BlockIndex (type 3)
      0x0CD871E5, 0x00020003, 0,          64,     // off 80: entry {3,2}
  };
  ByteBuffer expected(words.size() * 4);
  for (usize i = 0; i < words.size(); ++i) {
    store_u32(as_u8(MutableByteSpan(expected)).data() + i * 4, words[i]);
  }
  ASSERT_EQ(expected.size(), 96u);
  auto header_bytes = as_bytes_of(header_chunk);
  expected.insert(expected.end(), header_bytes.begin(), header_bytes.end());  // off 96
  expected.insert(expected.end(), pixels.begin(), pixels.end());              // off 112
  ASSERT_EQ(expected.size(), 176u);

  // File = 32-byte Keel header + the book's 176 bytes + block table (16 bytes per block).
  ASSERT_EQ(file->size(), kFileHeaderSize + 176 + 2 * kBlockStorageSize);
  const ByteBuffer book(file->begin() + kFileHeaderSize, file->begin() + kFileHeaderSize + 176);
  EXPECT_EQ(book, expected);

  // The Keel header and block table around it.
  const u8* raw = as_u8(ByteSpan(*file)).data();
  FileHeader header;
  ASSERT_TRUE(decode(std::span<const u8, kFileHeaderSize>(raw, kFileHeaderSize), header));
  EXPECT_EQ(header.version, kFormatVersion);
  EXPECT_EQ(header.header_size, 32);
  EXPECT_EQ(header.book_length, 176u);
  EXPECT_EQ(header.dictionary_checksum, 0u);
  const BlockStorage first = decode_block_storage(
      std::span<const u8, kBlockStorageSize>(raw + 32 + 176, kBlockStorageSize));
  EXPECT_EQ(first.stored_length, 16u);
  EXPECT_EQ(first.compression, Compression::kNone);
  EXPECT_EQ(first.checksum, hash64(header_bytes.data(), header_bytes.size()));

  // And it reads back.
  auto pack = PackFile::from_bytes(*file, "face.kpk");
  ASSERT_TRUE(pack) << pack.error().to_string();
  EXPECT_TRUE(pack->verify());
  auto read_pixels = pack->read_chunk(name_hash("face"), pixels_id);
  ASSERT_TRUE(read_pixels);
  EXPECT_EQ(*read_pixels, pixels);
}

TEST(PackFormat, Check42_WithDictionaryTheNamesFollowTheBlockData) {
  PackWriter writer(WriterOptions{.compression = Compression::kNone});
  const LocatorId id = writer.add_chunk("face", kMetaBlock, testing::pattern(16, 1));
  writer.add_item("face", type_hash("Texture"), id);
  auto file = writer.to_bytes();
  ASSERT_TRUE(file);
  const usize book = kFileHeaderSize;
  EXPECT_EQ(u32_at(*file, book + 8), 5u);  // dictionaryLength: "face\0"
  // 32 index + 32 block index + 16 data = 80, then the dictionary.
  EXPECT_EQ(std::memcmp(file->data() + book + 80, "face", 5), 0);
}

}  // namespace
}  // namespace keel::pack
