// Loader: phases, allocators, setup by type hash, dictionary, rollback (check 47; 46's load side).
#include "keel/pack/loader.h"
#include "keel/pack/detail/index.h"

#include "keel/core/file.h"
#include "keel/pack/pack_file.h"
#include "keel/pack/testing/counting_allocator.h"
#include "keel/pack/testing/samples.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace keel::pack {
namespace {

using testing::CountingAllocator;
using testing::kMetaBlock;
using testing::kVertexBlock;
using testing::kVideoBlock;
using testing::pattern;
using testing::TextureHeader;

struct Sound {  // a runtime object a setup function creates (not the primary chunk)
  Hash name = 0;
  usize samples = 0;
};

ByteBuffer sample_pack(WriterOptions options = {}) {
  PackWriter writer(options);
  testing::add_texture(writer, "face", 4, 4, 1);
  testing::add_texture(writer, "rock", 8, 2, 2);
  const LocatorId wave = writer.add_chunk("boom", kVertexBlock, pattern(100, 3), 4096);
  writer.add_item("boom", type_hash("Sound"), wave);
  auto bytes = writer.to_bytes();
  EXPECT_TRUE(bytes) << bytes.error().to_string();
  return std::move(*bytes);
}

std::filesystem::path write_temp(const ByteBuffer& bytes, const char* name) {
  const auto dir = std::filesystem::path(KEEL_TEST_TMPDIR) / "pack_loader";
  std::filesystem::create_directories(dir);
  const auto path = dir / name;
  EXPECT_TRUE(write_file_atomic(path, as_chars(bytes)));
  return path;
}

Loader texture_loader() {
  Loader loader;
  loader.register_type(type_hash("Texture"), testing::setup_texture);
  loader.register_type(
      type_hash("Sound"),
      [](SetupContext& ctx) -> Result<void*> {
        return new Sound{ctx.name_hash(), ctx.primary().size()};
      },
      [](void* p) { delete static_cast<Sound*>(p); });
  return loader;
}

TEST(PackLoader, Check47_LoaderPhases) {
  const ByteBuffer bytes = sample_pack();
  const auto path = write_temp(bytes, "phases.kpk");
  auto file = PackFile::open(path);
  ASSERT_TRUE(file);
  const MasterIndexHeader master = file->index().master();

  CountingAllocator long_lived;
  CountingAllocator short_lived;
  CountingAllocator video;
  Loader loader = texture_loader();
  loader.set_long_lived_allocator(&long_lived);
  loader.set_short_lived_allocator(&short_lived);
  loader.set_block_allocator(kVideoBlock, &video);

  // Setup functions are chosen by type hash and run while the block indices are still loaded.
  std::vector<Hash> setup_order;
  long short_lived_during_setup = -1;
  loader.register_type(type_hash("Texture"), [&](SetupContext& ctx) -> Result<void*> {
    setup_order.push_back(ctx.name_hash());
    short_lived_during_setup = short_lived.live();
    EXPECT_EQ(ctx.type_hash(), type_hash("Texture"));
    return testing::setup_texture(ctx);
  });
  {
    auto pack = loader.load(path);
    ASSERT_TRUE(pack) << pack.error().to_string();

    // Long-lived: exactly the resident master index, 16 bytes per asset, kept.
    ASSERT_EQ(long_lived.sizes().size(), 1u);
    EXPECT_EQ(long_lived.sizes()[0], master.num_items * sizeof(LoadedPack::Asset));
    EXPECT_EQ(long_lived.live(), 1);
    // Short-lived: the master index bytes and all block indices in one piece, freed after setup.
    const auto sizes = short_lived.sizes();
    EXPECT_NE(std::find(sizes.begin(), sizes.end(), master.total_block_index_length), sizes.end());
    EXPECT_NE(std::find(sizes.begin(), sizes.end(), master.index_length), sizes.end());
    EXPECT_GE(short_lived_during_setup, 2);
    EXPECT_EQ(short_lived.live(), 0);
    // Block data from the block type's allocator.
    EXPECT_EQ(video.live(), 1);
    EXPECT_EQ(video.sizes()[0], file->find_block(kVideoBlock)->length);

    // The setup's returned pointer replaces the primary chunk.
    std::vector<Hash> textures = {name_hash("face"), name_hash("rock")};
    std::sort(textures.begin(), textures.end());
    EXPECT_EQ(setup_order, textures);  // master order = name-hash order
    auto* face = pack->find_as<TextureHeader>("face");
    ASSERT_NE(face, nullptr);
    EXPECT_EQ(face->width, 4u);
    const auto pixels = pattern(16, 1);
    EXPECT_TRUE(std::equal(pixels.begin(), pixels.end(), face->pixels.get()));
    auto* boom = pack->find_as<Sound>("boom");
    ASSERT_NE(boom, nullptr);
    EXPECT_EQ(boom->name, name_hash("boom"));
    EXPECT_EQ(boom->samples, 100u);
    EXPECT_EQ(pack->find("nothing"), nullptr);
    const LoadedPack::Asset* entry = pack->find_entry(name_hash("boom"));
    ASSERT_NE(entry, nullptr);
    EXPECT_EQ(entry->type_hash, type_hash("Sound"));
    EXPECT_EQ(entry->asset, boom);
  }
  EXPECT_EQ(long_lived.live(), 0);
  EXPECT_EQ(video.live(), 0);
}

TEST(PackLoader, Check47_DictionaryIsReadOnlyWhenAsked) {
  ByteBuffer bytes = sample_pack();
  Loader loader = texture_loader();
  {
    auto pack = loader.load_bytes(bytes, LoadOptions{.load_names = true});
    ASSERT_TRUE(pack) << pack.error().to_string();
    ASSERT_EQ(pack->names().size(), 3u);
    std::vector<std::string> names = pack->names();
    std::sort(names.begin(), names.end());
    EXPECT_EQ(names, (std::vector<std::string>{"boom", "face", "rock"}));
  }
  // Damage the dictionary (it sits just before the block table): skipped unless names are asked
  // for, so only the loads that read it notice.
  auto file = PackFile::from_bytes(bytes);
  ASSERT_TRUE(file);
  bytes[file->index().dictionary_offset()] ^= std::byte{0x20};
  auto skipped = loader.load_bytes(bytes);
  ASSERT_TRUE(skipped) << skipped.error().to_string();
  EXPECT_TRUE(skipped->names().empty());
  auto read = loader.load_bytes(bytes, LoadOptions{.load_names = true});
  ASSERT_FALSE(read);
  EXPECT_EQ(read.error().code(), ErrorCode::kCorrupt);

  // dictionary_length == 0: no dictionary, nothing to read.
  auto none = loader.load_bytes(sample_pack(WriterOptions{.write_dictionary = false}),
                                LoadOptions{.load_names = true});
  ASSERT_TRUE(none);
  EXPECT_TRUE(none->names().empty());
}

TEST(PackLoader, Check46_LoadedBlocksHonourTheirAlignment) {
  CountingAllocator blocks;
  Loader loader = texture_loader();
  for (u16 type : {kMetaBlock, kVideoBlock, kVertexBlock})
    loader.set_block_allocator(type, &blocks);
  auto pack = loader.load_bytes(sample_pack());
  ASSERT_TRUE(pack);
  ASSERT_EQ(pack->blocks().size(), 3u);
  for (const LoadedBlock& block : pack->blocks()) {
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(block.data) % block.alignment, 0u);
  }
  EXPECT_EQ(pack->blocks()[2].alignment, 4096u);
  EXPECT_EQ(blocks.misaligned(), 0);
}

TEST(PackLoader, CompressedAndRawPacksLoadAlike) {
  for (Compression c : {Compression::kNone, Compression::kZstd, Compression::kZlib}) {
    Loader loader = texture_loader();
    auto pack = loader.load_bytes(sample_pack(WriterOptions{.compression = c}));
    ASSERT_TRUE(pack) << to_string(c) << ": " << pack.error().to_string();
    auto* rock = pack->find_as<TextureHeader>("rock");
    ASSERT_NE(rock, nullptr);
    const auto pixels = pattern(16, 2);
    EXPECT_TRUE(std::equal(pixels.begin(), pixels.end(), rock->pixels.get()));
  }
}

TEST(PackLoader, UnknownTypeFailsAndUndoesEverything) {
  CountingAllocator memory;
  int teardowns = 0;
  Loader loader;
  loader.set_long_lived_allocator(&memory);
  loader.set_short_lived_allocator(&memory);
  for (u16 type : {kMetaBlock, kVideoBlock, kVertexBlock})
    loader.set_block_allocator(type, &memory);
  loader.register_type(type_hash("Texture"), testing::setup_texture, [&](void*) { ++teardowns; });
  auto pack = loader.load_bytes(sample_pack(), LoadOptions{.load_names = true});  // no "Sound"
  ASSERT_FALSE(pack);
  EXPECT_EQ(pack.error().code(), ErrorCode::kNotFound);
  EXPECT_NE(pack.error().message().find("'boom'"), std::string::npos) << pack.error().message();
  EXPECT_EQ(memory.live(), 0);
  // The textures that were set up before the failure (if any came first) were torn down.
  std::vector<Hash> order = {name_hash("boom"), name_hash("face"), name_hash("rock")};
  std::sort(order.begin(), order.end());
  const int before =
      static_cast<int>(std::find(order.begin(), order.end(), name_hash("boom")) - order.begin());
  EXPECT_EQ(teardowns, before);
}

// A program that uses only some types of a data file leaves the others as raw primary chunks.
TEST(PackLoader, RawUnregisteredLeavesUnknownTypesAsTheirPrimaryChunk) {
  Loader loader;
  loader.register_type(type_hash("Texture"), testing::setup_texture);
  auto pack = loader.load_bytes(sample_pack(), LoadOptions{.raw_unregistered = true});
  ASSERT_TRUE(pack) << pack.error().message();
  const auto* boom = static_cast<const std::byte*>(pack->find("boom"));  // a "Sound": raw
  ASSERT_NE(boom, nullptr);
  const auto wave = pattern(100, 3);
  EXPECT_TRUE(std::equal(wave.begin(), wave.end(), boom));
  EXPECT_NE(pack->find_as<TextureHeader>("face"), nullptr);  // registered types are set up
}

TEST(PackLoader, SetupFailureRollsBackInReverse) {
  std::vector<Hash> torn_down;
  Loader loader;
  loader.register_type(type_hash("Texture"), testing::setup_texture, [&](void* p) {
    torn_down.push_back(static_cast<TextureHeader*>(p)->width);
  });
  loader.register_type(type_hash("Sound"), [](SetupContext&) -> Result<void*> {
    return fail(ErrorCode::kRefused, "no sound device");
  });
  PackWriter writer;
  testing::add_texture(writer, "a1", 1, 1, 1);
  testing::add_texture(writer, "a2", 2, 1, 1);
  const LocatorId wave = writer.add_chunk("zz_sound", kVertexBlock, pattern(4, 1));
  writer.add_item("zz_sound", type_hash("Sound"), wave);
  auto bytes = writer.to_bytes();
  ASSERT_TRUE(bytes);
  // Which textures precede the sound in hash order decides what must be torn down.
  std::vector<std::pair<Hash, u32>> before;
  for (auto [n, w] : {std::pair{"a1", 1u}, std::pair{"a2", 2u}}) {
    if (name_hash(n) < name_hash("zz_sound")) before.emplace_back(name_hash(n), w);
  }
  std::sort(before.begin(), before.end());
  std::vector<Hash> expected;
  for (auto it = before.rbegin(); it != before.rend(); ++it) expected.push_back(it->second);
  auto pack = loader.load_bytes(*bytes);
  ASSERT_FALSE(pack);
  EXPECT_EQ(pack.error().code(), ErrorCode::kRefused);
  EXPECT_EQ(torn_down, expected);
}

TEST(PackLoader, TeardownRunsInReverseWhenThePackDies) {
  std::vector<u32> torn_down;
  Loader loader;
  loader.register_type(type_hash("Texture"), testing::setup_texture, [&](void* p) {
    torn_down.push_back(static_cast<TextureHeader*>(p)->width);
  });
  PackWriter writer;
  for (u32 i = 1; i <= 4; ++i) testing::add_texture(writer, "t" + std::to_string(i), i, 1, i);
  auto bytes = writer.to_bytes();
  ASSERT_TRUE(bytes);
  std::vector<u32> order;
  {
    auto pack = loader.load_bytes(*bytes);
    ASSERT_TRUE(pack);
    for (const auto& asset : pack->assets()) {
      order.push_back(static_cast<TextureHeader*>(asset.asset)->width);
    }
    LoadedPack moved = std::move(*pack);
    EXPECT_EQ(pack->size(), 0u);
    EXPECT_EQ(moved.size(), 4u);
  }
  std::reverse(order.begin(), order.end());
  EXPECT_EQ(torn_down, order);
}

TEST(PackLoader, ReleaseAfterSetupFreesTheBlock) {
  CountingAllocator vertices;
  Loader loader;
  loader.set_block_allocator(kVertexBlock, &vertices, /*release_after_setup=*/true);
  usize copied = 0;
  loader.register_type(type_hash("Sound"), [&](SetupContext& ctx) -> Result<void*> {
    copied = ctx.primary().size();  // e.g. uploaded to a sound card; the block is not needed
    return &copied;
  });
  PackWriter writer;
  const LocatorId wave = writer.add_chunk("boom", kVertexBlock, pattern(64, 1));
  writer.add_item("boom", type_hash("Sound"), wave);
  auto bytes = writer.to_bytes();
  ASSERT_TRUE(bytes);
  auto pack = loader.load_bytes(*bytes);
  ASSERT_TRUE(pack);
  EXPECT_EQ(copied, 64u);
  EXPECT_EQ(vertices.freed(), 1);
  EXPECT_EQ(vertices.live(), 0);
  EXPECT_TRUE(pack->blocks().empty());
  EXPECT_EQ(pack->find("boom"), &copied);
}

TEST(PackLoader, MemoryTheCpuCannotAddressIsUploaded) {
  CountingAllocator device;
  device.set_addressable(false);
  CountingAllocator short_lived;
  Loader loader;
  loader.set_short_lived_allocator(&short_lived);
  loader.set_block_allocator(kVideoBlock, &device);
  loader.register_type(type_hash("Texture"), testing::setup_texture);
  PackWriter writer;
  testing::add_texture(writer, "face", 4, 4, 5);
  auto bytes = writer.to_bytes();
  ASSERT_TRUE(bytes);
  auto pack = loader.load_bytes(*bytes);
  ASSERT_TRUE(pack) << pack.error().to_string();
  EXPECT_EQ(device.uploads(), 1);
  EXPECT_EQ(device.uploaded(), pattern(16, 5));
  EXPECT_EQ(short_lived.live(), 0);  // the staging copy is gone
}

TEST(PackLoader, DamagedBlocksAreDetected) {
  ByteBuffer bytes = sample_pack(WriterOptions{.compression = Compression::kZstd});
  auto file = PackFile::from_bytes(bytes);
  ASSERT_TRUE(file);
  const PackBlock& block = file->blocks()[1];
  bytes[block.file_offset + block.stored_length / 2] ^= std::byte{1};
  Loader loader = texture_loader();
  auto pack = loader.load_bytes(bytes);
  ASSERT_FALSE(pack);
  EXPECT_EQ(pack.error().code(), ErrorCode::kCorrupt);
  EXPECT_TRUE(pack.error().where().binary);
  EXPECT_EQ(pack.error().where().offset, block.file_offset);
  // Without checksums the decompressor or the setup may still notice; it must never crash.
  auto unchecked =
      loader.load_bytes(bytes, LoadOptions{.read = ReadOptions{.verify_checksums = false}});
  (void)unchecked;
}

TEST(PackLoader, FilesAndErrors) {
  const auto path = write_temp(sample_pack(), "file.kpk");
  Loader loader = texture_loader();
  auto pack = loader.load(path, LoadOptions{.load_names = true});
  ASSERT_TRUE(pack) << pack.error().to_string();
  EXPECT_EQ(pack->size(), 3u);
  EXPECT_GT(pack->resident_bytes(), 0u);

  auto missing = loader.load(path.parent_path() / "missing.kpk");
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().code(), ErrorCode::kIo);

  std::atomic<bool> cancel{true};
  auto cancelled = loader.load(path, LoadOptions{.cancel = &cancel});
  ASSERT_FALSE(cancelled);
  EXPECT_EQ(cancelled.error().code(), ErrorCode::kRefused);
}

TEST(PackLoader, HostileSizesAreRefusedBeforeAllocating) {
  // One raw chunk; then the block claims to be far larger than the stored bytes could give.
  PackWriter writer(WriterOptions{.compression = Compression::kZstd});
  const LocatorId id = writer.add_chunk("a", kMetaBlock, ByteBuffer(4096, std::byte{7}));
  writer.add_item("a", type_hash("Blob"), id);
  auto bytes = writer.to_bytes();
  ASSERT_TRUE(bytes);
  u8* raw = as_u8(MutableByteSpan(*bytes)).data();
  const usize block_length_at = kFileHeaderSize + 32 + 8;  // first BlockIndex.blockLength
  ASSERT_EQ(load_u32(raw + block_length_at), 4096u);
  store_u32(raw + block_length_at, 0xFFFFFFF0u);

  CountingAllocator memory;
  Loader loader;
  loader.set_block_allocator(kMetaBlock, &memory);
  loader.set_short_lived_allocator(&memory);
  loader.set_long_lived_allocator(&memory);
  const LoadOptions unchecked{.read = ReadOptions{.verify_checksums = false}};
  auto pack = loader.load_bytes(*bytes, unchecked);
  ASSERT_FALSE(pack);
  EXPECT_EQ(pack.error().code(), ErrorCode::kCorrupt);
  EXPECT_LT(memory.largest(), 1u << 20);

  // A plausible size, but over the caller's limit.
  store_u32(raw + block_length_at, 4096);
  LoadOptions limited = unchecked;
  limited.read.max_block_length = 1024;
  auto over = loader.load_bytes(*bytes, limited);
  ASSERT_FALSE(over);
  EXPECT_EQ(over.error().code(), ErrorCode::kOutOfRange);
}

}  // namespace
}  // namespace keel::pack
