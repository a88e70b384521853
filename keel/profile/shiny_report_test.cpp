// The Citizen blog's Shiny report and exponential averaging (spec: enginuity-citizen.md §3,
// "The Citizen blog's report (Shiny profiler)").
#include "keel/profile/shiny_report.h"

#include "keel/core/file.h"
#include "keel/profile/report.h"
#include "keel/profile/testing/fake_profiler.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

namespace keel::profile {
namespace {

constexpr Site kShinyA{"A", __FILE__, __LINE__};
constexpr Site kShinyB{"B", __FILE__, __LINE__};
constexpr Site kRecurse{"recurse", __FILE__, __LINE__};

// Check 8's frame: root 0..100, A 10..40 containing B 20..30; one tick is one microsecond.
void run_check8_frame(FakeProfiler& f, u64 start) {
  f.begin_frame(start);
  f.enter(kShinyA, start + 10);
  f.sample(kShinyB, start + 20, start + 30);
  f.leave(kShinyA, start + 40);
  f.end_frame(start + 100);
}

std::string line_of(const std::string& text, const std::string& start) {
  const usize at = text.find("\n" + start);
  if (at == std::string::npos) return {};
  const usize end = text.find('\n', at + 1);
  return text.substr(at + 1, end - at - 1);
}

TEST(ShinyAveraging, MeanSaturatesTowardTheCurrentValue) {
  SmoothedStats s;
  s.add(100.0, 0.1);  // the first frame sets min, avg and max
  EXPECT_DOUBLE_EQ(s.avg, 100.0);
  s.add(0.0, 0.1);
  EXPECT_DOUBLE_EQ(s.avg, 90.0);
  s.add(0.0, 0.1);
  EXPECT_DOUBLE_EQ(s.avg, 81.0);
  for (int i = 0; i < 200; ++i) s.add(50.0, 0.1);
  EXPECT_NEAR(s.avg, 50.0, 1e-6);
}

TEST(ShinyAveraging, MinMaxExpandAtOnceAndShrinkTenTimesSlowerThanTheMean) {
  SmoothedStats s;
  s.add(10.0, 0.5);
  s.add(30.0, 0.5);  // above the span: max expands at once; min saturates at 0.5 / 10
  EXPECT_DOUBLE_EQ(s.max, 30.0);
  EXPECT_DOUBLE_EQ(s.min, 10.0 + 0.05 * 20.0);
  EXPECT_DOUBLE_EQ(s.avg, 20.0);
  s.add(20.0, 0.5);  // inside the span: both ends move toward it, ten times slower than avg
  EXPECT_DOUBLE_EQ(s.max, 30.0 - 0.05 * 10.0);
  EXPECT_DOUBLE_EQ(s.min, 11.0 + 0.05 * 9.0);
  EXPECT_DOUBLE_EQ(s.avg, 20.0);
  s.add(5.0, 0.5);  // below the span: min expands at once
  EXPECT_DOUBLE_EQ(s.min, 5.0);
  // After a long steady stretch the span has shrunk back around the steady value.
  for (int i = 0; i < 2000; ++i) s.add(20.0, 0.5);
  EXPECT_NEAR(s.min, 20.0, 1e-6);
  EXPECT_NEAR(s.max, 20.0, 1e-6);
}

TEST(ShinyAveraging, ProfilerKeepsBothAveragingsPerNode) {
  // Check 10's frames (A at 20%, 40%, 60% self) under both averagings, weight 0.5.
  FakeProfiler f(FakeProfilerOptions{.smoothing = 0.5});
  for (u64 frame = 0; frame < 3; ++frame) {
    const u64 t = frame * 100;
    f.begin_frame(t);
    f.sample(kShinyA, t, t + 20 * (frame + 1));
    f.end_frame(t + 100);
  }
  const SampleHistory& h = f.profiler().history(f.profiler().find("A"));
  EXPECT_DOUBLE_EQ(h.self_pct.mean.avg(), 40.0);
  EXPECT_DOUBLE_EQ(h.self_pct.mean.min, 20.0);
  EXPECT_DOUBLE_EQ(h.self_pct.mean.max, 60.0);
  EXPECT_DOUBLE_EQ(h.self_pct.smoothed.avg, 45.0);  // 20 -> 30 -> 45
  EXPECT_DOUBLE_EQ(h.self_pct.smoothed.min, 20.0 + 0.05 * 20.0 + 0.05 * (60.0 - 21.0));
  EXPECT_DOUBLE_EQ(h.self_pct.smoothed.max, 60.0);
  EXPECT_DOUBLE_EQ(h.hits.smoothed.avg, 1.0);
  EXPECT_DOUBLE_EQ(h.self_ticks.smoothed.avg, 45.0);
}

TEST(ShinyAveraging, LogTableOptionUsesExponentialAverages) {
  FakeProfiler f(FakeProfilerOptions{.smoothing = 0.5});
  f.begin_frame(0);
  f.sample(kShinyA, 0, 20);
  f.end_frame(100);
  f.begin_frame(100);
  f.sample(kShinyA, 100, 140);
  f.end_frame(200);
  const std::string running = log_table(f.profiler());
  const std::string shiny = log_table(f.profiler(), Timing::kExclusive, Averaging::kExponential);
  EXPECT_NE(running.find(" 20.0 :  30.0 :  40.0 :   1 :  A\n"), std::string::npos) << running;
  EXPECT_NE(shiny.find(" 21.0 :  30.0 :  40.0 :   1 :  A\n"), std::string::npos) << shiny;
}

TEST(ShinyReport, UnitsChosenAutomaticallyPerValue) {
  EXPECT_EQ(format_duration(0.0), "  0 ns");
  EXPECT_EQ(format_duration(-5.0), "  0 ns");
  EXPECT_EQ(format_duration(523.0), "523 ns");
  EXPECT_EQ(format_duration(999.4), "999 ns");
  EXPECT_EQ(format_duration(999.6), "  1 us");  // would round to "1000 ns"
  EXPECT_EQ(format_duration(78'000.0), " 78 us");
  EXPECT_EQ(format_duration(19'200'000.0), " 19 ms");
  EXPECT_EQ(format_duration(3.2e9), "  3 s ");
}

TEST(ShinyReport, FlatProfileAndCallTreeWithHitsSelfTotalAndMinMax) {
  FakeProfiler f(FakeProfilerOptions{.ns_per_tick = 1000.0});
  run_check8_frame(f, 0);
  EXPECT_EQ(shiny_report(f.profiler()),
            "flat profile  hits (min-max)       self time (min-max)                      total "
            "time (min-max)\n"
            "Frame           1.0 (  1.0-  1.0)   70 us ( 70 us- 70 us)  70% ( 70%- 70%)  100 us "
            "(100 us-100 us) 100% (100%-100%)\n"
            "A               1.0 (  1.0-  1.0)   20 us ( 20 us- 20 us)  20% ( 20%- 20%)   30 us "
            "( 30 us- 30 us)  30% ( 30%- 30%)\n"
            "B               1.0 (  1.0-  1.0)   10 us ( 10 us- 10 us)  10% ( 10%- 10%)   10 us "
            "( 10 us- 10 us)  10% ( 10%- 10%)\n"
            "\n"
            "call tree  hits (min-max)       self time (min-max)                      total "
            "time (min-max)\n"
            "Frame        1.0 (  1.0-  1.0)   70 us ( 70 us- 70 us)  70% ( 70%- 70%)  100 us "
            "(100 us-100 us) 100% (100%-100%)\n"
            "  A          1.0 (  1.0-  1.0)   20 us ( 20 us- 20 us)  20% ( 20%- 20%)   30 us "
            "( 30 us- 30 us)  30% ( 30%- 30%)\n"
            "    B        1.0 (  1.0-  1.0)   10 us ( 10 us- 10 us)  10% ( 10%- 10%)   10 us "
            "( 10 us- 10 us)  10% ( 10%- 10%)\n");
}

TEST(ShinyReport, SpansShowTheFrameToFrameVariation) {
  // A takes 10 us, then 2 ms: each value of the span picks its own unit.
  FakeProfiler f(FakeProfilerOptions{.ns_per_tick = 1000.0, .smoothing = 0.5});
  f.begin_frame(0);
  f.sample(kShinyA, 0, 10);
  f.end_frame(10'000);
  f.begin_frame(10'000);
  f.sample(kShinyA, 10'000, 12'000);
  f.end_frame(20'000);
  const std::string flat = shiny_report(f.profiler(), {.tree = false});
  // avg 1005 us -> "  1 ms"; min 10 + 0.05 * 1990 = 109.5 us; max 2 ms.
  EXPECT_NE(line_of(flat, "A ").find("  1 ms (110 us-  2 ms)"), std::string::npos) << flat;
}

TEST(ShinyReport, FlatProfileMergesCallingContextsAndSortsBySelfTime) {
  constexpr Site kShinyC{"C", __FILE__, __LINE__};
  FakeProfiler f;
  f.begin_frame(0);
  f.enter(kShinyA, 0);
  f.sample(kShinyC, 0, 30);
  f.leave(kShinyA, 40);
  f.enter(kShinyB, 40);
  f.sample(kShinyC, 40, 80);
  f.leave(kShinyB, 90);
  f.end_frame(100);
  const std::string flat = shiny_report(f.profiler(), {.tree = false});
  // C: two contexts, 2 hits, 70 ticks; A self 10, B self 10; root self 10.
  EXPECT_NE(line_of(flat, "C ").find("  2.0 (  2.0-  2.0)   70 ns"), std::string::npos) << flat;
  EXPECT_LT(flat.find("\nC "), flat.find("\nA ")) << flat;
  EXPECT_LT(flat.find("\nA "), flat.find("\nB ")) << flat;  // ties by name
  const std::string unsorted = shiny_report(f.profiler(), {.tree = false, .sort_by_self = false});
  EXPECT_LT(unsorted.find("\nFrame"), unsorted.find("\nA ")) << unsorted;
  EXPECT_LT(unsorted.find("\nA "), unsorted.find("\nC ")) << unsorted;
  // The tree keeps the two contexts apart (check 11).
  const std::string tree = shiny_report(f.profiler(), {.flat = false});
  EXPECT_NE(tree.find("\n    C        1.0 (  1.0-  1.0)   30 ns"), std::string::npos) << tree;
  EXPECT_NE(tree.find("\n    C        1.0 (  1.0-  1.0)   40 ns"), std::string::npos) << tree;
}

TEST(ShinyReport, RecursionCountsTotalTimeOnceInTheFlatProfile) {
  FakeProfiler f;
  f.begin_frame(0);
  f.enter(kRecurse, 0);
  f.sample(kRecurse, 10, 30);
  f.leave(kRecurse, 50);
  f.end_frame(100);
  const Zone& z = f.profiler().zones().at(1);
  EXPECT_STREQ(z.name(), "recurse");
  EXPECT_EQ(z.nodes, 2u);
  EXPECT_EQ(z.calls, 2u);
  EXPECT_EQ(z.self_ticks, 50u);
  EXPECT_EQ(z.total_ticks, 50u);
}

TEST(ShinyReport, RunningMeanOption) {
  FakeProfiler f;
  for (u64 frame = 0; frame < 3; ++frame) {
    const u64 t = frame * 100;
    f.begin_frame(t);
    f.sample(kShinyA, t, t + 20 * (frame + 1));
    f.end_frame(t + 100);
  }
  const std::string flat =
      shiny_report(f.profiler(), {.tree = false, .averaging = Averaging::kRunningMean});
  EXPECT_NE(line_of(flat, "A ").find(" 40 ns ( 20 ns- 60 ns)  40% ( 20%- 60%)"), std::string::npos)
      << flat;
}

TEST(ShinyReport, NameColumnWidthOptionCutsLongNames) {
  constexpr Site kLong{"a_rather_long_function_name", __FILE__, __LINE__};
  FakeProfiler f;
  f.begin_frame(0);
  f.sample(kLong, 0, 10);
  f.end_frame(100);
  const std::string flat = shiny_report(f.profiler(), {.tree = false, .name_width = 8});
  EXPECT_NE(flat.find("\na_rather    1.0"), std::string::npos) << flat;
  EXPECT_EQ(flat.find("function"), std::string::npos) << flat;
}

TEST(ShinyReport, WrittenToAFileAtomicallyOnRequest) {
  const std::filesystem::path dir = std::filesystem::path(KEEL_TEST_TMPDIR) / "shiny";
  std::filesystem::create_directories(dir);
  const std::filesystem::path path = dir / "profile.txt";
  ASSERT_TRUE(write_report(path, "old report\n"));
  FakeProfiler f;
  run_check8_frame(f, 0);
  const std::string report = shiny_report(f.profiler());
  ASSERT_TRUE(write_report(path, report));
  Result<std::string> back = read_file(path);
  ASSERT_TRUE(back);
  EXPECT_EQ(*back, report);
  // No temporary file is left beside it.
  usize files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    files += entry.is_regular_file();
  EXPECT_EQ(files, 1u);
  // An impossible target is an error, not a crash.
  EXPECT_FALSE(write_report(dir / "missing_dir" / "x.txt", report));
}

}  // namespace
}  // namespace keel::profile
