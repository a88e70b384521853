// Check 57: include-path search order.
#include "keel/pipeline/include_paths.h"
#include "keel/pipeline/builder.h"
#include "keel/pipeline/detail/include_search.h"
#include "keel/pipeline/handlers/builtin_handlers.h"
#include "keel/pipeline/testing/pipeline_fixture.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace keel::pipeline {
namespace {

namespace fs = std::filesystem;
using testing::Pipeline;
using testing::RecordingObserver;
using testing::TestProject;

TEST_F(Pipeline, Check57_IncludeSearchOrder) {
  TestProject files(fs::path(KEEL_TEST_TMPDIR) / "pipeline" / "Check57");
  const std::string root = files.dir().string();
  IncludePaths paths;
  paths.add("common", "common", root + "/common");
  paths.add("PC", "Texture", root + "/pc_tex");

  // Only in (common, common): found there, for every platform.
  files.write("common/x.tga", "common");
  std::optional<std::string> found = paths.find("x.tga", "PC", "Texture");
  ASSERT_TRUE(found);
  EXPECT_EQ(*found, root + "/common/x.tga");
  std::optional<SourceHit> hit = find_source_in(paths.search_dirs("PC", "Texture"), "x.tga");
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->path, root + "/common/x.tga");
  EXPECT_EQ(hit->stamp.size, 6u);

  // Also in (PC, Texture): PC resolves there, another platform still to (common, common).
  files.write("pc_tex/x.tga", "pc");
  EXPECT_EQ(*paths.find("x.tga", "PC", "Texture"), root + "/pc_tex/x.tga");
  EXPECT_EQ(*paths.find("x.tga", "pc", "texture"), root + "/pc_tex/x.tga");
  EXPECT_EQ(*paths.find("x.tga", "XBOX", "Texture"), root + "/common/x.tga");
  EXPECT_EQ(*paths.find("x.tga", "PC", "Mesh"), root + "/common/x.tga");

  // Missing everywhere: not found.
  EXPECT_FALSE(paths.find("y.tga", "PC", "Texture"));
  EXPECT_FALSE(paths.find("", "PC", "Texture"));
}

// The build stats sources through open folder handles: same answers as stat(path), including a
// folder that appears only after the first lookup and names with sub-folders.
TEST_F(Pipeline, Check57_FolderHandlesFindWhatStatFinds) {
  TestProject files(fs::path(KEEL_TEST_TMPDIR) / "pipeline" / "Check57_handles");
  const std::string root = files.dir().string();
  const std::vector<std::string> dirs = {root + "/late", root + "/common"};
  files.write("common/x.tga", "common");
  files.write("common/sub/y.tga", "sub");
  DirectoryHandles handles;
  std::optional<SourceHit> hit = find_source_in(dirs, "x.tga", &handles);
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->path, root + "/common/x.tga");
  EXPECT_EQ(hit->stamp, *stat_file(root + "/common/x.tga"));
  ASSERT_TRUE(find_source_in(dirs, "sub/y.tga", &handles));
  EXPECT_EQ(find_source_in(dirs, "sub/y.tga", &handles)->path, root + "/common/sub/y.tga");
  EXPECT_FALSE(find_source_in(dirs, "sub", &handles)) << "a folder is no source";
  EXPECT_FALSE(find_source_in(dirs, "missing.tga", &handles));
  EXPECT_FALSE(find_source_in(dirs, "", &handles));
  // The first folder did not exist at the first lookup; once it does, it wins.
  files.write("late/x.tga", "late");
  EXPECT_EQ(find_source_in(dirs, "x.tga", &handles)->path, root + "/late/x.tga");
  // Absolute names and whole paths.
  EXPECT_EQ(find_source_in(dirs, root + "/common/x.tga", &handles)->stamp.size, 6u);
  EXPECT_EQ(handles.stat(root + "/late/x.tga")->size, 4u);
  EXPECT_FALSE(handles.stat(root + "/late/none.tga"));
}

TEST_F(Pipeline, Check57_AllFourGroupsInOrder) {
  TestProject files(fs::path(KEEL_TEST_TMPDIR) / "pipeline" / "Check57_groups");
  const std::string root = files.dir().string();
  IncludePaths paths;
  paths.add("common", "common", root + "/cc");
  paths.add("common", "Texture", root + "/ct");
  paths.add("PC", "common", root + "/pc");
  paths.add("PC", "Texture", root + "/pt");
  paths.add("PC", "Texture", root + "/pt2");  // second in its group
  for (const char* dir : {"cc", "ct", "pc", "pt", "pt2"}) {
    files.write(fmt::format("{}/f", dir), dir);
  }
  files.write("pt2/only_second", "");
  EXPECT_EQ(*paths.find("f", "PC", "Texture"), root + "/pt/f");
  EXPECT_EQ(*paths.find("only_second", "PC", "Texture"), root + "/pt2/only_second");
  fs::remove(files.path("pt/f"));
  fs::remove(files.path("pt2/f"));
  EXPECT_EQ(*paths.find("f", "PC", "Texture"), root + "/pc/f");  // (platform, common)
  fs::remove(files.path("pc/f"));
  EXPECT_EQ(*paths.find("f", "PC", "Texture"), root + "/ct/f");  // (common, type)
  fs::remove(files.path("ct/f"));
  EXPECT_EQ(*paths.find("f", "PC", "Texture"), root + "/cc/f");  // (common, common)
  EXPECT_THAT(paths.group("pc", "TEXTURE"), ::testing::ElementsAre(root + "/pt", root + "/pt2"));
}

TEST_F(Pipeline, Check57_MissingSourceIsReportedByTheHandler) {
  TestProject files(fs::path(KEEL_TEST_TMPDIR) / "pipeline" / "Check57_build");
  files.write("project.kproj",
              "Platform(\"PC\", \"XBOX\");\nIncludePath(\"common\");\n"
              "IncludePath(\"pc_tex\", \"PC\", \"Texture\");\nDataFile(\"main.kcmd\");\n");
  files.write("main.kcmd", "Texture(\"x\", \"x.tga\");\n");
  files.write("common/x.tga", "common");
  std::optional<Project> project = files.load();
  ASSERT_TRUE(project) << files.errors;
  HandlerRegistry handlers;
  handlers.add({.platform = "common",
                .type = "Texture",
                .fn = build_blob,
                .version = 1,
                .description = "test: a blob"});
  RecordingObserver observer;
  Builder builder(*project, handlers, {}, &observer);
  ASSERT_TRUE(builder.build("PC", "main.kcmd").value().ok) << observer.messages;

  // A file appearing in a group searched earlier changes what the asset is made from.
  files.write("pc_tex/x.tga", "pc");
  DataFileReport r = builder.build("PC", "main.kcmd").value();
  EXPECT_EQ(r.built, 1u);
  EXPECT_EQ(builder.build("XBOX", "main.kcmd").value().built, 1u);
  EXPECT_EQ(builder.build("XBOX", "main.kcmd").value().built, 0u);

  // Gone everywhere: find_source returns "" and the handler reports a located error.
  fs::remove(files.path("pc_tex/x.tga"));
  fs::remove(files.path("common/x.tga"));
  r = builder.build("PC", "main.kcmd").value();
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.failed, 1u);
  EXPECT_THAT(observer.messages,
              ::testing::HasSubstr(
                  "main.kcmd:1:14: error: source `x.tga` not found in the include paths of "
                  "(PC, Texture)"));
}

}  // namespace
}  // namespace keel::pipeline
