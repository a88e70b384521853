// Frame-time percentiles (frame_times.h): the nearest-rank arithmetic, and reading a profiler's
// frames (a fake tick source: no timing in tests).
#include "frame_times.h"

#include "keel/profile/tick_source.h"

#include <gtest/gtest.h>

namespace keel::voidfarer {
namespace {

TEST(FrameTimes, NearestRankPercentiles) {
  std::vector<f64> values;
  for (int i = 100; i >= 1; --i) values.push_back(i);  // 1 .. 100, unsorted
  EXPECT_EQ(percentile(values, 50), 50);
  EXPECT_EQ(percentile(values, 95), 95);
  EXPECT_EQ(percentile(values, 99), 99);
  EXPECT_EQ(percentile(values, 100), 100);
  EXPECT_EQ(percentile(values, 0), 1);
  std::vector<f64> empty;
  EXPECT_EQ(percentile(empty, 50), 0);
  std::vector<f64> one{7};
  EXPECT_EQ(percentile(one, 99), 7);
}

TEST(FrameTimes, ReadsTheFrameAndNamedScopesFromTheProfiler) {
  profile::FakeTickSource ticks;  // 1 tick = 1 ns
  profile::Profiler profiler({.ticks = &ticks});
  static constexpr profile::Site kLoop{"Kernel task loop", __FILE__, __LINE__};
  static constexpr profile::Site kSim{"sim", __FILE__, __LINE__};
  FrameTimes times({"sim", "render"});
  for (int frame = 0; frame < 10; ++frame) {
    profiler.begin_frame();
    profiler.enter(kLoop);
    profiler.enter(kSim);
    ticks.advance(1'000'000 * (frame + 1));  // sim: 1 .. 10 ms
    profiler.leave(kSim);
    ticks.advance(2'000'000);
    profiler.leave(kLoop);
    profiler.end_frame();
    times.record(profiler);
    times.record(profiler);  // no new frame: nothing added
  }
  const auto sim = times.percentiles("sim");
  ASSERT_TRUE(sim);
  EXPECT_EQ(sim->samples, 10u);
  EXPECT_DOUBLE_EQ(sim->p50, 5.0);
  EXPECT_DOUBLE_EQ(sim->p95, 10.0);
  const auto frame = times.percentiles(FrameTimes::kFrame);
  ASSERT_TRUE(frame);
  EXPECT_EQ(frame->samples, 10u);
  EXPECT_DOUBLE_EQ(frame->p50, 7.0);
  const auto render = times.percentiles("render");  // never visited: no samples
  ASSERT_TRUE(render);
  EXPECT_EQ(render->samples, 0u);
  EXPECT_FALSE(times.percentiles("physics"));
}

}  // namespace
}  // namespace keel::voidfarer
