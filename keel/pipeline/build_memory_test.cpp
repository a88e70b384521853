// Peak memory of a no-op keel-build does not grow with the size of a Blob source: projects with
// a 40 MB and a 160 MB source (in the test folder, deleted after) are built, then the no-op build
// (which re-hashes the racy source, intermediate and data file) runs in a forked child whose peak
// RSS (VmHWM, reset through /proc/self/clear_refs) is compared.
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
constexpr u64 kMiB = u64{1} << 20;

u64 status_bytes(const char* field) {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.starts_with(field)) return std::stoull(line.substr(std::string(field).size())) * 1024;
  }
  return 0;
}

// How far the peak RSS rose above the RSS at the start while `work` ran in a forked child;
// nullopt where the kernel cannot reset the peak. (Same helper as keel/pack's memory test.)
std::optional<u64> peak_growth(const std::function<bool()>& work) {
  int fds[2];
  if (::pipe(fds) != 0) return std::nullopt;
  const pid_t child = ::fork();
  if (child == 0) {
    ::close(fds[0]);
    u64 result = ~u64{0};
    std::FILE* f = std::fopen("/proc/self/clear_refs", "w");
    const bool reset = f != nullptr && std::fputs("5", f) >= 0 && std::fclose(f) == 0;
    if (reset) {
      const u64 before = status_bytes("VmRSS:");
      if (work()) {
        const u64 peak = status_bytes("VmHWM:");
        result = peak > before ? peak - before : 0;
      } else {
        result = ~u64{0} - 1;
      }
    }
    [[maybe_unused]] auto n = ::write(fds[1], &result, sizeof result);
    ::_exit(0);
  }
  ::close(fds[1]);
  u64 result = ~u64{0};
  const bool got = ::read(fds[0], &result, sizeof result) == sizeof result;
  ::close(fds[0]);
  int status = 0;
  ::waitpid(child, &status, 0);
  EXPECT_NE(result, ~u64{0} - 1) << "the build failed in the child";
  if (!got || result >= ~u64{0} - 1) return std::nullopt;
  return result;
}

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

TEST(BuildMemory, NoOpBuildPeakDoesNotGrowWithSourceSize) {
  const fs::path root = fs::path(KEEL_TEST_TMPDIR) / "build_memory";
  std::optional<u64> growth[2];
  const u64 sizes[2] = {40 * kMiB, 160 * kMiB};
  for (int i = 0; i < 2; ++i) {
    testing::TestProject files(root / std::to_string(i));
    make_project(files, sizes[i]);
    ASSERT_TRUE(build_once(files)) << files.errors;
    growth[i] = peak_growth([&] { return build_once(files); });
    if (!growth[i]) GTEST_SKIP() << "cannot reset the peak RSS here (/proc/self/clear_refs)";
  }
  EXPECT_LE(*growth[1], *growth[0] + 16 * kMiB)
      << "no-op build: 40 MB source +" << *growth[0] / kMiB << " MiB, 160 MB source +"
      << *growth[1] / kMiB << " MiB";
  EXPECT_LE(*growth[1], 32 * kMiB);
  fs::remove_all(root);
}

}  // namespace
}  // namespace keel::pipeline
