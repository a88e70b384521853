// Every public entry point of serial given bad input by its caller: an error (or, for programmer
// errors, an assertion naming the mistake and a safe fallback), never a crash.
#include "keel/core/testing/assert_recorder.h"
#include "keel/serial/serial.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

namespace keel::serial {
namespace {

struct Pair {
  u32 a = 0;
  std::string b;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(a, b);
  }
};

TEST(EntryPoints, SerialEmptyAndZeroSizedBuffers) {
  Pair p;
  BufferLoader empty{ByteSpan()};
  empty.io(p);
  EXPECT_EQ(empty.finish().error().code(), ErrorCode::kUnderflow);
  EXPECT_EQ(load_from_bytes(ByteSpan(), p).error().code(), ErrorCode::kUnderflow);

  BufferSaver none{MutableByteSpan()};
  none.io(p);
  EXPECT_EQ(none.finish().error().code(), ErrorCode::kOverflow);
  EXPECT_EQ(none.used(), 0u);

  std::string nothing;
  auto bytes = save_to_bytes(nothing);
  ASSERT_TRUE(bytes);
  EXPECT_EQ(bytes->size(), 4u);  // an empty string is its length field
  GrowingSaver growing(0);       // a zero initial capacity still grows
  growing.io(p);
  EXPECT_TRUE(growing.finish());
}

TEST(EntryPoints, SerialMissingFilesAndWrongOrder) {
  Pair p;
  EXPECT_EQ(load_file("/nonexistent/dir/x.bin", p).error().code(), ErrorCode::kNotFound);
  EXPECT_FALSE(save_file("/nonexistent/dir/x.bin", p));

  const auto path = std::filesystem::path(KEEL_TEST_TMPDIR) / "entry_points.bin";
  std::filesystem::create_directories(path.parent_path());
  keel::testing::AssertRecorder asserts;
  FileSaver saver(path);
  saver.io(p);
  ASSERT_TRUE(saver.commit());
  EXPECT_TRUE(saver.commit());  // twice: asserts (debug), changes nothing (release)
  asserts.expect_asserted("commit called twice");
  Pair back;
  ASSERT_TRUE(load_file(path, back));

  // A loader asked for more after an error does nothing more and keeps the first error.
  FileLoader loader(path);
  u64 too_much = 0;
  loader.io(too_much);
  loader.io(back);
  EXPECT_EQ(loader.finish().error().code(), ErrorCode::kUnderflow);
}

}  // namespace
}  // namespace keel::serial
