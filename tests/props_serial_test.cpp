// Integration: a whole property container saved and loaded through every keel::serial archive,
// in memory and through files, as a game would.
#include "keel/core/file.h"
#include "keel/props/container.h"
#include "keel/serial/serial.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

namespace keel {
namespace {

props::PropertyContainer sample() {
  props::PropertyContainer c;
  EXPECT_TRUE(c.set<s32>("health", 75));
  EXPECT_TRUE(c.set<f32>("speed", 2.5f));
  EXPECT_TRUE(c.set<std::string>("name", "Big Level"));
  EXPECT_TRUE(c.set<bool>("boss", true));
  return c;
}

void expect_sample(const props::PropertyContainer& c) {
  EXPECT_EQ(c.get<s32>("health").value(), 75);
  EXPECT_EQ(c.get<f32>("speed").value(), 2.5f);
  EXPECT_EQ(c.get<std::string>("name").value(), "Big Level");
  EXPECT_EQ(c.get<bool>("boss").value(), true);
}

TEST(PropsSerial, ContainerRoundTripsThroughBufferArchives) {
  props::PropertyContainer saved = sample();
  auto bytes = serial::save_to_bytes(saved);
  ASSERT_TRUE(bytes) << bytes.error().to_string();

  serial::GrowingSaver growing;
  growing.io(saved);
  ASSERT_TRUE(growing.ok());
  EXPECT_EQ(growing.to_vector(), *bytes);  // one-pass and sized saves agree byte for byte

  props::PropertyContainer loaded;
  serial::BufferLoader loader{ByteSpan(*bytes)};
  loader.io(loaded);
  ASSERT_TRUE(loader.finish()) << loader.status().error().to_string();
  expect_sample(loaded);
}

TEST(PropsSerial, ContainerRoundTripsThroughAFile) {
  const auto path = std::filesystem::path(KEEL_TEST_TMPDIR) / "props_serial.dat";
  std::filesystem::create_directories(path.parent_path());
  ASSERT_TRUE(serial::save_file(path, sample()));
  props::PropertyContainer loaded;
  ASSERT_TRUE(serial::load_file(path, loaded));
  expect_sample(loaded);
}

TEST(PropsSerial, TruncatedContainerIsAnErrorNotACrash) {
  auto bytes = serial::save_to_bytes(sample());
  ASSERT_TRUE(bytes);
  for (usize cut = 0; cut < bytes->size(); ++cut) {
    props::PropertyContainer loaded;
    serial::BufferLoader loader(ByteSpan(*bytes).first(cut));
    loader.io(loaded);
    EXPECT_FALSE(loader.finish()) << "cut at " << cut;
  }
}

}  // namespace
}  // namespace keel
