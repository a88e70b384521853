#include "keel/core/bytes.h"

#include <gtest/gtest.h>

#include <array>

namespace keel {
namespace {

TEST(Bytes, StringRoundTripsThroughByteSpanWithoutCopy) {
  const std::string_view text = "keel\0data";
  const ByteSpan bytes = as_bytes(text);
  EXPECT_EQ(bytes.size(), text.size());
  EXPECT_EQ(static_cast<const void*>(bytes.data()), static_cast<const void*>(text.data()));
  EXPECT_EQ(bytes[0], std::byte{'k'});
  EXPECT_EQ(as_chars(bytes), text);
}

TEST(Bytes, U8ViewsShareStorage) {
  std::array<u8, 3> values{1, 2, 255};
  const MutableByteSpan writable = as_writable_bytes(std::span<u8>(values));
  writable[1] = std::byte{7};
  EXPECT_EQ(values[1], 7);
  const std::span<const u8> back = as_u8(ByteSpan(writable));
  EXPECT_EQ(back[2], 255);
  EXPECT_EQ(as_bytes(std::span<const u8>(values)).size(), 3u);
}

TEST(Bytes, OwnedCopiesAreIndependent) {
  std::string text = "abc";
  ByteBuffer buffer = to_buffer(text);
  text[0] = 'z';
  EXPECT_EQ(to_string(buffer), "abc");
}

}  // namespace
}  // namespace keel
