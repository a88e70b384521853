#include "keel/profile/report.h"

#include "keel/profile/testing/fake_profiler.h"
#include "keel/profile/testing/table91.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace keel::profile {
namespace {

using testing::kA;
using testing::kB;
using testing::kC;
using testing::kD;
using testing::kE;
using testing::kF;
using testing::kG;
using testing::run_table91_frame;

TEST(ProfileReport, Check12_LogTableLayout) {
  constexpr Site kLoop{"Kernel task loop", __FILE__, __LINE__};
  constexpr Site kRenderer{"Renderer", __FILE__, __LINE__};
  constexpr Site kServer{"Server", __FILE__, __LINE__};
  constexpr Site kFlush{"Flushing socketGroup", __FILE__, __LINE__};
  FakeProfiler f(FakeProfilerOptions{.root = &kLoop});
  // Frame 1: Renderer 5%, Server 20% containing Flushing 5% -> root self 75%, Server self 15%.
  f.begin_frame(0);
  f.sample(kRenderer, 100, 150);
  f.enter(kServer, 200);
  f.sample(kFlush, 250, 300);
  f.leave(kServer, 400);
  f.end_frame(1000);
  // Frame 2: Renderer 10% only. Frame 3: nothing profiled (root self 100%).
  f.begin_frame(1000);
  f.sample(kRenderer, 1100, 1200);
  f.end_frame(2000);
  f.begin_frame(2000);
  f.end_frame(3000);

  EXPECT_EQ(log_table(f.profiler()),
            "Min :   Avg :   Max :   # : Profile Name\n"
            "--------------------------------------------\n"
            " 75.0 :  88.3 : 100.0 :   1 : Kernel task loop\n"
            "  0.0 :   5.0 :  10.0 :   0 :  Renderer\n"
            "  0.0 :   5.0 :  15.0 :   0 :  Server\n"
            "  0.0 :   1.7 :   5.0 :   0 :   Flushing socketGroup\n");
}

TEST(ProfileReport, LogTableShowsCallsOfTheLastFrame) {
  FakeProfiler f;
  f.begin_frame(0);
  for (u64 i = 0; i < 12; ++i) f.sample(kA, 10 * i, 10 * i + 5);
  f.end_frame(1000);
  const std::string table = log_table(f.profiler());
  EXPECT_NE(table.find("  6.0 :   6.0 :   6.0 :  12 :  A\n"), std::string::npos) << table;
  // Inclusive variant: the root is always 100%.
  EXPECT_NE(
      log_table(f.profiler(), Timing::kInclusive).find("100.0 : 100.0 : 100.0 :   1 : Frame\n"),
      std::string::npos);
}

TEST(ProfileReport, D6_40_Table91Reproduction) {
  FakeProfiler f;
  run_table91_frame(f);
  EXPECT_EQ(tree_report(f.profiler()),
            "Frame 100%\n"
            "  A 70%\n"
            "    C 30%\n"
            "    D 39%\n"
            "      F 25%\n"
            "      G 15%\n"
            "  B 25%\n"
            "    C 12%\n"
            "    E 11%\n");
  const Profiler& p = f.profiler();
  EXPECT_EQ(p.node(p.find("A")).self_ticks, 6u);
  EXPECT_EQ(p.node(p.find("A/D")).total_ticks, 394u);
  EXPECT_EQ(p.error_count(), 0u);
}

TEST(ProfileReport, TreeReportOptions) {
  FakeProfiler f;
  run_table91_frame(f);
  TreeReportOptions options;
  options.timing = Timing::kExclusive;
  options.decimals = 1;
  options.indent = " ";
  options.show_calls = true;
  const std::string text = tree_report(f.profiler(), options);
  EXPECT_NE(text.find("Frame 5.0% (1 call)\n"), std::string::npos) << text;
  EXPECT_NE(text.find(" A 0.6% (1 call)\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  D 0.2% (1 call)\n"), std::string::npos) << text;
}

TEST(ProfileReport, TreeReportShowsValues) {
  constexpr ValueSite kCount{"n"};
  FakeProfiler f;
  f.begin_frame(0);
  f.enter(kA, 10);
  f.profiler().record_value(kCount, 2);
  f.profiler().record_value(kCount, 4);
  f.leave(kA, 20);
  f.end_frame(100);
  TreeReportOptions options;
  options.show_values = true;
  EXPECT_EQ(tree_report(f.profiler(), options), "Frame 100%\n  A 10% [n n=2 min=2 avg=3 max=4]\n");
}

TEST(ProfileReport, D6_39_FlatViewAggregatesContexts) {
  FakeProfiler f;
  run_table91_frame(f);
  const std::vector<FlatRow> rows = flat_view(f.profiler());
  std::vector<std::string> names;
  names.reserve(rows.size());
  for (const FlatRow& r : rows) names.emplace_back(r.name());
  // Sorted by self time: C 420, F 246, G 146, E 110, Frame 50, B 20, A 6, D 2.
  EXPECT_EQ(names, (std::vector<std::string>{"C", "F", "G", "E", "Frame", "B", "A", "D"}));
  const FlatRow& c = rows[0];
  EXPECT_EQ(c.nodes, 2u);
  EXPECT_EQ(c.calls, 2u);
  EXPECT_EQ(c.self_ticks, 420u);
  EXPECT_EQ(c.total_ticks, 420u);
  EXPECT_DOUBLE_EQ(c.self_pct, 42.0);
  // The tree keeps the two contexts apart.
  EXPECT_NE(f.profiler().find("A/C"), f.profiler().find("B/C"));

  const std::string text = flat_report(f.profiler());
  EXPECT_NE(text.find("   42.0 :    42.0 :      2 :      0.420 :      0.420 : C\n"),
            std::string::npos)
      << text;
}

TEST(ProfileReport, FlatViewCountsRecursiveTotalsOnce) {
  FakeProfiler f;
  f.begin_frame(0);
  f.enter(kA, 0);
  f.enter(kA, 10);
  f.sample(kA, 20, 30);
  f.leave(kA, 40);
  f.leave(kA, 50);
  f.end_frame(100);
  const std::vector<FlatRow> rows = flat_view(f.profiler());
  ASSERT_EQ(rows.size(), 2u);
  // Both have 50 ticks of self time: the tie is broken by name.
  EXPECT_STREQ(rows[0].name(), "A");
  EXPECT_STREQ(rows[1].name(), "Frame");
  EXPECT_EQ(rows[0].nodes, 3u);
  EXPECT_EQ(rows[0].calls, 3u);
  EXPECT_EQ(rows[0].self_ticks, 50u);
  EXPECT_EQ(rows[0].total_ticks, 50u);  // not 50 + 30 + 10
}

}  // namespace
}  // namespace keel::profile
