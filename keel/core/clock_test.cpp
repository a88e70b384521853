#include "keel/core/clock.h"
#include "keel/core/build_stamp.h"
#include "keel/core/types.h"

#include <gtest/gtest.h>

namespace keel {
namespace {

TEST(Clock, SteadyClockNeverGoesBackwards) {
  const Clock& clock = SteadyClock::instance();
  u64 previous = clock.now_ns();
  for (int i = 0; i < 1000; ++i) {
    const u64 now = clock.now_ns();
    EXPECT_GE(now, previous);
    previous = now;
  }
}

TEST(Clock, FakeClockMovesOnlyWhenTold) {
  FakeClock clock(100);
  const Clock& base = clock;
  EXPECT_EQ(base.now_ns(), 100u);
  clock.advance_ns(50);
  EXPECT_EQ(base.now_ns(), 150u);
  clock.advance_seconds(0.5);
  EXPECT_EQ(base.now_ns(), 500'000'150u);
  clock.set_ns(7);
  EXPECT_EQ(base.now_ns(), 7u);
}

TEST(BuildStamp, UnstampedExecutableGetsDefaults) {
  // The unit-test executable has no generated stamp.
  const BuildStamp& s = build_stamp();
  EXPECT_EQ(s.project, "unstamped");
  EXPECT_EQ(s.build_number, 0u);
}

// Enginuity check 26 (the generator half is the ctest build_stamp_generator_changes_every_link).
TEST(BuildStamp, Check26_PeerWithDifferentStampIsRefused) {
  const BuildStamp a{"game", "1.2", "abc", false, "2026-11-22T10:00:00Z", 41, "ana", 3};
  BuildStamp b = a;
  EXPECT_TRUE(compatible(a, b));
  b.build_number = 42;
  b.built_utc = "2026-11-22T10:05:00Z";
  EXPECT_FALSE(compatible(a, b));
  EXPECT_TRUE(protocol_compatible(a, b));
  b.protocol = 4;
  EXPECT_FALSE(protocol_compatible(a, b));
  EXPECT_EQ(a.to_string(), "game 1.2 rev abc build 41 2026-11-22T10:00:00Z by ana protocol 3");
}

}  // namespace
}  // namespace keel
