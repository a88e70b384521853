// The macros with profiling compiled out: this file undefines KEEL_ENABLE_PROFILING before the
// header, as a build with -DKEEL_PROFILING=OFF would.
#undef KEEL_ENABLE_PROFILING
#include "keel/profile/profile.h"

#include <gtest/gtest.h>

#include <string_view>

namespace keel::profile {
namespace {

#define KEEL_TEST_STR_(...) #__VA_ARGS__
#define KEEL_TEST_STR(...) KEEL_TEST_STR_(__VA_ARGS__)

int g_evaluations = 0;

int counted() {
  ++g_evaluations;
  return 7;
}

TEST(ProfileMacrosOff, D6_34_CompiledOutExpandsToNothing) {
  EXPECT_STREQ(KEEL_TEST_STR(KEEL_PROFILE("x")), "");
  EXPECT_STREQ(KEEL_TEST_STR(KEEL_PROFILE_FUNCTION()), "");
  EXPECT_STREQ(KEEL_TEST_STR(KEEL_PROFILE_BEGIN("x")), "static_cast<void>(0)");
  EXPECT_STREQ(KEEL_TEST_STR(KEEL_PROFILE_END("x")), "static_cast<void>(0)");
  EXPECT_STREQ(KEEL_TEST_STR(KEEL_PROFILE_FRAME_BEGIN()), "static_cast<void>(0)");
  EXPECT_STREQ(KEEL_TEST_STR(KEEL_PROFILE_FRAME_END()), "static_cast<void>(0)");
  EXPECT_STREQ(KEEL_TEST_STR(KEEL_PROFILE_VALUE("n", counted())),
               "static_cast<void>(sizeof(counted()))");
  EXPECT_STREQ(KEEL_TEST_STR(KEEL_PROFILE_CALL(r = f(), "f")), "(r = f())");
}

TEST(ProfileMacrosOff, D6_34_CallStillEvaluatesTheExpression) {
  Profiler& p = this_thread();
  const usize nodes = p.node_count();
  const u64 frames = p.frame_count();
  g_evaluations = 0;
  int result = 0;
  {
    KEEL_PROFILE("off");
    KEEL_PROFILE_FUNCTION();
    KEEL_PROFILE_BEGIN("off pair");
    KEEL_PROFILE_CALL(result = counted(), "counted");
    const int direct = KEEL_PROFILE_CALL(counted(), "counted");
    EXPECT_EQ(direct, 7);
    KEEL_PROFILE_VALUE("n", counted());  // not evaluated
    KEEL_PROFILE_END("off pair");
    KEEL_PROFILE_FRAME_BEGIN();
    KEEL_PROFILE_FRAME_END();
  }
  EXPECT_EQ(result, 7);
  EXPECT_EQ(g_evaluations, 2);
  EXPECT_EQ(p.node_count(), nodes);  // nothing reached the profiler
  EXPECT_EQ(p.frame_count(), frames);
}

}  // namespace
}  // namespace keel::profile
