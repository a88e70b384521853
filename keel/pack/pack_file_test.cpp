// PackFile, the tools' reader: listing, extraction, verification, and hostile input.
#include "keel/pack/pack_file.h"

#include "keel/pack/loader.h"
#include "keel/pack/testing/samples.h"

#include <gtest/gtest.h>

#include <vector>

namespace keel::pack {
namespace {

using testing::kMetaBlock;
using testing::kVideoBlock;
using testing::pattern;

std::vector<u8> small_pack(Compression compression) {
  PackWriter writer(WriterOptions{.compression = compression});
  testing::add_texture(writer, "face", 4, 4, 1);
  testing::add_texture(writer, "rock", 2, 3, 2);
  auto bytes = writer.to_bytes();
  EXPECT_TRUE(bytes);
  std::vector<u8> out(bytes->size());
  std::memcpy(out.data(), bytes->data(), out.size());
  return out;
}

TEST(PackFile, ListsItemsBlocksAndChunks) {
  auto pack = PackFile::from_bytes(small_pack(Compression::kZstd), "small.kpk");
  ASSERT_TRUE(pack) << pack.error().to_string();
  EXPECT_TRUE(pack->has_dictionary());
  ASSERT_EQ(pack->items().size(), 2u);
  const PackItem* face = pack->find_item("FACE");
  ASSERT_NE(face, nullptr);
  EXPECT_EQ(face->name, "face");
  EXPECT_EQ(face->type_hash, type_hash("Texture"));
  ASSERT_EQ(pack->blocks().size(), 2u);
  EXPECT_EQ(pack->blocks()[0].type, kMetaBlock);
  EXPECT_EQ(pack->blocks()[1].type, kVideoBlock);
  EXPECT_EQ(pack->blocks()[1].length, 16u + 6u);  // 16 pixels, then 6 at offset 16
  EXPECT_EQ(pack->chunks(0).size(), 2u);
  EXPECT_TRUE(pack->chunks(5).empty());
  auto header = pack->read_chunk(face->name_hash, face->primary);
  ASSERT_TRUE(header);
  EXPECT_EQ(header->size(), sizeof(testing::TextureHeader));
  EXPECT_TRUE(pack->verify());
  EXPECT_FALSE(pack->read_block(9));
}

TEST(PackFile, EveryTruncationIsAnError) {
  for (Compression c : {Compression::kNone, Compression::kZstd}) {
    const std::vector<u8> bytes = small_pack(c);
    for (usize n = 0; n < bytes.size(); ++n) {
      auto pack = PackFile::from_bytes(std::vector<u8>(bytes.begin(), bytes.begin() + n));
      ASSERT_FALSE(pack) << "truncated to " << n;
      EXPECT_TRUE(pack.error().code() == ErrorCode::kUnderflow ||
                  pack.error().code() == ErrorCode::kCorrupt)
          << pack.error().to_string();
    }
    std::vector<u8> longer = bytes;
    longer.push_back(0);
    auto pack = PackFile::from_bytes(longer);
    ASSERT_FALSE(pack);
    EXPECT_EQ(pack.error().code(), ErrorCode::kTrailingData);
  }
}

TEST(PackFile, EveryBitFlipIsDetected) {
  // With checksums on, a single flipped bit anywhere fails either open() or verify(), and the
  // loader (names requested) refuses the file too.
  Loader loader;
  loader.register_type(type_hash("Texture"), testing::setup_texture);
  for (Compression c : {Compression::kNone, Compression::kZlib}) {
    const std::vector<u8> bytes = small_pack(c);
    for (usize i = 0; i < bytes.size(); ++i) {
      for (int bit = 0; bit < 8; ++bit) {
        std::vector<u8> damaged = bytes;
        damaged[i] ^= static_cast<u8>(1u << bit);
        auto pack = PackFile::from_bytes(damaged);
        const bool caught = !pack || !pack->verify();
        ASSERT_TRUE(caught) << to_string(c) << " byte " << i << " bit " << bit;
        auto loaded =
            loader.load_bytes(std::as_bytes(std::span(damaged)), LoadOptions{.load_names = true});
        ASSERT_FALSE(loaded) << to_string(c) << " byte " << i << " bit " << bit;
      }
    }
  }
}

TEST(PackFile, ErrorsCarryTheByteOffset) {
  std::vector<u8> bytes = small_pack(Compression::kNone);
  bytes[0] = 'X';
  auto bad_magic = PackFile::from_bytes(bytes, "x.kpk");
  ASSERT_FALSE(bad_magic);
  EXPECT_EQ(bad_magic.error().code(), ErrorCode::kCorrupt);
  EXPECT_EQ(bad_magic.error().to_string().rfind("x.kpk: byte 0:", 0), 0u)
      << bad_magic.error().to_string();

  bytes = small_pack(Compression::kNone);
  bytes[4] = 2;  // version 2
  auto newer = PackFile::from_bytes(bytes);
  ASSERT_FALSE(newer);
  EXPECT_EQ(newer.error().code(), ErrorCode::kUnsupported);

  // Unsorted master entries (checksums off, so the structural check is what fires).
  bytes = small_pack(Compression::kNone);
  u8* entries = bytes.data() + kFileHeaderSize + kMasterIndexHeaderSize;
  std::swap_ranges(entries, entries + 12, entries + 12);
  auto unsorted = PackFile::from_bytes(bytes, "u.kpk", ReadOptions{.verify_checksums = false});
  ASSERT_FALSE(unsorted);
  EXPECT_EQ(unsorted.error().where().offset, kFileHeaderSize + 20 + 12);
}

}  // namespace
}  // namespace keel::pack
