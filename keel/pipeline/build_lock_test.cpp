// Issue 15: two keel-build runs on one project at once; temporaries a killed build left behind.
#include "keel/pipeline/build_lock.h"

#include "keel/pipeline/builder.h"
#include "keel/pipeline/testing/test_project.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <unistd.h>

#include <optional>

namespace keel::pipeline {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

class PipelineBuildLock : public ::testing::Test {
 protected:
  void SetUp() override {
    files_.write("project.kproj", "Platform(\"PC\");\nDataFile(\"main.kcmd\");\n");
    project_ = files_.load();
    ASSERT_TRUE(project_) << files_.errors;
  }
  // One folder per test: CTest runs this suite's tests in parallel processes.
  testing::TestProject files_{fs::path("test_tmp") / "build_lock" /
                              ::testing::UnitTest::GetInstance()->current_test_info()->name()};
  std::optional<Project> project_;
};

TEST_F(PipelineBuildLock, SecondBuildIsRefusedWithThePid) {
  Result<BuildLock> first = BuildLock::acquire(*project_, BuildLock::Wait::kNo);
  ASSERT_TRUE(first) << first.error().to_string();
  EXPECT_EQ(first->stale_build(), 0u);
  Result<BuildLock> second = BuildLock::acquire(*project_, BuildLock::Wait::kNo);
  ASSERT_FALSE(second);
  EXPECT_EQ(second.error().code(), ErrorCode::kRefused);
  EXPECT_EQ(second.error().message(),
            fmt::format("another keel-build is running on this project (pid {})", ::getpid()));
  first = Result<BuildLock>(Unexpected(Error(ErrorCode::kRefused, "released")));
  Result<BuildLock> third = BuildLock::acquire(*project_, BuildLock::Wait::kNo);
  ASSERT_TRUE(third) << third.error().to_string();
  EXPECT_EQ(third->stale_build(), 0u) << "the first lock ended cleanly";
}

TEST_F(PipelineBuildLock, StaleTemporariesOfDeadProcessesAreRemoved) {
  // A pid far above pid_max (4194304 at most on Linux) never runs.
  const std::string dead = "main.kpk.tmp.2147483000.1.0badc0de";
  const std::string alive = fmt::format("main.kpk.tmp.{}.1.0badc0de", ::getpid());
  files_.write("build/image/PC/" + dead, "half a pack");
  files_.write("build/image/PC/" + alive, "being written");
  files_.write("build/image/PC/notes.tmp.txt", "not a temporary of ours");
  files_.write("build/obj/PC/main/Blob/hero.kpk.tmp.2147483000", "old-style name");
  EXPECT_EQ(remove_stale_temporaries(*project_), 2u);
  EXPECT_FALSE(files_.exists("build/image/PC/" + dead));
  EXPECT_FALSE(files_.exists("build/obj/PC/main/Blob/hero.kpk.tmp.2147483000"));
  EXPECT_TRUE(files_.exists("build/image/PC/" + alive));
  EXPECT_TRUE(files_.exists("build/image/PC/notes.tmp.txt"));
  // clean removes them too.
  files_.write("build/image/PC/" + dead, "half a pack");
  Result<CleanReport> cleaned = clean(*project_);
  ASSERT_TRUE(cleaned) << cleaned.error().to_string();
  EXPECT_FALSE(files_.exists("build/image/PC/" + dead));
}

TEST_F(PipelineBuildLock, ALockFileNamingAProcessMeansAnInterruptedBuild) {
  files_.write("build/obj/build.lock", "2147483000\n");  // what kill -9 leaves
  Result<BuildLock> lock = BuildLock::acquire(*project_, BuildLock::Wait::kNo);
  ASSERT_TRUE(lock) << lock.error().to_string();
  EXPECT_EQ(lock->stale_build(), 2147483000u);
}

}  // namespace
}  // namespace keel::pipeline
