// PackFile, the tools' reader: listing, extraction, verification, and hostile input.
#include "keel/pack/pack_file.h"
#include "keel/pack/detail/index.h"

#include "keel/pack/loader.h"
#include "keel/pack/testing/samples.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

namespace keel::pack {
namespace {

using testing::kMetaBlock;
using testing::kVideoBlock;
using testing::pattern;

ByteBuffer small_pack(Compression compression) {
  PackWriter writer(WriterOptions{.compression = compression});
  testing::add_texture(writer, "face", 4, 4, 1);
  testing::add_texture(writer, "rock", 2, 3, 2);
  auto bytes = writer.to_bytes();
  EXPECT_TRUE(bytes);
  return std::move(*bytes);
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
    const ByteBuffer bytes = small_pack(c);
    for (usize n = 0; n < bytes.size(); ++n) {
      auto pack = PackFile::from_bytes(ByteBuffer(bytes.begin(), bytes.begin() + n));
      ASSERT_FALSE(pack) << "truncated to " << n;
      EXPECT_TRUE(pack.error().code() == ErrorCode::kUnderflow ||
                  pack.error().code() == ErrorCode::kCorrupt)
          << pack.error().to_string();
    }
    ByteBuffer longer = bytes;
    longer.push_back(std::byte{0});
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
    const ByteBuffer bytes = small_pack(c);
    for (usize i = 0; i < bytes.size(); ++i) {
      for (int bit = 0; bit < 8; ++bit) {
        ByteBuffer damaged = bytes;
        damaged[i] ^= std::byte{static_cast<u8>(1u << bit)};
        auto pack = PackFile::from_bytes(damaged);
        const bool caught = !pack || !pack->verify();
        ASSERT_TRUE(caught) << to_string(c) << " byte " << i << " bit " << bit;
        auto loaded = loader.load_bytes(damaged, LoadOptions{.load_names = true});
        ASSERT_FALSE(loaded) << to_string(c) << " byte " << i << " bit " << bit;
      }
    }
  }
}

TEST(PackFile, ErrorsCarryTheByteOffset) {
  ByteBuffer bytes = small_pack(Compression::kNone);
  bytes[0] = std::byte{'X'};
  auto bad_magic = PackFile::from_bytes(bytes, "x.kpk");
  ASSERT_FALSE(bad_magic);
  EXPECT_EQ(bad_magic.error().code(), ErrorCode::kCorrupt);
  EXPECT_EQ(bad_magic.error().to_string().rfind("x.kpk: byte 0:", 0), 0u)
      << bad_magic.error().to_string();

  bytes = small_pack(Compression::kNone);
  bytes[4] = std::byte{2};  // version 2
  auto newer = PackFile::from_bytes(bytes);
  ASSERT_FALSE(newer);
  EXPECT_EQ(newer.error().code(), ErrorCode::kUnsupported);

  // Unsorted master entries (checksums off, so the structural check is what fires).
  bytes = small_pack(Compression::kNone);
  std::byte* entries = bytes.data() + kFileHeaderSize + kMasterIndexHeaderSize;
  std::swap_ranges(entries, entries + 12, entries + 12);
  auto unsorted = PackFile::from_bytes(bytes, "u.kpk", ReadOptions{.verify_checksums = false});
  ASSERT_FALSE(unsorted);
  EXPECT_EQ(unsorted.error().where().offset, kFileHeaderSize + 20 + 12);

  // Issue 15: "byte 44: error: 33554433 blocks" said nothing a user could act on.
  bytes = small_pack(Compression::kNone);
  const u8 huge[] = {0x01, 0x00, 0x00, 0x02};  // 33554433, little-endian
  std::memcpy(bytes.data() + kFileHeaderSize + 12, huge, sizeof huge);
  auto too_many = PackFile::from_bytes(bytes, "b.kpk", ReadOptions{.verify_checksums = false});
  ASSERT_FALSE(too_many);
  EXPECT_EQ(too_many.error().to_string(),
            "b.kpk: byte 44: error: the master index declares 33554433 blocks, more than a pack "
            "can hold (65536): the file is damaged or not a Keel pack; rebuild it");
}

TEST(PackFile, ExtractChunkStreamsInPieces) {
  // A chunk in the middle of a large compressed block comes out piece by piece, equal to
  // read_chunk's copy, with no piece larger than asked for.
  for (Compression c : {Compression::kNone, Compression::kZstd, Compression::kZlib}) {
    PackWriter writer(WriterOptions{.compression = c});
    const LocatorId before = writer.add_chunk("a", kVideoBlock, pattern(300000, 1));
    const LocatorId middle = writer.add_chunk("a", kVideoBlock, pattern(200001, 2));
    writer.add_chunk("a", kVideoBlock, pattern(5000, 3));
    writer.add_item("a", type_hash("Blob"), before);
    auto pack = PackFile::from_bytes(writer.to_bytes().value());
    ASSERT_TRUE(pack);
    ByteBuffer streamed;
    usize pieces = 0;
    auto s = pack->extract_chunk(
        name_hash("a"), middle,
        [&](ByteSpan piece) {
          EXPECT_LE(piece.size(), 4096u);
          ++pieces;
          streamed.insert(streamed.end(), piece.begin(), piece.end());
          return ok();
        },
        4096);
    ASSERT_TRUE(s) << s.error().to_string();
    EXPECT_EQ(streamed, pack->read_chunk(name_hash("a"), middle).value()) << to_string(c);
    EXPECT_GE(pieces, 200001u / 4096);
  }
}

TEST(PackFile, ExtractChunkStopsOnASinkError) {
  auto pack = PackFile::from_bytes(small_pack(Compression::kZstd));
  ASSERT_TRUE(pack);
  const PackItem& face = pack->items()[0];
  auto s = pack->extract_chunk(face.name_hash, face.primary, [](ByteSpan) -> Status {
    return fail(ErrorCode::kIo, "disk full");
  });
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code(), ErrorCode::kIo);
}

TEST(PackFile, IncompressibleBlocksAreStoredRaw) {
  // The writer's StreamCompressor gives up once the output is no smaller than the block.
  PackWriter writer(WriterOptions{.compression = Compression::kZstd});
  ByteBuffer noise(100000);
  u64 x = 88172645463325252ull;
  for (std::byte& b : noise) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    b = static_cast<std::byte>(x);
  }
  const LocatorId id = writer.add_chunk("noise", kMetaBlock, noise);
  writer.add_chunk("zeros", kVideoBlock, ByteBuffer(100000));
  writer.add_item("noise", type_hash("Blob"), id);
  auto pack = PackFile::from_bytes(writer.to_bytes().value());
  ASSERT_TRUE(pack);
  EXPECT_EQ(pack->find_block(kMetaBlock)->compression, Compression::kNone);
  EXPECT_EQ(pack->find_block(kVideoBlock)->compression, Compression::kZstd);
  EXPECT_EQ(pack->read_chunk(name_hash("noise"), id).value(), noise);
}

}  // namespace
}  // namespace keel::pack
