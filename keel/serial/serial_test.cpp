// The seed's acceptance checks 17-20 (spec section 5) and the basic archive contract.
#include "keel/serial/serial.h"
#include "keel/serial/testing/wire.h"

#include <gtest/gtest.h>

#include <array>
#include <string>
#include <vector>

namespace keel::serial {
namespace {

using serial::testing::wire;

// The seed's three wire types: a char (1 byte), a "long" (always 4 bytes: u32), a string.
struct SeedRecord {
  char c = 'x';
  u32 l = 0x01020304;
  std::string s = "abc";
  template <class Archive>
  void serialize(Archive& ar) {
    ar(c, l, s);
  }
  friend bool operator==(const SeedRecord&, const SeedRecord&) = default;
};

TEST(Serial, Check17_SizerCountsCharLongAndString) {
  Sizer sizer;
  char c = 'x';
  u32 l = 7;
  std::string s = "abc";
  sizer.io(c);
  EXPECT_EQ(sizer.size(), 1u);
  sizer.io(l);
  EXPECT_EQ(sizer.size(), 5u);
  sizer.io(s);
  EXPECT_EQ(sizer.size(), 12u);  // 1 + 4 + (4 + 3)
  EXPECT_TRUE(sizer.ok());
  EXPECT_EQ(*serialized_size(SeedRecord{}), 12u);
}

TEST(Serial, Check18_SaverWritesBigEndian) {
  ByteBuffer buffer(4);
  BufferSaver saver(buffer);
  u32 value = 0x01020304;
  saver.io(value);
  ASSERT_TRUE(saver.ok());
  EXPECT_EQ(buffer, (wire({0x01, 0x02, 0x03, 0x04})));
  EXPECT_EQ(saver.remaining(), 0u);

  // Every width, signed values and IEEE floats, most significant byte first.
  ByteBuffer all(2 + 8 + 4 + 4 + 8 + 1);
  BufferSaver wide(all);
  u16 a = 0xA1B2;
  u64 b = 0x0102030405060708ull;
  s32 c = -2;
  f32 d = 1.0f;
  f64 e = -2.0;
  s8 f = -1;
  wide(a, b, c, d, e, f);
  ASSERT_TRUE(wide.ok());
  EXPECT_EQ(all, (wire({0xA1, 0xB2,                                      //
                        0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,  //
                        0xFF, 0xFF, 0xFF, 0xFE,                          //
                        0x3F, 0x80, 0x00, 0x00,                          //
                        0xC0, 0x00, 0,    0,    0,    0,    0,    0,     //
                        0xFF})));
}

TEST(Serial, Check19_SaverOneByteShortOverflowsAndWritesNothingPastTheEnd) {
  SeedRecord record;
  const usize size = *serialized_size(record);
  ASSERT_EQ(size, 12u);
  constexpr u8 kGuard = 0xAB;
  std::array<u8, 12> buffer{};
  buffer.back() = kGuard;  // the byte just past a buffer one byte too small
  BufferSaver saver(as_writable_bytes(std::span<u8>(buffer)).first(size - 1));
  saver.io(record);
  ASSERT_FALSE(saver.ok());
  EXPECT_EQ(saver.status().error().code(), ErrorCode::kOverflow);
  EXPECT_EQ(buffer.back(), kGuard);
  // The last string's bytes did not fit: the error sits where they start.
  EXPECT_EQ(saver.status().error().where().offset, 1u + 4u + 4u);

  // Sticky: nothing more is written, even a value that would still fit.
  const usize used = saver.used();
  u8 small = 1;
  saver.io(small);
  EXPECT_EQ(saver.used(), used);
  EXPECT_EQ(buffer.back(), kGuard);
  EXPECT_EQ(saver.status().error().where().offset, 9u);
}

TEST(Serial, Check20_TruncatedDataIsUnderflow) {
  const ByteBuffer bytes = *save_to_bytes(SeedRecord{'q', 99, "hello"});
  for (usize n = 0; n < bytes.size(); ++n) {
    SeedRecord loaded;
    BufferLoader loader(ByteSpan(bytes).first(n));
    loader.io(loaded);
    Status status = loader.finish();
    ASSERT_FALSE(status) << "length " << n;
    EXPECT_EQ(status.error().code(), ErrorCode::kUnderflow) << "length " << n;
  }
}

TEST(Serial, Check20_ExtraDataIsTrailingData) {
  ByteBuffer bytes = *save_to_bytes(SeedRecord{'q', 99, "hello"});
  bytes.push_back(std::byte{0});
  SeedRecord loaded;
  BufferLoader loader(bytes);
  loader.io(loaded);
  EXPECT_TRUE(loader.ok());  // the object itself loaded
  EXPECT_EQ(loader.remaining(), 1u);
  Status status = loader.finish();
  ASSERT_FALSE(status);
  EXPECT_EQ(status.error().code(), ErrorCode::kTrailingData);
  EXPECT_EQ(status.error().where().offset, bytes.size() - 1);
  EXPECT_EQ(loaded, (SeedRecord{'q', 99, "hello"}));
}

TEST(Serial, LoaderReadsBackWhatTheSaverWrote) {
  SeedRecord original{'z', 0xFFFFFFFF, std::string("with\0nul", 8)};
  auto bytes = save_to_bytes(original);
  ASSERT_TRUE(bytes);
  SeedRecord loaded{'a', 0, "old contents"};
  ASSERT_TRUE(load_from_bytes(*bytes, loaded));
  EXPECT_EQ(loaded, original);
}

TEST(Serial, ArchiveKindFlags) {
  static_assert(Sizer::kSizing && !Sizer::kSaving && !Sizer::kLoading);
  static_assert(BufferSaver::kSaving && !BufferSaver::kSizing && !BufferSaver::kLoading);
  static_assert(FileSaver::kSaving && !FileSaver::kSizing && !FileSaver::kLoading);
  static_assert(BufferLoader::kLoading && !BufferLoader::kSaving && !BufferLoader::kSizing);
  static_assert(FileLoader::kLoading && !FileLoader::kSaving && !FileLoader::kSizing);
  SUCCEED();
}

TEST(Serial, ErrorsNameTheSourceAndOffset) {
  const ByteBuffer bytes = wire({0, 0, 0, 9, 'a'});  // a string of 9 bytes with 1 present
  std::string s;
  BufferLoader loader(bytes, {}, "level.bin");
  loader.io(s);
  Status status = loader.finish();
  ASSERT_FALSE(status);
  EXPECT_EQ(status.error().code(), ErrorCode::kUnderflow);
  EXPECT_EQ(status.error().where().offset, 0u);  // the length field
  EXPECT_EQ(status.error().to_string().rfind("level.bin: byte 0: error: string length 9", 0), 0u)
      << status.error().to_string();
  EXPECT_TRUE(s.empty());  // nothing was allocated or assigned
}

}  // namespace
}  // namespace keel::serial
