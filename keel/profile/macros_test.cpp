// The macros with profiling compiled in (the build defines KEEL_ENABLE_PROFILING=1 unless the
// CMake option KEEL_PROFILING is OFF), on the calling thread's profiler. That profiler is shared by
// every test on this thread, so each test looks only at its own nodes and at error-count
// differences.
#include "keel/profile/profile.h"

#include <gtest/gtest.h>

#include <string>

namespace keel::profile {
namespace {

#if defined(KEEL_ENABLE_PROFILING) && KEEL_ENABLE_PROFILING

int g_calls = 0;

int profiled_fn() {
  ++g_calls;
  return 42;
}

void named_function() { KEEL_PROFILE_FUNCTION(); }

void transform(int vertices) {
  KEEL_PROFILE("transform");
  KEEL_PROFILE_VALUE("vertices", vertices);
}

int early_return(bool leave_early) {
  KEEL_PROFILE_BEGIN("early");
  if (leave_early) return 1;  // skips the end: detected
  KEEL_PROFILE_END("early");
  return 0;
}

TEST(ProfileMacros, D6_34_CallIsProfiledAndEvaluated) {
  Profiler& p = this_thread();
  g_calls = 0;
  int result = 0;
  begin_frame();
  KEEL_PROFILE_CALL(result = profiled_fn(), "profiled_fn");  // the book's PROFILEFN form
  const int direct = KEEL_PROFILE_CALL(profiled_fn(), "profiled_fn direct");
  KEEL_PROFILE_CALL(named_function(), "void call");
  end_frame();
  EXPECT_EQ(result, 42);
  EXPECT_EQ(direct, 42);
  EXPECT_EQ(g_calls, 2);
  ASSERT_NE(p.find("profiled_fn"), kNoNode);
  EXPECT_EQ(p.node(p.find("profiled_fn")).calls, 1u);
  EXPECT_EQ(p.node(p.find("profiled_fn direct")).calls, 1u);
  EXPECT_EQ(p.node(p.find("void call/named_function")).calls, 1u);
}

TEST(ProfileMacros, ScopedSamplesBuildTheTree) {
  Profiler& p = this_thread();
  const u64 errors = p.error_count();
  begin_frame();
  {
    KEEL_PROFILE("outer");
    for (int i = 0; i < 3; ++i) {
      KEEL_PROFILE("inner");
      named_function();
    }
  }
  end_frame();
  EXPECT_EQ(p.error_count(), errors);
  EXPECT_EQ(p.node(p.find("outer")).calls, 1u);
  EXPECT_EQ(p.node(p.find("outer/inner")).calls, 3u);
  EXPECT_EQ(p.node(p.find("outer/inner/named_function")).calls, 3u);
  EXPECT_GE(p.node(p.find("outer")).total_ticks, p.node(p.find("outer/inner")).total_ticks);
  EXPECT_EQ(p.current(), kRootNode);
}

TEST(ProfileMacros, BeginEndPair) {
  Profiler& p = this_thread();
  const u64 errors = p.error_count();
  begin_frame();
  KEEL_PROFILE_BEGIN("pair");
  KEEL_PROFILE_BEGIN("pair inner");
  KEEL_PROFILE_END("pair inner");
  KEEL_PROFILE_END("pair");
  end_frame();
  EXPECT_EQ(p.error_count(), errors);
  EXPECT_EQ(p.node(p.find("pair/pair inner")).calls, 1u);
}

TEST(ProfileMacros, D6_43_EarlyReturnIsDetected) {
  Profiler& p = this_thread();
  const u64 errors = p.error_count();
  begin_frame();
  EXPECT_EQ(early_return(false), 0);
  EXPECT_EQ(p.error_count(), errors);
  EXPECT_EQ(early_return(true), 1);
  end_frame();  // "early" is still open: reported and closed
  EXPECT_EQ(p.error_count(), errors + 1);
  EXPECT_NE(p.errors().back().find("missing end of 'early'"), std::string::npos);
  EXPECT_EQ(p.node(p.find("early")).calls, 2u);
  EXPECT_EQ(p.current(), kRootNode);
}

TEST(ProfileMacros, D6_42_ValueMacro) {
  Profiler& p = this_thread();
  begin_frame();
  for (const int n : {1, 1, 1, 100}) transform(n);
  end_frame();
  const NodeId node = p.find("transform");
  ASSERT_NE(node, kNoNode);
  EXPECT_EQ(p.node(node).calls, 4u);
  const ValueRecord* v = p.find_value(node, "vertices");
  ASSERT_NE(v, nullptr);
  EXPECT_EQ(v->last_frame.count, 4u);
  EXPECT_DOUBLE_EQ(v->last_frame.min, 1.0);
  EXPECT_DOUBLE_EQ(v->last_frame.max, 100.0);
  EXPECT_DOUBLE_EQ(v->last_frame.avg(), 25.75);
}

TEST(ProfileMacros, D6_44_EmptyProfiledFunctionIsNonzero) {
  Profiler& p = this_thread();
  begin_frame();
  named_function();
  end_frame();
  EXPECT_GT(p.node(p.find("named_function")).total_ticks, 0u);
}

TEST(ProfileMacros, FrameMacros) {
  Profiler& p = this_thread();
  const u64 frames = p.frame_count();
  KEEL_PROFILE_FRAME_BEGIN();
  KEEL_PROFILE_FRAME_END();
  EXPECT_EQ(p.frame_count(), frames + 1);
}

#else  // built with -DKEEL_PROFILING=OFF: macros_off_test.cpp covers the macros

TEST(ProfileMacros, SkippedWhenProfilingIsCompiledOut) {
  GTEST_SKIP() << "KEEL_ENABLE_PROFILING is off in this build";
}

#endif

}  // namespace
}  // namespace keel::profile
