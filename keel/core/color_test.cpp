#include "keel/core/color.h"

#include <gtest/gtest.h>

#include <cstring>

namespace keel {
namespace {

TEST(Color, FromU32PutsRedInTheHighByte) {
  static_assert(rgba8_from_u32(0x11223344u) == Rgba8{0x11, 0x22, 0x33, 0x44});
  EXPECT_EQ(rgba8_from_u32(0xFF000080u), (Rgba8{255, 0, 0, 128}));
  EXPECT_EQ(rgba8_to_u32(rgba8_from_u32(0xA1B2C3D4u)), 0xA1B2C3D4u);
}

TEST(Color, MemoryOrderIsRgba) {
  const Rgba8 c{1, 2, 3, 4};
  unsigned char bytes[4];
  std::memcpy(bytes, &c, 4);
  EXPECT_EQ(bytes[0], 1);
  EXPECT_EQ(bytes[3], 4);
  EXPECT_EQ(Rgba8{}, (Rgba8{255, 255, 255, 255}));
}

}  // namespace
}  // namespace keel
