#include "keel/platform/image.h"

#include "keel/platform/renderer.h"
#include "keel/platform/run_options.h"
#include "keel/platform/testing/test_assets.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

namespace keel::platform {
namespace {

std::filesystem::path temp_dir(const char* name) {
  auto dir =
      std::filesystem::temp_directory_path() / ("keel_platform_" + std::to_string(getpid())) / name;
  std::filesystem::create_directories(dir);
  return dir;
}

TEST(Screenshots, AFrameIsWrittenAndReadsBackIdentical) {
  auto window = testing::open_test_window(32, 16);
  ASSERT_TRUE(window);
  Renderer renderer(window->sdl_renderer());
  ASSERT_TRUE(renderer.begin_frame({10, 20, 30, 255}));
  renderer.line({0, 8}, {32, 8}, {255, 255, 0, 255}, 2, true);
  ASSERT_TRUE(renderer.end_frame());
  Result<Image> shot = window->screenshot();
  ASSERT_TRUE(shot.has_value());
  EXPECT_EQ(shot->width, 32u);
  EXPECT_EQ(shot->height, 16u);
  EXPECT_EQ((testing::pixel(*shot, 3, 2)), (std::array<u8, 4>{10, 20, 30, 255}));
  EXPECT_EQ((testing::pixel(*shot, 3, 8)), (std::array<u8, 4>{255, 255, 0, 255}));

  const auto path = temp_dir("shots") / "frame.png";
  ASSERT_TRUE(write_png(path, *shot));
  Result<Image> back = read_png(path);
  ASSERT_TRUE(back.has_value()) << back.error().to_string();
  Result<ImageDiff> diff = compare_images(*shot, *back);
  ASSERT_TRUE(diff.has_value());
  EXPECT_EQ(diff->differing_pixels, 0u);
  back->rgba[0] = std::byte{200};
  EXPECT_EQ(compare_images(*shot, *back)->differing_pixels, 1u);
  EXPECT_EQ(compare_images(*shot, *back, 255)->differing_pixels, 0u);
  std::filesystem::remove_all(path.parent_path().parent_path());
}

TEST(RunOptionsTest, ParsesFramesScreenshotsAndLeavesTheRest) {
  const std::vector<std::string> args{"--headless", "--frames", "30",    "--screenshot-every",
                                      "10",         "--out",    "shots", "--pack",
                                      "x.kpk"};
  Result<RunOptions> o = parse_run_options(args);
  ASSERT_TRUE(o.has_value());
  EXPECT_TRUE(o->headless);
  EXPECT_EQ(o->frames, 30u);
  EXPECT_TRUE(o->screenshot_due(9));
  EXPECT_FALSE(o->screenshot_due(10));
  EXPECT_EQ(o->screenshot_path(9), std::filesystem::path("shots/frame_00009.png"));
  EXPECT_EQ(o->rest, (std::vector<std::string>{"--pack", "x.kpk"}));
  EXPECT_FALSE(parse_run_options(std::vector<std::string>{"--frames", "x"}));
  EXPECT_FALSE(parse_run_options(std::vector<std::string>{"--screenshot-every", "5"}));
  EXPECT_FALSE(parse_run_options(std::vector<std::string>{"--out"}));
}

}  // namespace
}  // namespace keel::platform
