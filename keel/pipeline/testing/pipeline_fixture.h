// The fixture of the pipeline's tests (suite "Pipeline"): a scratch project per test with the
// standard layout of builder_test.cpp, and a few test handlers.
#pragma once

#include "keel/pipeline/builder.h"
#include "keel/pipeline/handlers/builtin_handlers.h"
#include "keel/pipeline/handlers/handler_support.h"
#include "keel/pipeline/testing/test_project.h"

#include <gtest/gtest.h>

#include <atomic>
#include <optional>
#include <string>
#include <vector>

namespace keel::pipeline::testing {

namespace fs = std::filesystem;

// ---- test handlers ------------------------------------------------------------------------

inline std::atomic<int> g_counted_builds{0};
inline std::string
    g_counted_suffix;  // what "the handler's code" appends: a new version writes "v2"

// Counted("name"): one chunk holding the name; counts how often it really builds.
inline bool build_counted(BuildContext& ctx) {
  const text::Token& cmd = ctx.command();
  if (!ctx.check(cmd, {text::kString})) return false;
  if (!ctx.set_output(cmd.params->text)) return false;
  if (ctx.up_to_date()) return true;
  ++g_counted_builds;
  const std::string bytes = std::string(cmd.params->text) + g_counted_suffix;
  return write_single_chunk(ctx, cmd.params->text, "Counted", as_bytes(bytes));
}

// Skip("name"): succeeds without declaring an output.
inline bool build_skip(BuildContext&) { return true; }

// Fail("why"): reports an error.
inline bool build_fail(BuildContext& ctx) {
  ctx.error(ctx.command(), std::string(ctx.command().params->text));
  return false;
}

inline void add_test_handlers(HandlerRegistry& r, u32 counted_version = 1) {
  register_builtin_handlers(r);
  r.add(
      {.type = "Counted", .fn = build_counted, .version = counted_version, .description = "test"});
  r.add({.type = "Skip", .fn = build_skip, .version = 1, .description = "test"});
  r.add({.type = "Fail", .fn = build_fail, .version = 1, .description = "test"});
}

// The standard test project: two data files; main pulls in sub.kcmd.
class Pipeline : public ::testing::Test {
 public:
  Pipeline()
      : files_(fs::path(KEEL_TEST_TMPDIR) / "pipeline" /
               ::testing::UnitTest::GetInstance()->current_test_info()->name()) {
    files_.write("project.kproj",
                 "Project(\"test\");\n"
                 "IntermediatePath(\"obj\");\n"
                 "ImagePath(\"image\");\n"
                 "Platform(\"PC\", \"XBOX\");\n"
                 "IncludePath(\"src\");\n"
                 "DataFile(\"main.kcmd\", \"other.kcmd\");\n");
    files_.write("main.kcmd",
                 "// the main data file\n"
                 "Blob(\"face\", \"face.tga\");\n"
                 "Blob(\"hero\", \"hero.bin\");\n"
                 "AddFile(\"sub.kcmd\");\n");
    files_.write("sub.kcmd", "Blob(\"sky\", \"sky.bin\");\n");
    files_.write("other.kcmd", "Blob(\"menu\", \"menu.bin\");\n");
    files_.write("src/face.tga", "FACE-v1");
    files_.write("src/hero.bin", "HERO-v1");
    files_.write("src/sky.bin", "SKY-v1");
    files_.write("src/menu.bin", "MENU-v1");
    add_test_handlers(handlers_);
  }

  Project& project() {
    if (!project_) {
      project_ = files_.load();
      EXPECT_TRUE(project_) << files_.errors;
    }
    return *project_;
  }
  void reload() { project_.reset(); }

  DataFileReport build(BuildOptions options = {}, std::string_view file = "main.kcmd",
                       std::string_view platform = "PC") {
    RecordingObserver observer;
    Builder builder(project(), handlers_, options, &observer);
    DataFileReport r = builder.build(platform, file).value();
    created_ = builder.outputs_created();
    messages_ = observer.messages;
    finished_ = observer.finished;
    return r;
  }

  fs::file_time_type mtime(std::string_view rel) { return fs::last_write_time(files_.path(rel)); }

  TestProject files_;
  HandlerRegistry handlers_;
  std::optional<Project> project_;
  usize created_ = 0;
  std::string messages_;
  std::vector<std::string> finished_;
};

}  // namespace keel::pipeline::testing
