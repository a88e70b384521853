// Every public entry point of pack given bad input by its caller: an error (or, for programmer
// errors, an assertion naming the mistake and then a safe fallback), never a crash.
#include "keel/core/testing/assert_recorder.h"
#include "keel/pack/compression.h"
#include "keel/pack/loader.h"
#include "keel/pack/merge.h"
#include "keel/pack/pack_file.h"
#include "keel/pack/testing/samples.h"
#include "keel/pack/writer.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace keel::pack {
namespace {

// Asserts are recorded in asserts_ (keel/core/testing/assert_recorder.h), not fatal. They are
// compiled out of release builds: these tests check what the caller then gets.
using EntryPoints = keel::testing::AssertRecordingTest;

TEST_F(EntryPoints, CompressionUnknownMethodsAndZeroSizes) {
  const auto bad = static_cast<Compression>(9);
  const ByteBuffer data(100, std::byte{1});
  ByteBuffer out(100);
  EXPECT_EQ(compress(bad, data).error().code(), ErrorCode::kUnsupported);
  EXPECT_EQ(decompress(bad, data, out).error().code(), ErrorCode::kUnsupported);
  EXPECT_EQ(max_expansion(bad, 10), 0u);
  auto sink = [](ByteSpan) { return ok(); };
  EXPECT_EQ(StreamCompressor::create(bad, 0, 16, sink).error().code(), ErrorCode::kUnsupported);
  EXPECT_EQ(StreamCompressor::create(Compression::kZstd, 0, 0, sink).error().code(),
            ErrorCode::kInvalidArgument);
  EXPECT_EQ(StreamCompressor::create(Compression::kZstd, 0, 16, nullptr).error().code(),
            ErrorCode::kInvalidArgument);
  auto source = [](MutableByteSpan) -> Result<usize> { return usize{0}; };
  EXPECT_FALSE(StreamDecompressor::create(bad, 16, source));
  EXPECT_FALSE(StreamDecompressor::create(Compression::kZlib, 0, source));
  EXPECT_FALSE(StreamDecompressor::create(Compression::kZlib, 16, nullptr));

  // Empty input compresses and decompresses to nothing with every method.
  for (Compression m : {Compression::kNone, Compression::kZstd, Compression::kZlib}) {
    auto packed = compress(m, ByteSpan());
    ASSERT_TRUE(packed) << to_string(m);
    EXPECT_TRUE(decompress(m, *packed, MutableByteSpan())) << to_string(m);
  }
}

TEST_F(EntryPoints, CompressionCallsInTheWrongOrder) {
  BlockDecoder decoder;
  const ByteBuffer data(4, std::byte{1});
  EXPECT_EQ(decoder.push(data).error().code(), ErrorCode::kInvalidArgument);  // before begin()
  EXPECT_EQ(decoder.finish().error().code(), ErrorCode::kInvalidArgument);
  ByteBuffer out(4);
  EXPECT_FALSE(decoder.begin(static_cast<Compression>(5), out));
  EXPECT_FALSE(decoder.push(data));  // a failed begin() leaves it unusable, not half-set

  ByteBuffer collected;
  auto compressor = StreamCompressor::create(Compression::kZlib, 0, 8, [&](ByteSpan piece) {
    collected.insert(collected.end(), piece.begin(), piece.end());
    return ok();
  });
  ASSERT_TRUE(compressor);
  ASSERT_TRUE(compressor->finish());
  EXPECT_TRUE(compressor->finish());  // finishing twice is harmless
  EXPECT_EQ(compressor->write(data).error().code(), ErrorCode::kInvalidArgument);

  usize fed = 0;
  auto stream = StreamDecompressor::create(Compression::kZlib, 4, [&](MutableByteSpan in) {
    const usize n = std::min(in.size(), collected.size() - fed);
    std::copy_n(collected.begin() + static_cast<std::ptrdiff_t>(fed), n, in.begin());
    fed += n;
    return Result<usize>(n);
  });
  ASSERT_TRUE(stream);
  EXPECT_EQ(stream->read(MutableByteSpan()).error().code(), ErrorCode::kInvalidArgument);
  std::byte piece[8];
  auto n = stream->read(piece);
  ASSERT_TRUE(n) << n.error().to_string();
  EXPECT_EQ(*n, 0u);
  EXPECT_EQ(stream->read(piece).value(), 0u);  // reading past the end stays at the end
}

TEST_F(EntryPoints, WriterBadAlignmentIsAnError) {
  PackWriter writer;
  const ByteBuffer data(8, std::byte{2});
  EXPECT_TRUE(writer.add_chunk("a", 0, data, 3).is_null());
  asserts_.expect_asserted("alignment 3");
  auto bytes = writer.to_bytes();
  ASSERT_FALSE(bytes);
  EXPECT_EQ(bytes.error().code(), ErrorCode::kInvalidArgument);

  PackWriter raw;
  const PackWriter::RawChunk outside{name_hash("a"), LocatorId::make(0, 1), 4, 100};
  raw.append_block(0, 4, data, std::span(&outside, 1));
  EXPECT_FALSE(raw.to_bytes());
}

TEST_F(EntryPoints, WriterEmptyAndZeroSizedInputs) {
  PackWriter empty;
  auto bytes = empty.to_bytes();
  ASSERT_TRUE(bytes) << bytes.error().to_string();  // an empty pack is a valid pack
  auto file = PackFile::from_bytes(std::move(*bytes));
  ASSERT_TRUE(file);
  EXPECT_TRUE(file->items().empty());

  PackWriter zero;
  const LocatorId id = zero.add_chunk("nothing", 0, ByteSpan());
  zero.add_item("nothing", type_hash("Blob"), id);
  auto zero_bytes = zero.to_bytes();
  ASSERT_TRUE(zero_bytes) << zero_bytes.error().to_string();
  auto zero_file = PackFile::from_bytes(std::move(*zero_bytes));
  ASSERT_TRUE(zero_file);
  auto chunk = zero_file->read_chunk(name_hash("nothing"), id);
  ASSERT_TRUE(chunk);
  EXPECT_TRUE(chunk->empty());
}

TEST_F(EntryPoints, PackFileEmptyInputsAndUnknownNames) {
  EXPECT_FALSE(PackFile::from_bytes(ByteBuffer()));
  EXPECT_EQ(PackFile::open("/nonexistent/dir/x.kpk").error().code(), ErrorCode::kIo);
  PackWriter writer;
  testing::add_texture(writer, "face", 2, 2, 1);
  auto file = PackFile::from_bytes(writer.to_bytes().value());
  ASSERT_TRUE(file);
  EXPECT_EQ(file->find_item("nobody"), nullptr);
  EXPECT_TRUE(file->chunks(99).empty());
  EXPECT_EQ(file->read_block(99).error().code(), ErrorCode::kOutOfRange);
  EXPECT_EQ(file->read_chunk(name_hash("face"), LocatorId{}).error().code(), ErrorCode::kNotFound);
  const PackItem& face = file->items()[0];
  EXPECT_EQ(file->extract_chunk(face.name_hash, face.primary, nullptr).error().code(),
            ErrorCode::kInvalidArgument);
  EXPECT_EQ(file->extract_chunk(
                    face.name_hash, face.primary, [](ByteSpan) { return ok(); }, 0)
                .error()
                .code(),
            ErrorCode::kInvalidArgument);
}

TEST_F(EntryPoints, LoaderNullRegistrationsAreIgnored) {
  Loader loader;
  loader.set_long_lived_allocator(nullptr);
  asserts_.expect_asserted("set_long_lived_allocator(nullptr)");
  loader.set_short_lived_allocator(nullptr);
  loader.set_block_allocator(3, nullptr);
  loader.register_type(type_hash("Texture"), nullptr);
  asserts_.expect_asserted("without a setup function");
  EXPECT_FALSE(loader.has_type(type_hash("Texture")));

  PackWriter writer;
  testing::add_texture(writer, "face", 2, 2, 1);
  const ByteBuffer bytes = writer.to_bytes().value();
  auto pack = loader.load_bytes(bytes);  // the loader still works, and names the unknown type
  ASSERT_FALSE(pack);
  EXPECT_NE(pack.error().message().find("0x8E9F4C94"), std::string::npos)
      << pack.error().to_string();
  EXPECT_FALSE(loader.load_bytes(ByteSpan()));
  EXPECT_FALSE(loader.load("/nonexistent/x.kpk"));
}

TEST_F(EntryPoints, MergeOfNothing) {
  std::vector<const PackFile*> none;
  auto merged = merge_to_bytes(none);
  if (merged) {
    auto file = PackFile::from_bytes(std::move(*merged));
    ASSERT_TRUE(file);
    EXPECT_TRUE(file->items().empty());
  }
  std::vector<const PackFile*> null_input{nullptr};
  EXPECT_FALSE(merge_to_bytes(null_input));
  asserts_.expect_asserted("null");
}

}  // namespace
}  // namespace keel::pack
