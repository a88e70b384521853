#include "keel/profile/profiler.h"

#include "keel/core/clock.h"
#include "keel/profile/testing/fake_profiler.h"

#include <gtest/gtest.h>

#include <string>

namespace keel::profile {
namespace {

constexpr Site kProfA{"A", __FILE__, __LINE__};
constexpr Site kProfB{"B", __FILE__, __LINE__};
constexpr Site kProfC{"C", __FILE__, __LINE__};
constexpr Site kProfF{"f", __FILE__, __LINE__};
constexpr ValueSite kVertices{"vertices"};

bool any_error_mentions(const Profiler& p, const std::string& a, const std::string& b) {
  for (const std::string& e : p.errors()) {
    if (e.find(a) != std::string::npos && e.find(b) != std::string::npos) return true;
  }
  return false;
}

TEST(Profiler, Check8_SelfTimePercentages) {
  FakeProfiler f;
  f.begin_frame(0);
  f.enter(kProfA, 10);
  f.sample(kProfB, 20, 30);
  f.leave(kProfA, 40);
  f.end_frame(100);

  const Profiler& p = f.profiler();
  const NodeId a = p.find("A");
  const NodeId b = p.find("A/B");
  ASSERT_NE(a, kNoNode);
  ASSERT_NE(b, kNoNode);
  EXPECT_DOUBLE_EQ(p.node(a).self_pct, 20.0);
  EXPECT_DOUBLE_EQ(p.node(a).total_pct, 30.0);
  EXPECT_DOUBLE_EQ(p.node(b).self_pct, 10.0);
  EXPECT_DOUBLE_EQ(p.root().self_pct, 70.0);
  EXPECT_DOUBLE_EQ(p.root().total_pct, 100.0);
  f64 sum = 0;
  for (NodeId id = 0; id < p.node_count(); ++id) sum += p.node(id).self_pct;
  EXPECT_DOUBLE_EQ(sum, 100.0);
  EXPECT_EQ(p.node(a).self_ticks, 20u);
  EXPECT_EQ(p.frame_ticks(), 100u);
  EXPECT_EQ(p.error_count(), 0u);
}

TEST(Profiler, Check9_CallCountsResetNextFrame) {
  FakeProfiler f;
  f.begin_frame(0);
  f.sample(kProfA, 10, 20);
  f.sample(kProfA, 30, 40);
  f.sample(kProfA, 50, 60);
  f.end_frame(100);
  const NodeId a = f.profiler().find("A");
  EXPECT_EQ(f.profiler().node(a).calls, 3u);

  f.begin_frame(100);
  EXPECT_EQ(f.profiler().node(a).acc_calls, 0u);  // the new frame starts from zero
  f.end_frame(200);
  EXPECT_EQ(f.profiler().node(a).calls, 0u);
  EXPECT_DOUBLE_EQ(f.profiler().node(a).total_pct, 0.0);
}

TEST(Profiler, Check9_ResetOneNodeOrAll) {
  FakeProfiler f;
  for (u64 frame = 0; frame < 2; ++frame) {
    f.begin_frame(frame * 100);
    f.sample(kProfA, frame * 100 + 10, frame * 100 + 30);
    f.sample(kProfB, frame * 100 + 40, frame * 100 + 50);
    f.end_frame(frame * 100 + 100);
  }
  Profiler& p = f.profiler();
  const NodeId a = p.find("A");
  const NodeId b = p.find("B");
  EXPECT_EQ(p.node(a).self_stats.frames, 2u);
  p.reset_node(a);
  EXPECT_EQ(p.node(a).self_stats.frames, 0u);
  EXPECT_DOUBLE_EQ(p.node(a).self_stats.max, 0.0);
  EXPECT_EQ(p.node(b).self_stats.frames, 2u);  // untouched
  EXPECT_DOUBLE_EQ(p.node(b).self_stats.max, 10.0);

  f.begin_frame(200);
  f.sample(kProfA, 210, 250);
  f.end_frame(300);
  EXPECT_EQ(p.node(a).self_stats.frames, 1u);
  EXPECT_DOUBLE_EQ(p.node(a).self_stats.min, 40.0);  // the old 20% frames are forgotten

  p.reset_all();
  for (NodeId id = 0; id < p.node_count(); ++id) {
    EXPECT_EQ(p.node(id).self_stats.frames, 0u);
    EXPECT_EQ(p.node(id).total_stats.frames, 0u);
  }
}

TEST(Profiler, Check10_MinAvgMax) {
  FakeProfiler f;
  const u64 pcts[] = {20, 40, 60};
  u64 t = 0;
  for (const u64 pct : pcts) {
    f.begin_frame(t);
    f.sample(kProfA, t + 1, t + 1 + pct);
    f.end_frame(t + 100);
    t += 100;
  }
  const Node& a = f.profiler().node(f.profiler().find("A"));
  EXPECT_DOUBLE_EQ(a.self_stats.avg, 40.0);
  EXPECT_DOUBLE_EQ(a.self_stats.min, 20.0);
  EXPECT_DOUBLE_EQ(a.self_stats.max, 60.0);
  EXPECT_EQ(a.self_stats.frames, 3u);
}

TEST(Profiler, Check11_SameFunctionTwoParents) {
  FakeProfiler f;
  f.begin_frame(0);
  f.enter(kProfA, 0);
  f.sample(kProfC, 10, 40);
  f.leave(kProfA, 50);
  f.enter(kProfB, 50);
  f.sample(kProfC, 60, 70);
  f.leave(kProfB, 80);
  f.end_frame(100);

  const Profiler& p = f.profiler();
  const NodeId ca = p.find("A/C");
  const NodeId cb = p.find("B/C");
  ASSERT_NE(ca, kNoNode);
  ASSERT_NE(cb, kNoNode);
  EXPECT_NE(ca, cb);
  EXPECT_EQ(p.node(ca).site, p.node(cb).site);
  EXPECT_EQ(p.node(ca).parent, p.find("A"));
  EXPECT_EQ(p.node(cb).parent, p.find("B"));
  EXPECT_DOUBLE_EQ(p.node(ca).total_pct, 30.0);
  EXPECT_DOUBLE_EQ(p.node(cb).total_pct, 10.0);
  EXPECT_EQ(p.node_count(), 5u);  // Frame, A, A/C, B, B/C
}

TEST(Profiler, D6_35_PerFrameAccumulation) {
  FakeProfiler f;
  f.begin_frame(0);
  f.sample(kProfF, 100, 110);
  f.sample(kProfF, 200, 220);
  f.sample(kProfF, 300, 330);
  f.end_frame(1000);
  const Profiler& p = f.profiler();
  const Node& fn = p.node(p.find("f"));
  EXPECT_EQ(fn.calls, 3u);
  EXPECT_EQ(fn.total_ticks, 60u);
  EXPECT_DOUBLE_EQ(fn.total_pct, 6.0);

  f.begin_frame(1000);
  EXPECT_EQ(fn.acc_calls, 0u);
  EXPECT_EQ(fn.acc_ticks, 0u);
}

TEST(Profiler, D6_36_PercentagesAreUnitFree) {
  for (const u64 scale : {u64{1}, u64{3}, u64{1000}}) {
    FakeProfiler f;
    f.begin_frame(0);
    f.enter(kProfA, 0);
    f.sample(kProfC, 100 * scale, 400 * scale);
    f.leave(kProfA, 700 * scale);
    f.end_frame(1000 * scale);
    const Profiler& p = f.profiler();
    EXPECT_DOUBLE_EQ(p.node(p.find("A")).total_pct, 70.0) << "scale " << scale;
    EXPECT_DOUBLE_EQ(p.node(p.find("A")).self_pct, 40.0) << "scale " << scale;
    EXPECT_DOUBLE_EQ(p.node(p.find("A/C")).total_pct, 30.0) << "scale " << scale;
  }
}

TEST(Profiler, D6_37_MinMaxAvgAcrossFrames) {
  // The inclusive statistics of a parent whose child varies: A = child + 10 ticks of its own.
  FakeProfiler f;
  u64 t = 0;
  for (const u64 child : {10, 30, 50}) {  // A at 20%, 40%, 60% of a 100-tick frame
    f.begin_frame(t);
    f.enter(kProfA, t);
    f.sample(kProfB, t + 5, t + 5 + child);
    f.leave(kProfA, t + 10 + child);
    f.end_frame(t + 100);
    t += 100;
  }
  const Node& a = f.profiler().node(f.profiler().find("A"));
  EXPECT_DOUBLE_EQ(a.total_stats.min, 20.0);
  EXPECT_DOUBLE_EQ(a.total_stats.max, 60.0);
  EXPECT_DOUBLE_EQ(a.total_stats.avg, 40.0);
  EXPECT_DOUBLE_EQ(a.self_stats.avg, 10.0);  // own time is 10% every frame
  EXPECT_DOUBLE_EQ(a.self_stats.min, 10.0);
}

TEST(Profiler, D6_38_InclusiveVsExclusive) {
  FakeProfiler f;
  f.begin_frame(0);
  f.enter(kProfA, 0);
  f.sample(kProfC, 100, 400);
  f.leave(kProfA, 700);
  f.end_frame(1000);
  const Profiler& p = f.profiler();
  const Node& a = p.node(p.find("A"));
  const Node& c = p.node(p.find("A/C"));
  EXPECT_DOUBLE_EQ(a.percent(Timing::kInclusive), 70.0);
  EXPECT_DOUBLE_EQ(c.percent(Timing::kInclusive), 30.0);
  EXPECT_DOUBLE_EQ(a.percent(Timing::kExclusive), 40.0);
  EXPECT_DOUBLE_EQ(c.percent(Timing::kExclusive), 30.0);

  // Inclusive totals can exceed 100% of the frame.
  FakeProfiler g;
  g.begin_frame(0);
  g.enter(kProfA, 0);
  g.sample(kProfC, 100, 400);
  g.leave(kProfA, 900);
  g.end_frame(1000);
  const Profiler& q = g.profiler();
  const f64 inclusive = q.node(q.find("A")).total_pct + q.node(q.find("A/C")).total_pct;
  const f64 exclusive = q.node(q.find("A")).self_pct + q.node(q.find("A/C")).self_pct;
  EXPECT_DOUBLE_EQ(inclusive, 120.0);
  EXPECT_DOUBLE_EQ(exclusive, 90.0);
}

TEST(Profiler, D6_42_ValueRecording) {
  FakeProfiler f;
  Profiler& p = f.profiler();
  f.begin_frame(0);
  u64 t = 10;
  for (const f64 vertices : {1.0, 1.0, 1.0, 100.0}) {
    f.enter(kProfF, t);
    p.record_value(kVertices, vertices);
    f.leave(kProfF, t + 5);
    t += 10;
  }
  f.end_frame(100);
  const NodeId fn = p.find("f");
  EXPECT_EQ(p.node(fn).calls, 4u);
  const ValueRecord* v = p.find_value(fn, "vertices");
  ASSERT_NE(v, nullptr);
  EXPECT_EQ(v->last_frame.count, 4u);
  EXPECT_DOUBLE_EQ(v->last_frame.min, 1.0);
  EXPECT_DOUBLE_EQ(v->last_frame.max, 100.0);
  EXPECT_DOUBLE_EQ(v->last_frame.avg(), 25.75);
  EXPECT_EQ(p.values(fn).size(), 1u);

  // The frame statistics restart; the overall ones keep accumulating until reset.
  f.begin_frame(100);
  f.enter(kProfF, 110);
  p.record_value(kVertices, 7.0);
  f.leave(kProfF, 120);
  f.end_frame(200);
  EXPECT_EQ(v->last_frame.count, 1u);
  EXPECT_DOUBLE_EQ(v->last_frame.avg(), 7.0);
  EXPECT_EQ(v->overall.count, 5u);
  EXPECT_DOUBLE_EQ(v->overall.max, 100.0);
  p.reset_node(fn);
  EXPECT_EQ(v->overall.count, 0u);
}

TEST(Profiler, D6_43_MismatchedEndIsReported) {
  constexpr Site kX{"x", __FILE__, __LINE__};
  constexpr Site kY{"y", __FILE__, __LINE__};
  FakeProfiler f;
  Profiler& p = f.profiler();
  f.begin_frame(0);
  f.enter(kY, 10);
  f.ticks().set(20);
  p.leave_named("x");  // "x" is not open at all: ignored, "y" stays open
  EXPECT_EQ(p.error_count(), 1u);
  EXPECT_TRUE(any_error_mentions(p, "'x'", "'y'"));
  EXPECT_EQ(p.node(p.current()).site, &kY);
  f.leave(kY, 30);
  f.end_frame(100);
  EXPECT_EQ(p.error_count(), 1u);
  EXPECT_EQ(p.node(p.find("y")).total_ticks, 20u);

  // END("x") while "y" (opened inside "x") is open: "y" was never ended; both are closed.
  f.begin_frame(100);
  f.enter(kX, 110);
  f.enter(kY, 120);
  f.ticks().set(150);
  p.leave_named("x");
  EXPECT_EQ(p.error_count(), 2u);
  EXPECT_TRUE(any_error_mentions(p, "missing end of 'y'", "'x'"));
  EXPECT_EQ(p.current(), kRootNode);
  f.end_frame(200);
  EXPECT_EQ(p.node(p.find("x")).total_ticks, 40u);
  EXPECT_EQ(p.node(p.find("x/y")).total_ticks, 30u);

  // A scoped end whose sample is not open at all.
  f.leave(kProfA, 210);
  EXPECT_EQ(p.error_count(), 3u);
  EXPECT_TRUE(any_error_mentions(p, "'A'", "without a matching begin"));
}

TEST(Profiler, D6_43_MissingEndAtFrameEndIsClosed) {
  FakeProfiler f;
  Profiler& p = f.profiler();
  f.begin_frame(0);
  f.enter(kProfA, 10);  // an early return skipped the end
  f.end_frame(100);
  EXPECT_EQ(p.error_count(), 1u);
  EXPECT_TRUE(any_error_mentions(p, "missing end of 'A'", "end_frame"));
  EXPECT_EQ(p.current(), kRootNode);
  EXPECT_EQ(p.node(p.find("A")).total_ticks, 90u);  // closed at the frame's end
  EXPECT_EQ(p.frame_count(), 1u);

  // The next frame works normally.
  f.begin_frame(100);
  f.sample(kProfA, 110, 120);
  f.end_frame(200);
  EXPECT_EQ(p.error_count(), 1u);
  EXPECT_DOUBLE_EQ(p.node(p.find("A")).total_pct, 10.0);
}

TEST(Profiler, FrameBoundaryMisuseIsReported) {
  FakeProfiler f;
  Profiler& p = f.profiler();
  f.end_frame(10);  // no frame open
  EXPECT_EQ(p.error_count(), 1u);
  EXPECT_EQ(p.frame_count(), 0u);
  f.begin_frame(20);
  f.begin_frame(50);  // the first frame is ended first
  EXPECT_EQ(p.error_count(), 2u);
  EXPECT_EQ(p.frame_count(), 1u);
  EXPECT_EQ(p.frame_ticks(), 30u);
  f.end_frame(80);
  EXPECT_EQ(p.frame_count(), 2u);
  p.clear_errors();
  EXPECT_EQ(p.error_count(), 0u);
  EXPECT_TRUE(p.errors().empty());
}

TEST(Profiler, KeptErrorsAreBounded) {
  FakeProfiler f;
  Profiler& p = f.profiler();
  for (int i = 0; i < 200; ++i) p.leave_named("nothing");
  EXPECT_EQ(p.error_count(), 200u);
  EXPECT_EQ(p.errors().size(), Profiler::kMaxKeptErrors);
}

TEST(Profiler, RecursionNestsDeeper) {
  FakeProfiler f;
  f.begin_frame(0);
  f.enter(kProfF, 0);
  f.enter(kProfF, 10);
  f.sample(kProfF, 20, 30);
  f.leave(kProfF, 40);
  f.leave(kProfF, 50);
  f.end_frame(100);
  const Profiler& p = f.profiler();
  EXPECT_EQ(p.error_count(), 0u);
  ASSERT_NE(p.find("f/f/f"), kNoNode);
  EXPECT_EQ(p.node(p.find("f/f/f")).depth, 3u);
  EXPECT_EQ(p.node(p.find("f")).total_ticks, 50u);
  EXPECT_EQ(p.node(p.find("f")).self_ticks, 20u);
  EXPECT_EQ(p.node(p.find("f/f")).self_ticks, 20u);
  EXPECT_EQ(p.node(p.find("f/f/f")).self_ticks, 10u);
}

TEST(Profiler, ChildLookupFollowsAnyOrder) {
  // The look-up caches must never return the wrong child, whatever the order of visits.
  constexpr Site kProfD{"D", __FILE__, __LINE__};
  const Site* order[] = {&kProfA, &kProfB, &kProfC, &kProfD, &kProfC, &kProfA,
                         &kProfD, &kProfD, &kProfB, &kProfA, &kProfC, &kProfB};
  FakeProfiler f;
  f.begin_frame(0);
  u64 t = 0;
  for (const Site* s : order) {
    f.sample(*s, t, t + 1);
    t += 2;
  }
  f.end_frame(100);
  const Profiler& p = f.profiler();
  EXPECT_EQ(p.node_count(), 5u);
  EXPECT_EQ(p.node(p.find("A")).calls, 3u);
  EXPECT_EQ(p.node(p.find("B")).calls, 3u);
  EXPECT_EQ(p.node(p.find("C")).calls, 3u);
  EXPECT_EQ(p.node(p.find("D")).calls, 3u);
  for (NodeId id = 1; id < p.node_count(); ++id) EXPECT_EQ(p.node(id).total_ticks, 3u);
}

TEST(Profiler, SteadyStateAddsNoNodes) {
  FakeProfiler f;
  for (u64 frame = 0; frame < 3; ++frame) {
    const u64 t = frame * 100;
    f.begin_frame(t);
    f.enter(kProfA, t + 1);
    f.sample(kProfB, t + 2, t + 3);
    f.sample(kProfC, t + 4, t + 5);
    f.leave(kProfA, t + 6);
    f.end_frame(t + 100);
    EXPECT_EQ(f.profiler().node_count(), 4u);
  }
}

TEST(Profiler, D6_44_EmptySampleMeasuresNonzeroWithRealTicks) {
  Profiler p(ProfilerOptions{.errors_to_stderr = false});
  EXPECT_EQ(&p.tick_source(), &CpuTickSource::instance());
  p.begin_frame();
  p.enter(kProfF);
  p.leave(kProfF);
  p.end_frame();
  EXPECT_GT(p.node(p.find("f")).total_ticks, 0u);
  EXPECT_GT(p.frame_ticks(), 0u);
  EXPECT_GT(CpuTickSource::instance().ns_per_tick(), 0.0);
}

TEST(Profiler, SamplesGoToTheTraceBuffer) {
  FakeProfiler f(FakeProfilerOptions{.trace_capacity = 64});
  f.begin_frame(0);
  f.enter(kProfA, 10);
  f.sample(kProfB, 20, 30);
  f.leave(kProfA, 40);
  f.end_frame(100);
  const ThreadTrace trace = f.trace()->snapshot();
  ASSERT_EQ(trace.events.size(), 3u);
  EXPECT_EQ(trace.events[0].site, &kProfB);
  EXPECT_EQ(trace.events[0].start, 20u);
  EXPECT_EQ(trace.events[0].end, 30u);
  EXPECT_EQ(trace.events[0].depth, 2u);
  EXPECT_EQ(trace.events[1].site, &kProfA);
  EXPECT_EQ(trace.events[1].depth, 1u);
  EXPECT_EQ(trace.events[2].site, &frame_site());
  EXPECT_EQ(trace.events[2].depth, 0u);
  EXPECT_EQ(trace.events[2].end, 100u);

  f.profiler().set_tracing(false);
  f.begin_frame(100);
  f.sample(kProfA, 110, 120);
  f.end_frame(200);
  EXPECT_EQ(f.trace()->recorded(), 3u);
}

TEST(Profiler, FindByPath) {
  FakeProfiler f;
  f.begin_frame(0);
  f.enter(kProfA, 0);
  f.sample(kProfB, 1, 2);
  f.leave(kProfA, 3);
  f.end_frame(10);
  const Profiler& p = f.profiler();
  EXPECT_EQ(p.find(""), kRootNode);
  EXPECT_EQ(p.find("A/B"), p.find_child(p.find("A"), "B"));
  EXPECT_EQ(p.find("A/X"), kNoNode);
  EXPECT_EQ(p.find("B"), kNoNode);
  const std::vector<NodeId> order = p.preorder();
  ASSERT_EQ(order.size(), 3u);
  EXPECT_EQ(order[0], kRootNode);
  EXPECT_EQ(order[1], p.find("A"));
  EXPECT_EQ(order[2], p.find("A/B"));
}

TEST(Profiler, ClockTickSourceOverFakeClock) {
  FakeClock clock(1000);
  const ClockTickSource ticks(clock);
  Profiler p(ProfilerOptions{.ticks = &ticks, .errors_to_stderr = false});
  p.begin_frame();
  clock.advance_ns(250);
  p.enter(kProfA);
  clock.advance_ns(500);
  p.leave(kProfA);
  clock.advance_ns(250);
  p.end_frame();
  EXPECT_EQ(p.frame_ticks(), 1000u);
  EXPECT_DOUBLE_EQ(p.node(p.find("A")).total_pct, 50.0);
  EXPECT_DOUBLE_EQ(p.tick_source().ns_per_tick(), 1.0);
}

TEST(Profiler, CpuTickSourceIsCalibrated) {
  const CpuTickSource& cpu = CpuTickSource::instance();
  const f64 ns_per_tick = cpu.ns_per_tick();
  EXPECT_GT(ns_per_tick, 0.001);  // a counter faster than 1 THz would be news
  EXPECT_LT(ns_per_tick, 1000.0);
  const u64 a = cpu.now();
  const u64 b = cpu.now();
  EXPECT_GE(b, a);
}

}  // namespace
}  // namespace keel::profile
