// Streamed chunks and blocks (add_file_chunk, add_streamed_chunk, merge_packs' streamed blocks):
// the same bytes as copied chunks, the raw fallback of an incompressible streamed block, sources
// that change or vanish, and memory that does not grow with a streamed chunk's size.
#include "keel/core/file.h"
#include "keel/core/testing/peak_memory.h"
#include "keel/pack/merge.h"
#include "keel/pack/pack_file.h"
#include "keel/pack/testing/samples.h"
#include "keel/pack/writer.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

namespace keel::pack {
namespace {

namespace fs = std::filesystem;
using keel::testing::kMiB;
using keel::testing::peak_growth;
using testing::bytes_of;
using testing::kMetaBlock;
using testing::kVideoBlock;
using testing::pattern;

fs::path test_dir(std::string_view name) {
  const fs::path dir = fs::path(KEEL_TEST_TMPDIR) / "pack_stream" / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

void write_bytes(const fs::path& path, ByteSpan bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
}

// Noise: no codec shrinks it.
ByteBuffer noise(usize size) {
  ByteBuffer out(size);
  u64 x = 88172645463325252ull;
  for (std::byte& b : out) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    b = static_cast<std::byte>(x);
  }
  return out;
}

// The same pack twice: once with every chunk copied, once with the two larger ones streamed from
// files (between copied chunks of the same block, so padding lies on both sides of them).
class StreamedChunks : public ::testing::TestWithParam<Compression> {};

TEST_P(StreamedChunks, WriteTheSameBytesAsCopiedChunks) {
  const fs::path dir = test_dir(fmt::format("same_{}", static_cast<int>(GetParam())));
  const ByteBuffer big = pattern(300'001, 7);  // over several pieces of the compressor's buffer
  const ByteBuffer odd = pattern(13, 9);
  write_bytes(dir / "big.bin", big);
  write_bytes(dir / "odd.bin", odd);
  const WriterOptions options{.compression = GetParam()};
  auto fill = [&](PackWriter& w, bool stream) {
    const LocatorId head = w.add_chunk("a", kMetaBlock, bytes_of("head"), 4);
    const LocatorId b = stream ? w.add_file_chunk("a", kMetaBlock, dir / "big.bin", 64)
                               : w.add_chunk("a", kMetaBlock, big, 64);
    w.add_chunk("a", kMetaBlock, bytes_of("tail"), 16);
    const LocatorId o = stream ? w.add_file_chunk("b", kVideoBlock, dir / "odd.bin", 8)
                               : w.add_chunk("b", kVideoBlock, odd, 8);
    w.add_chunk("b", kVideoBlock, bytes_of("x"), 256);
    w.add_item("a", type_hash("Blob"), head);
    w.add_item("b", type_hash("Blob"), o);
    return std::pair{b, o};
  };
  PackWriter copied(options);
  PackWriter streamed(options);
  const auto ids = fill(copied, false);
  EXPECT_EQ(fill(streamed, true), ids);
  EXPECT_FALSE(copied.has_streamed_data());
  EXPECT_TRUE(streamed.has_streamed_data());
  auto expected = copied.to_bytes();
  auto in_memory = streamed.to_bytes();
  ASSERT_TRUE(expected) << expected.error().to_string();
  ASSERT_TRUE(in_memory) << in_memory.error().to_string();
  EXPECT_EQ(*in_memory, *expected);
  ASSERT_TRUE(streamed.write(dir / "out.kpk"));
  auto file = read_file(dir / "out.kpk");
  ASSERT_TRUE(file);
  EXPECT_EQ(as_bytes(*file).size(), expected->size());
  EXPECT_TRUE(std::ranges::equal(as_bytes(*file), *expected));
  auto pack = PackFile::open(dir / "out.kpk");
  ASSERT_TRUE(pack) << pack.error().to_string();
  EXPECT_TRUE(pack->verify());
  EXPECT_EQ(pack->read_chunk(name_hash("a"), ids.first).value(), big);
  EXPECT_EQ(pack->read_chunk(name_hash("b"), ids.second).value(), odd);
}

INSTANTIATE_TEST_SUITE_P(Pack, StreamedChunks,
                         ::testing::Values(Compression::kNone, Compression::kZstd,
                                           Compression::kZlib),
                         [](const ::testing::TestParamInfo<Compression>& p) {
                           return std::string(p.param == Compression::kNone   ? "none"
                                              : p.param == Compression::kZstd ? "zstd"
                                                                              : "zlib");
                         });

TEST(PackStream, IncompressibleStreamedBlockIsCutOffAndWrittenRaw) {
  // The compressed stream of noise reaches the file before the writer sees that it does not
  // shrink (the sink gives up only once the output is as long as the block): the block is cut
  // off and written again raw, and the file is exactly what the in-memory writer makes.
  const fs::path dir = test_dir("incompressible");
  const ByteBuffer data = noise(1'000'000);
  write_bytes(dir / "noise.bin", data);
  PackWriter streamed(WriterOptions{.compression = Compression::kZstd});
  const LocatorId id = streamed.add_file_chunk("n", kMetaBlock, dir / "noise.bin");
  streamed.add_chunk("z", kVideoBlock, ByteBuffer(100'000, std::byte{0}));
  streamed.add_item("n", type_hash("Blob"), id);
  ASSERT_TRUE(streamed.write(dir / "out.kpk"));
  PackWriter copied(WriterOptions{.compression = Compression::kZstd});
  copied.add_chunk("n", kMetaBlock, data);
  copied.add_chunk("z", kVideoBlock, ByteBuffer(100'000, std::byte{0}));
  copied.add_item("n", type_hash("Blob"), id);
  auto expected = copied.to_bytes();
  ASSERT_TRUE(expected);
  auto file = read_file(dir / "out.kpk");
  ASSERT_TRUE(file);
  EXPECT_TRUE(std::ranges::equal(as_bytes(*file), *expected));
  auto pack = PackFile::open(dir / "out.kpk");
  ASSERT_TRUE(pack) << pack.error().to_string();
  EXPECT_EQ(pack->find_block(kMetaBlock)->compression, Compression::kNone);
  EXPECT_EQ(pack->find_block(kVideoBlock)->compression, Compression::kZstd);
  EXPECT_TRUE(pack->verify());
}

TEST(PackStream, ASourceThatChangesOrVanishesFailsTheWriteAndLeavesNoFile) {
  const fs::path dir = test_dir("changes");
  const ByteBuffer data = pattern(5000, 3);
  for (const char* change : {"grows", "shrinks", "vanishes"}) {
    SCOPED_TRACE(change);
    write_bytes(dir / "src.bin", data);
    PackWriter writer(WriterOptions{.compression = Compression::kNone});
    writer.add_item("a", type_hash("Blob"), writer.add_file_chunk("a", 0, dir / "src.bin"));
    if (std::string_view(change) == "grows") write_bytes(dir / "src.bin", pattern(5001, 3));
    if (std::string_view(change) == "shrinks") write_bytes(dir / "src.bin", pattern(4000, 3));
    if (std::string_view(change) == "vanishes") fs::remove(dir / "src.bin");
    const Status s = writer.write(dir / "out.kpk");
    ASSERT_FALSE(s);
    EXPECT_EQ(s.error().code(),
              std::string_view(change) == "vanishes" ? ErrorCode::kIo : ErrorCode::kCorrupt)
        << s.error().to_string();
    EXPECT_FALSE(fs::exists(dir / "out.kpk"));
    for (const auto& entry : fs::directory_iterator(dir)) {
      EXPECT_EQ(entry.path().filename(), "src.bin") << "temporary left behind";
    }
  }
  // A file that is missing when it is added: a sticky error naming it.
  PackWriter writer;
  EXPECT_TRUE(writer.add_file_chunk("a", 0, dir / "absent.bin").is_null());
  writer.add_chunk("b", 0, bytes_of("b"));
  auto bytes = writer.to_bytes();
  ASSERT_FALSE(bytes);
  EXPECT_EQ(bytes.error().code(), ErrorCode::kIo);
  EXPECT_NE(bytes.error().message().find("absent.bin"), std::string::npos);
}

TEST(PackStream, StreamBlockMatchesReadBlockAndChecksTheChecksum) {
  PackWriter writer(WriterOptions{.compression = Compression::kZstd});
  const ByteBuffer data = pattern(200'000, 5);
  writer.add_item("a", type_hash("Blob"), writer.add_chunk("a", kMetaBlock, data));
  writer.add_chunk("b", kVideoBlock, noise(3000));  // stored raw
  auto bytes = writer.to_bytes();
  ASSERT_TRUE(bytes);
  auto pack = PackFile::from_bytes(*bytes);
  ASSERT_TRUE(pack);
  for (usize b = 0; b < pack->blocks().size(); ++b) {
    ByteBuffer streamed;
    usize calls = 0;
    ASSERT_TRUE(pack->stream_block(
        b,
        [&](ByteSpan piece) {
          ++calls;
          EXPECT_LE(piece.size(), 4096u);
          streamed.insert(streamed.end(), piece.begin(), piece.end());
          return ok();
        },
        4096));
    EXPECT_EQ(streamed, pack->read_block(b).value());
    EXPECT_GE(calls, streamed.size() / 4096);
  }
  // One flipped stored byte in each block: the stream fails (after its pieces) and so does a merge.
  for (usize b = 0; b < pack->blocks().size(); ++b) {
    ByteBuffer damaged = *bytes;
    damaged[static_cast<usize>(pack->blocks()[b].file_offset) + 5] ^= std::byte{0x01};
    auto checked = PackFile::from_bytes(std::move(damaged), "bad.kpk");
    ASSERT_TRUE(checked);
    const Status s = checked->stream_block(b, [](ByteSpan) { return ok(); });
    ASSERT_FALSE(s);
    const PackFile* checked_inputs[] = {&*checked};
    EXPECT_FALSE(merge_to_bytes(checked_inputs));
  }
}

// Writing a pack with one large streamed chunk, and merging that pack into a compressed one (the
// repack), hold one piece buffer and the compressor, not the chunk: forked children's peak RSS.
TEST(PackStream, WritingAndMergingAStreamedChunkDoNotHoldIt) {
  const fs::path dir = test_dir("memory");
  constexpr u64 kSize = 96 * kMiB;
  {
    const ByteBuffer piece = pattern(1 << 20, 11);
    std::ofstream out(dir / "big.bin", std::ios::binary);
    for (u64 i = 0; i < kSize / piece.size(); ++i) {
      out.write(reinterpret_cast<const char*>(piece.data()),
                static_cast<std::streamsize>(piece.size()));
    }
  }
  auto write = [&] {
    PackWriter writer(WriterOptions{.compression = Compression::kNone});
    writer.add_item("big", type_hash("Blob"), writer.add_file_chunk("big", 0, dir / "big.bin"));
    return writer.write(dir / "raw.kpk").has_value();
  };
  auto merge = [&] {
    const fs::path inputs[] = {dir / "raw.kpk"};
    return merge_packs(inputs, dir / "merged.kpk").has_value();
  };
  const std::optional<u64> wrote = peak_growth(write);
  if (!wrote) GTEST_SKIP() << "cannot reset the peak RSS here (/proc/self/clear_refs)";
  const std::optional<u64> merged = peak_growth(merge);
  ASSERT_TRUE(merged);
  std::printf("96 MiB streamed chunk: write +%llu MiB, merge +%llu MiB peak RSS\n",
              static_cast<unsigned long long>(*wrote / kMiB),
              static_cast<unsigned long long>(*merged / kMiB));
  EXPECT_LE(*wrote, 16 * kMiB) << "write of a 96 MiB streamed chunk grew by " << *wrote / kMiB;
  EXPECT_LE(*merged, 32 * kMiB) << "merge of a 96 MiB block grew by " << *merged / kMiB;
  auto pack = PackFile::open(dir / "merged.kpk");
  ASSERT_TRUE(pack) << pack.error().to_string();
  EXPECT_EQ(pack->blocks()[0].length, kSize);
  EXPECT_EQ(pack->blocks()[0].compression, Compression::kZstd);
  EXPECT_TRUE(pack->verify());
  fs::remove_all(dir);
}

}  // namespace
}  // namespace keel::pack
