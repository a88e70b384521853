// Entry points of the profile module given bad caller input: each is repaired and reported, or
// asserts with a message naming the mistake; none crashes in a release build (issue 17, §4).
#include "keel/core/testing/assert_recorder.h"
#include "keel/profile/chrome_trace.h"
#include "keel/profile/report.h"
#include "keel/profile/shiny_report.h"
#include "keel/profile/testing/fake_profiler.h"
#include "keel/profile/tree_view.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

namespace keel::profile {
namespace {

using keel::testing::AssertRecorder;

constexpr Site kEntryA{"A", __FILE__, __LINE__};
constexpr Site kEntryB{"B", __FILE__, __LINE__};

TEST(EntryPoints, ProfilerCallsInTheWrongOrder) {
  FakeProfiler f;
  Profiler& p = f.profiler();
  f.end_frame(10);  // end without begin: ignored, reported
  EXPECT_EQ(p.frame_count(), 0u);
  f.leave(kEntryA, 11);  // leave without enter
  p.leave_named("nothing open");
  f.begin_frame(20);
  f.begin_frame(30);  // begin inside a frame: the open frame ends first
  EXPECT_EQ(p.frame_count(), 1u);
  f.enter(kEntryA, 31);
  f.leave(kEntryB, 32);  // B is not open: ignored
  f.end_frame(40);       // A still open: closed at the frame end
  EXPECT_EQ(p.frame_count(), 2u);
  EXPECT_EQ(p.current(), kRootNode);
  EXPECT_EQ(p.error_count(), 6u);
  EXPECT_NE(p.errors().front().find("end_frame without begin_frame"), std::string::npos);
}

TEST(EntryPoints, ProfilerNodeIdsOfNothing) {
  AssertRecorder asserts;
  FakeProfiler f;
  const Profiler& p = f.profiler();
  EXPECT_EQ(&p.node(999), &p.root());  // asserted; release builds get the root
  EXPECT_EQ(&p.history(kNoNode), &p.history(kRootNode));
  asserts.expect_assert_count(2, "out of range");
  EXPECT_TRUE(p.values(999).empty());
  EXPECT_EQ(p.find_value(999, "x"), nullptr);
  EXPECT_EQ(p.find("no/such/path"), kNoNode);
  EXPECT_EQ(p.find_child(kNoNode, "A"), kNoNode);
  f.profiler().reset_node(999);  // reported, ignored
  EXPECT_EQ(p.error_count(), 1u);
  TreeView view(p);
  view.expand(999);
  view.collapse(kNoNode);
  view.toggle(12345);
  EXPECT_EQ(view.rows().size(), 0u);
}

TEST(EntryPoints, ProfilerOptionsOutOfRange) {
  AssertRecorder asserts;
  for (const f64 bad : {0.0, -1.0, 1.5, std::numeric_limits<f64>::quiet_NaN()}) {
    FakeProfiler f(FakeProfilerOptions{.smoothing = bad});
    EXPECT_EQ(f.profiler().smoothing(), kDefaultSmoothing);
  }
  asserts.expect_assert_count(4, "smoothing");
  FakeProfiler zero_reserve(FakeProfilerOptions{});
  Profiler p(ProfilerOptions{.ticks = &zero_reserve.ticks(), .reserve_nodes = 0});
  p.begin_frame();
  p.end_frame();
  EXPECT_EQ(p.frame_count(), 1u);
  TraceBuffer tiny(zero_reserve.ticks(), 0);  // rounded up to 2 slots
  EXPECT_EQ(tiny.capacity(), 2u);
}

TEST(EntryPoints, ReportsOfAProfilerWithoutFrames) {
  FakeProfiler f;
  const Profiler& p = f.profiler();
  EXPECT_NE(log_table(p).find("Frame"), std::string::npos);
  EXPECT_NE(tree_report(p).find("Frame 0%"), std::string::npos);
  EXPECT_FALSE(flat_report(p).empty());
  const std::string shiny = shiny_report(p);
  EXPECT_NE(shiny.find("  0 ns (  0 ns-  0 ns)"), std::string::npos) << shiny;
  EXPECT_EQ(shiny_report(p, {.flat = false, .tree = false}), "");
  const std::string empty_trace = chrome_trace_json({});
  EXPECT_NE(empty_trace.find("\"traceEvents\":["), std::string::npos);
  EXPECT_EQ(empty_trace.find("\"ph\":\"X\""), std::string::npos);
  EXPECT_EQ(format_duration(std::nan("")), "  0 ns");
}

}  // namespace
}  // namespace keel::profile
