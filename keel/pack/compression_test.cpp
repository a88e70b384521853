// Compression: streaming through small buffers (check 49), whole-buffer and block decoding.
#include "keel/pack/compression.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

namespace keel::pack {
namespace {

ByteBuffer random_bytes(usize size, u32 seed) {
  std::mt19937_64 rng(seed);
  ByteBuffer out(size);
  for (auto& b : out) b = static_cast<std::byte>(rng());
  return out;
}

struct StreamResult {
  ByteBuffer compressed;
  u64 sink_calls = 0;
  u64 finish_sink_calls = 0;
};

// Compresses through an output buffer of `buffer` bytes, feeding the input in `piece`-byte writes.
StreamResult stream_compress(Compression method, const ByteBuffer& input, usize buffer,
                             usize piece) {
  StreamResult result;
  auto compressor = StreamCompressor::create(method, 0, buffer, [&](ByteSpan out) -> Status {
    EXPECT_LE(out.size(), buffer);
    EXPECT_FALSE(out.empty());
    result.compressed.insert(result.compressed.end(), out.begin(), out.end());
    return ok();
  });
  EXPECT_TRUE(compressor);
  for (usize at = 0; at < input.size(); at += piece) {
    const usize n = std::min(piece, input.size() - at);
    EXPECT_TRUE(compressor->write(std::span(input).subspan(at, n)));
  }
  EXPECT_TRUE(compressor->finish());
  result.sink_calls = compressor->sink_calls();
  result.finish_sink_calls = compressor->finish_sink_calls();
  EXPECT_EQ(compressor->bytes_out(), result.compressed.size());
  return result;
}

// Decompresses pulling input through a `buffer`-byte input buffer into `out_piece`-byte reads.
Result<ByteBuffer> stream_decompress(Compression method, const ByteBuffer& compressed, usize buffer,
                                     usize out_piece, u64* source_calls = nullptr) {
  usize pos = 0;
  auto decompressor =
      StreamDecompressor::create(method, buffer, [&](MutableByteSpan in) -> Result<usize> {
        const usize n = std::min(in.size(), compressed.size() - pos);
        std::copy_n(compressed.begin() + static_cast<std::ptrdiff_t>(pos), n, in.begin());
        pos += n;
        return n;
      });
  if (!decompressor) return std::unexpected(decompressor.error());
  ByteBuffer out;
  ByteBuffer piece(out_piece);
  for (;;) {
    auto n = decompressor->read(piece);
    if (!n) return std::unexpected(n.error());
    if (*n == 0) break;
    out.insert(out.end(), piece.begin(), piece.begin() + static_cast<std::ptrdiff_t>(*n));
  }
  if (source_calls != nullptr) *source_calls = decompressor->source_calls();
  return out;
}

class CompressionMethods : public ::testing::TestWithParam<Compression> {};

TEST_P(CompressionMethods, Check49_RoundTripThroughSmallBuffers) {
  const Compression method = GetParam();
  constexpr usize kBuffer = 16;
  constexpr usize kMiB = 1024 * 1024;
  struct Case {
    std::string name;
    ByteBuffer data;
  };
  const std::vector<Case> cases = {
      {"0", {}},
      {"1", random_bytes(1, 1)},
      {"buffer-1", random_bytes(kBuffer - 1, 2)},
      {"buffer", random_bytes(kBuffer, 3)},
      {"buffer+1", random_bytes(kBuffer + 1, 4)},
      {"3 MiB random", random_bytes(3 * kMiB, 5)},
      {"3 MiB zeros", ByteBuffer(3 * kMiB, std::byte{0})},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(to_string(method)) + " " + c.name);
    const usize piece = c.data.size() > kMiB ? 65536 : 7;
    const StreamResult packed = stream_compress(method, c.data, kBuffer, piece);
    u64 source_calls = 0;
    auto back = stream_decompress(method, packed.compressed, kBuffer,
                                  c.data.size() > kMiB ? 4096 : 5, &source_calls);
    ASSERT_TRUE(back) << back.error().to_string();
    EXPECT_EQ(*back, c.data);
    // The small input buffer really was refilled piece by piece.
    EXPECT_GE(source_calls, packed.compressed.size() / kBuffer);
    // Whole-buffer decoding of the streamed data agrees.
    ByteBuffer whole(c.data.size());
    EXPECT_TRUE(decompress(method, packed.compressed, whole));
    EXPECT_EQ(whole, c.data);
    if (c.name == "3 MiB zeros" && method != Compression::kNone) {
      EXPECT_LT(packed.compressed.size(), 64u * 1024);
    }
  }
}

TEST_P(CompressionMethods, Check49_FinalFlushTakesSeveralWrites) {
  // Incompressible data through a 16-byte output buffer: the compressor holds input back, so the
  // final flush has far more than 16 bytes to write.
  const Compression method = GetParam();
  const auto data = random_bytes(4096, 9);
  const StreamResult packed = stream_compress(method, data, 16, 4096);
  if (method != Compression::kNone) {  // raw streams hold nothing back
    EXPECT_GE(packed.finish_sink_calls, 100u);
  }
  auto back = stream_decompress(method, packed.compressed, 16, 16);
  ASSERT_TRUE(back) << back.error().to_string();
  EXPECT_EQ(*back, data);
}

TEST_P(CompressionMethods, WholeBufferRoundTrip) {
  const Compression method = GetParam();
  for (usize size : {usize{0}, usize{1}, usize{1000}, usize{300000}}) {
    const auto data = random_bytes(size, static_cast<u32>(size));
    auto packed = compress(method, data);
    ASSERT_TRUE(packed);
    ByteBuffer out(size);
    ASSERT_TRUE(decompress(method, *packed, out));
    EXPECT_EQ(out, data);
    // Whole-buffer output also streams back.
    auto streamed = stream_decompress(method, *packed, 64, 100);
    ASSERT_TRUE(streamed);
    EXPECT_EQ(*streamed, data);
  }
}

TEST_P(CompressionMethods, WrongSizesTruncationAndTrailingDataAreErrors) {
  const Compression method = GetParam();
  const ByteBuffer data(5000, std::byte{'x'});
  auto packed = compress(method, data);
  ASSERT_TRUE(packed);
  ByteBuffer small(4999);
  ByteBuffer large(5001);
  EXPECT_FALSE(decompress(method, *packed, small));
  EXPECT_FALSE(decompress(method, *packed, large));
  if (method == Compression::kNone) return;  // raw data has no structure to damage
  ByteBuffer out(5000);
  ByteBuffer truncated(packed->begin(), packed->end() - 1);
  EXPECT_FALSE(decompress(method, truncated, out));
  ByteBuffer trailing = *packed;
  trailing.push_back(std::byte{0});
  EXPECT_FALSE(decompress(method, trailing, out));

  auto cut = stream_decompress(method, truncated, 16, 16);
  ASSERT_FALSE(cut);
  auto extra = stream_decompress(method, trailing, 16, 16);
  ASSERT_FALSE(extra);
  EXPECT_EQ(extra.error().code(), ErrorCode::kTrailingData);
  ByteBuffer garbage = random_bytes(200, 3);
  EXPECT_FALSE(decompress(method, garbage, out));
  EXPECT_FALSE(stream_decompress(method, garbage, 16, 16));
}

INSTANTIATE_TEST_SUITE_P(Pack, CompressionMethods,
                         ::testing::Values(Compression::kNone, Compression::kZstd,
                                           Compression::kZlib),
                         [](const auto& method) { return std::string(to_string(method.param)); });

TEST(PackCompression, BlockDecoderTakesInputInPieces) {
  const ByteBuffer data = random_bytes(100000, 1);
  for (Compression method : {Compression::kZstd, Compression::kZlib, Compression::kNone}) {
    auto packed = compress(method, data, 1);
    ASSERT_TRUE(packed);
    BlockDecoder decoder;
    ByteBuffer out(data.size());
    for (int round = 0; round < 2; ++round) {  // the decoder is reusable
      std::fill(out.begin(), out.end(), std::byte{0});
      ASSERT_TRUE(decoder.begin(method, out));
      for (usize at = 0; at < packed->size(); at += 777) {
        const usize n = std::min<usize>(777, packed->size() - at);
        ASSERT_TRUE(decoder.push(std::span(*packed).subspan(at, n)));
      }
      ASSERT_TRUE(decoder.finish());
      EXPECT_EQ(out, data);
    }
  }
}

// A damaged zstd frame: the streaming decoder (with input pieces of several sizes) reports it
// corrupt, and so does the one-shot decoder into an empty buffer.
void expect_zstd_frame_refused(std::span<const u8> raw) {
  const ByteBuffer frame = to_buffer(as_bytes(raw));
  for (usize buffer : {usize{1}, usize{5}, usize{64}}) {
    auto streamed = stream_decompress(Compression::kZstd, frame, buffer, 61);
    ASSERT_FALSE(streamed) << buffer;
    EXPECT_EQ(streamed.error().code(), ErrorCode::kCorrupt);
  }
  ByteBuffer none;
  EXPECT_FALSE(decompress(Compression::kZstd, frame, none));
}

TEST(PackCompression, ZstdFrameHoldingLessThanItDeclaresIsCorrupt) {
  // Found by fuzzing: a frame declaring 70 bytes whose only block is an empty last block.
  // zstd's streaming decoder accepts it; both keel decoders must not.
  const u8 raw[] = {0x28, 0xB5, 0x2F, 0xFD, 0x20, 0x46, 0x01, 0x00, 0x00};
  expect_zstd_frame_refused(raw);
  ByteBuffer out(70);
  EXPECT_FALSE(decompress(Compression::kZstd, to_buffer(as_bytes(std::span<const u8>(raw))), out));
}

TEST(PackCompression, ZstdCompressedBlockOfZeroBytesIsCorrupt) {
  // Found by fuzzing (CI): a frame declaring 0 bytes whose last block is a compressed block of
  // size 0. zstd's streaming decoder takes it for the end of the frame and decodes nothing; its
  // one-shot decoder reports corruption. Both keel decoders must refuse it.
  const u8 raw[] = {0x28, 0xB5, 0x2F, 0xFD, 0x20, 0x00, 0x05, 0x00, 0x00};
  expect_zstd_frame_refused(raw);
}

TEST(PackCompression, LevelsAndMethodsAreChecked) {
  const ByteBuffer data(10, std::byte{1});
  EXPECT_FALSE(compress(Compression::kZlib, data, 42));
  EXPECT_FALSE(compress(static_cast<Compression>(7), data));
  ByteBuffer out(10);
  auto unknown = decompress(static_cast<Compression>(7), data, out);
  ASSERT_FALSE(unknown);
  EXPECT_EQ(unknown.error().code(), ErrorCode::kUnsupported);
  EXPECT_GE(max_expansion(Compression::kZstd, 10), 10u * 32768);
  EXPECT_EQ(max_expansion(Compression::kNone, 10), 10u);
}

}  // namespace
}  // namespace keel::pack
