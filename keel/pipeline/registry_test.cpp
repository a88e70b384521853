// Check 58: dispatch by (platform, type); plug-ins register (platform, type, fn) triplets.
#include "keel/pipeline/registry.h"
#include "keel/pipeline/builder.h"
#include "keel/pipeline/detail/command_files.h"
#include "keel/pipeline/handlers/builtin_handlers.h"
#include "keel/pipeline/handlers/handler_support.h"
#include "keel/pipeline/testing/pipeline_fixture.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace keel::pipeline {
namespace {

namespace fs = std::filesystem;
using testing::Pipeline;
using testing::RecordingObserver;
using testing::TestProject;

bool build_pc_sound(BuildContext& ctx) {
  if (!ctx.set_output(ctx.command().params->text)) return false;
  return ctx.up_to_date() ||
         write_single_chunk(ctx, ctx.command().params->text, "Sound", as_bytes("pc"));
}
bool build_common_sound(BuildContext& ctx) {
  if (!ctx.set_output(ctx.command().params->text)) return false;
  return ctx.up_to_date() ||
         write_single_chunk(ctx, ctx.command().params->text, "Sound", as_bytes("common"));
}
bool build_nothing(BuildContext&) { return true; }

TEST_F(Pipeline, Check58_DispatchByPlatformAndType) {
  HandlerRegistry r;
  r.add(
      {.platform = "PC", .type = "Sound", .fn = build_pc_sound, .version = 1, .description = "pc"});
  EXPECT_EQ(r.find("PC", "Sound")->fn, build_pc_sound);
  EXPECT_EQ(r.find("pc", "SOUND")->fn, build_pc_sound);  // names are case-insensitive
  EXPECT_EQ(r.find("XBOX", "Sound"), nullptr);           // no handler for that platform
  EXPECT_EQ(r.find("PC", "Music"), nullptr);
  // A common handler serves every platform without its own.
  r.add({.platform = "common",
         .type = "Sound",
         .fn = build_common_sound,
         .version = 1,
         .description = "common"});
  EXPECT_EQ(r.find("XBOX", "Sound")->fn, build_common_sound);
  EXPECT_EQ(r.find("PC", "Sound")->fn, build_pc_sound);
  EXPECT_TRUE(r.take_problems().empty());

  // A second handler for the same pair is refused and reported.
  r.add(
      {.platform = "pc", .type = "sound", .fn = build_nothing, .version = 1, .description = "dup"});
  EXPECT_EQ(r.find("PC", "Sound")->fn, build_pc_sound);
  const std::vector<Error> problems = r.take_problems();
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_THAT(problems[0].message(), ::testing::HasSubstr("already registered"));
}

TEST_F(Pipeline, Check58_UnknownCommandIsAReportedError) {
  TestProject files(fs::path(KEEL_TEST_TMPDIR) / "pipeline" / "Check58");
  files.write("project.kproj", "Platform(\"PC\", \"XBOX\");\nDataFile(\"main.kcmd\");\n");
  files.write("main.kcmd", "Sound(\"boom\");\n");
  std::optional<Project> project = files.load();
  ASSERT_TRUE(project) << files.errors;
  HandlerRegistry handlers;
  handlers.add({.platform = "PC",
                .type = "Sound",
                .fn = build_pc_sound,
                .version = 1,
                .description = "pc only"});
  text::Diagnostics diag;
  CommandFiles pc = read_command_files(*project, "main.kcmd", "PC", handlers, diag);
  EXPECT_TRUE(pc.ok);
  ASSERT_EQ(pc.assets.size(), 1u);
  EXPECT_EQ(pc.assets[0].handler->fn, build_pc_sound);

  RecordingObserver observer;
  Builder builder(*project, handlers, {}, &observer);
  const DataFileReport r = builder.build("XBOX", "main.kcmd").value();
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.errors, 1u);
  EXPECT_THAT(observer.messages,
              ::testing::HasSubstr("main.kcmd:1:1: error: no handler for asset type `Sound` on "
                                   "platform XBOX (known types: none)"));
}

TEST_F(Pipeline, Check58_PluginRegistersTriplets) {
  HandlerRegistry r;
  register_builtin_handlers(r);
  const usize builtins = r.entries().size();
  ASSERT_TRUE(r.load_plugin(KEEL_TILEMAP_PLUGIN));
  ASSERT_EQ(r.entries().size(), builtins + 1);
  // The listing (keel-build handlers) shows the triplet and where it came from.
  const HandlerEntry& e = r.entries().back();
  EXPECT_EQ(e.platform, "common");
  EXPECT_EQ(e.type, "TileMap");
  EXPECT_EQ(e.version, 1u);
  EXPECT_EQ(e.origin, KEEL_TILEMAP_PLUGIN);
  EXPECT_NE(e.origin_hash, 0u);
  EXPECT_EQ(r.find("PC", "tilemap"), &e);
  // Built-ins are from the host.
  EXPECT_EQ(r.find("PC", "Blob")->origin, "built-in");
  EXPECT_EQ(r.find("PC", "Blob")->origin_hash, 0u);
  // The handler's identity covers the plug-in's content.
  EXPECT_EQ(e.key, e.compute_key());
  HandlerEntry changed = e;
  changed.origin_hash ^= 1;
  EXPECT_NE(changed.compute_key(), e.key);
  changed = e;
  changed.version = 2;
  EXPECT_NE(changed.compute_key(), e.key);
}

TEST_F(Pipeline, Check58_LibraryWithoutRegisterIsRefused) {
  HandlerRegistry r;
  Status s = r.load_plugin(KEEL_NOT_A_PLUGIN);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code(), ErrorCode::kNotFound);
  EXPECT_THAT(s.error().to_string(), ::testing::HasSubstr("no `keel_pipeline_register`"));
  EXPECT_TRUE(r.entries().empty());

  s = r.load_plugin(KEEL_WRONG_VERSION_PLUGIN);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code(), ErrorCode::kUnsupported);
  EXPECT_TRUE(r.entries().empty());

  // A plug-in built against interface 2 (before OutputFile::add_file_chunk) is refused with both
  // versions named and what to do.
  s = r.load_plugin(KEEL_OLD_VERSION_PLUGIN);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code(), ErrorCode::kUnsupported);
  EXPECT_NE(s.error().message().find("interface version 2, this build tool has version 3"),
            std::string::npos)
      << s.error().message();
  EXPECT_NE(s.error().message().find("rebuild the plug-in"), std::string::npos);
  EXPECT_TRUE(r.entries().empty());

  s = r.load_plugin(fs::path(KEEL_TEST_TMPDIR) / "no_such_plugin.so");
  EXPECT_FALSE(s);
}

TEST_F(Pipeline, FindPluginSearchesNamesAndPaths) {
  TestProject files(fs::path(KEEL_TEST_TMPDIR) / "pipeline" / "FindPlugin");
  files.write("a/libmine.so", "");
  files.write("b/mine.so", "");
  files.write("proj/local/x.so", "");
  const std::vector<fs::path> dirs = {files.path("a"), files.path("b")};
  // A bare name: <dir>/<name>.so first, then <dir>/lib<name>.so, directory by directory.
  EXPECT_EQ(*find_plugin("mine", files.path("proj"), dirs), files.path("a/libmine.so"));
  EXPECT_EQ(*find_plugin("mine", files.path("proj"), {files.path("b"), files.path("a")}),
            files.path("b/mine.so"));
  // A path: relative to the project folder.
  EXPECT_EQ(*find_plugin("local/x.so", files.path("proj"), dirs), files.path("proj/local/x.so"));
  Result<fs::path> missing = find_plugin("absent", files.path("proj"), dirs);
  ASSERT_FALSE(missing);
  EXPECT_THAT(missing.error().message(), ::testing::HasSubstr("--plugin-path"));
}

}  // namespace
}  // namespace keel::pipeline
