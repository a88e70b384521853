// Parallel builds (-j N): the same data file, byte for byte, as a one-thread build; no-op and
// incremental builds across threads; duplicate outputs caught whichever thread claims first.
// Also run under ThreadSanitizer.
#include "keel/pipeline/builder.h"
#include "keel/pipeline/handlers/builtin_handlers.h"
#include "keel/pipeline/testing/test_project.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace keel::pipeline {
namespace {

namespace fs = std::filesystem;
using testing::RecordingObserver;
using testing::TestProject;

void write_project(TestProject& files, int assets) {
  files.write("project.kproj",
              "Platform(\"PC\");\nIncludePath(\"src\");\nDataFile(\"main.kcmd\");\n");
  std::string commands;
  for (int i = 0; i < assets; ++i) {
    files.write(fmt::format("src/a{}.bin", i), fmt::format("asset {} {}", i, std::string(i, 'x')));
    commands += i % 3 == 0 ? fmt::format("Blob(\"a{0}\", \"a{0}.bin\") {{ Alignment(16); }}\n", i)
                           : fmt::format("Blob(\"a{0}\", \"a{0}.bin\");\n", i);
  }
  files.write("main.kcmd", commands);
}

TEST(PipelineThreads, ParallelBuildEqualsSerialBuild) {
  constexpr int kAssets = 64;
  TestProject serial(fs::path(KEEL_TEST_TMPDIR) / "pipeline" / "threads_serial");
  TestProject parallel(fs::path(KEEL_TEST_TMPDIR) / "pipeline" / "threads_parallel");
  write_project(serial, kAssets);
  write_project(parallel, kAssets);
  HandlerRegistry handlers;
  register_builtin_handlers(handlers);

  std::optional<Project> p1 = serial.load();
  std::optional<Project> p4 = parallel.load();
  ASSERT_TRUE(p1 && p4);
  Builder one(*p1, handlers, {.jobs = 1});
  RecordingObserver observer;
  Builder four(*p4, handlers, {.jobs = 4}, &observer);
  ASSERT_EQ(one.build("PC", "main.kcmd").value().built, static_cast<usize>(kAssets));
  DataFileReport r = four.build("PC", "main.kcmd").value();
  ASSERT_TRUE(r.ok) << observer.messages;
  EXPECT_EQ(r.built, static_cast<usize>(kAssets));
  EXPECT_EQ(observer.finished.size(), static_cast<usize>(kAssets));
  EXPECT_EQ(serial.read("build/image/PC/main.kpk"), parallel.read("build/image/PC/main.kpk"));

  // Incremental and no-op builds on four threads.
  parallel.write("src/a7.bin", "changed");
  r = four.build("PC", "main.kcmd").value();
  EXPECT_EQ(r.built, 1u);
  EXPECT_EQ(r.up_to_date, static_cast<usize>(kAssets - 1));
  EXPECT_TRUE(r.repacked);
  r = four.build("PC", "main.kcmd").value();
  EXPECT_EQ(r.built, 0u);
  EXPECT_FALSE(r.repacked);
}

TEST(PipelineThreads, DuplicateNamesAcrossThreads) {
  TestProject files(fs::path(KEEL_TEST_TMPDIR) / "pipeline" / "threads_duplicates");
  files.write("project.kproj",
              "Platform(\"PC\");\nIncludePath(\"src\");\nDataFile(\"main.kcmd\");\n");
  files.write("src/x.bin", "x");
  std::string commands;
  for (int i = 0; i < 16; ++i) commands += "Blob(\"same\", \"x.bin\");\n";
  files.write("main.kcmd", commands);
  std::optional<Project> project = files.load();
  ASSERT_TRUE(project);
  HandlerRegistry handlers;
  register_builtin_handlers(handlers);
  RecordingObserver observer;
  Builder builder(*project, handlers, {.jobs = 4}, &observer);
  const DataFileReport r = builder.build("PC", "main.kcmd").value();
  EXPECT_EQ(r.built, 1u);  // exactly one command wins the name
  EXPECT_EQ(r.failed, 15u);
  EXPECT_FALSE(r.repacked);
}

}  // namespace
}  // namespace keel::pipeline
