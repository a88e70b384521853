// Peak memory of keel-build does not grow with the size of a Blob source: projects with a 40 MB
// and a 160 MB source (in the test folder, deleted after) get a full build, then a no-op build
// (which re-hashes the racy source, intermediate and data file), each in a forked child whose
// peak RSS (VmHWM, reset through /proc/self/clear_refs) is compared. The full build streams the
// source into the intermediate and the intermediate into the data file (issue 15: "a full build
// within 2x its largest block"; it used to hold the source, the chunk and the block at once).
#include "keel/core/testing/peak_memory.h"
#include "keel/pipeline/builder.h"
#include "keel/pipeline/testing/test_project.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <functional>
#include <optional>
#include <string>

namespace keel::pipeline {
namespace {

namespace fs = std::filesystem;
using keel::testing::kMiB;
using keel::testing::peak_growth;

// The project with one Blob of `size` bytes, built once.
void make_project(testing::TestProject& files, u64 size) {
  files.write("project.kproj",
              "Project(\"big\");\nIntermediatePath(\"obj\");\nImagePath(\"image\");\n"
              "Platform(\"PC\");\nIncludePath(\"src\");\nDataFile(\"main.kcmd\");\n");
  files.write("main.kcmd", "Blob(\"big\", \"big.bin\");\n");
  std::string content(size, '\0');
  for (usize i = 0; i < content.size(); i += 4096) content[i] = static_cast<char>(i >> 12);
  files.write("src/big.bin", content);
}

bool build_once(testing::TestProject& files) {
  std::optional<Project> project = files.load();
  if (!project) return false;
  HandlerRegistry handlers;
  testing::add_builtins(handlers);
  Builder builder(*project, handlers, {}, nullptr);
  Result<DataFileReport> r = builder.build("PC", "main.kcmd");
  return r && r->ok;
}

TEST(BuildMemory, FullAndNoOpBuildPeaksDoNotGrowWithSourceSize) {
  const fs::path root = fs::path(KEEL_TEST_TMPDIR) / "build_memory";
  std::optional<u64> full[2];
  std::optional<u64> growth[2];
  const u64 sizes[2] = {40 * kMiB, 160 * kMiB};
  for (int i = 0; i < 2; ++i) {
    testing::TestProject files(root / std::to_string(i));
    make_project(files, sizes[i]);
    full[i] = peak_growth([&] { return build_once(files); });  // the child's build stays on disk
    if (!full[i]) {
      ASSERT_TRUE(build_once(files)) << files.errors;
      GTEST_SKIP() << "cannot reset the peak RSS here (/proc/self/clear_refs)";
    }
    ASSERT_TRUE(fs::exists(files.path("image/PC/main.kpk")));
    growth[i] = peak_growth([&] { return build_once(files); });
    ASSERT_TRUE(growth[i]);
  }
  std::printf("full build peak growth: 40 MB Blob +%llu MiB, 160 MB Blob +%llu MiB\n",
              static_cast<unsigned long long>(*full[0] / kMiB),
              static_cast<unsigned long long>(*full[1] / kMiB));
  EXPECT_LE(*full[1], *full[0] + 16 * kMiB) << "full build: 40 MB source +" << *full[0] / kMiB
                                            << " MiB, 160 MB source +" << *full[1] / kMiB << " MiB";
  EXPECT_LE(*full[1], sizes[1] / 2 + 64 * kMiB);
  EXPECT_LE(*growth[1], *growth[0] + 16 * kMiB)
      << "no-op build: 40 MB source +" << *growth[0] / kMiB << " MiB, 160 MB source +"
      << *growth[1] / kMiB << " MiB";
  EXPECT_LE(*growth[1], 32 * kMiB);
  fs::remove_all(root);
}

}  // namespace
}  // namespace keel::pipeline
