// The project file: paths, platforms, include groups, plug-ins, data files, located errors.
#include "keel/pipeline/project.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace keel::pipeline {
namespace {

namespace fs = std::filesystem;

std::optional<Project> parse(std::string_view text, std::string* errors = nullptr) {
  text::Diagnostics diag;
  std::optional<Project> p = parse_project(std::string(text), "/work/game/data/game.kproj", diag);
  if (errors != nullptr) *errors = diag.render();
  return p;
}

TEST(PipelineProject, ParsesEveryCommand) {
  std::string errors;
  const std::optional<Project> p = parse(
      "Project(\"game\");\n"
      "DataPath(\"commands\");\n"
      "IntermediatePath(\"../obj\");\n"
      "ImagePath(\"/srv/images\");\n"
      "ImagePath(\"small\", \"Handheld\");\n"
      "Platform(\"PC\", Handheld);\n"
      "IncludePath(\"assets\");\n"
      "IncludePath(\"assets/pc\", \"PC\");\n"
      "IncludePath(\"assets/hh_tex\", \"handheld\", \"Texture\");\n"
      "Plugin(\"keel_tilemap\");\n"
      "DataFile(\"main.kcmd\", \"ui.kcmd\");\n",
      &errors);
  ASSERT_TRUE(p) << errors;
  EXPECT_EQ(p->name, "game");
  EXPECT_EQ(p->root, fs::path("/work/game/data"));
  EXPECT_EQ(p->data_path, fs::path("/work/game/data/commands"));
  EXPECT_EQ(p->intermediate_path, fs::path("/work/game/obj"));
  EXPECT_EQ(p->image_path, fs::path("/srv/images"));
  EXPECT_THAT(p->platforms, ::testing::ElementsAre("PC", "Handheld"));
  EXPECT_THAT(p->data_files, ::testing::ElementsAre("main.kcmd", "ui.kcmd"));
  ASSERT_EQ(p->plugins.size(), 1u);
  EXPECT_EQ(p->plugins[0].name, "keel_tilemap");
  EXPECT_EQ(p->plugins[0].where.line, 10u);
  EXPECT_THAT(p->include_paths.group("common", "common"),
              ::testing::ElementsAre("/work/game/data/assets"));
  EXPECT_THAT(p->include_paths.group("PC", "common"),
              ::testing::ElementsAre("/work/game/data/assets/pc"));
  EXPECT_THAT(p->include_paths.group("Handheld", "texture"),
              ::testing::ElementsAre("/work/game/data/assets/hh_tex"));
  // Layout of outputs.
  EXPECT_EQ(p->data_file_path("PC", "main.kcmd"), fs::path("/srv/images/PC/main.kpk"));
  EXPECT_EQ(p->data_file_path("Handheld", "ui.kcmd"),
            fs::path("/work/game/data/small/Handheld/ui.kpk"));
  EXPECT_EQ(p->intermediate_dir("PC", "main.kcmd"), fs::path("/work/game/obj/PC/main"));
  EXPECT_EQ(p->find_platform("handheld"), "Handheld");
  EXPECT_FALSE(p->find_platform("XBOX"));
}

// Issue 15: a/main.kcmd and b/main.kcmd both wrote main.kpk; one asset vanished with exit 0.
TEST(PipelineProject, DataFilesWithTheSameNameAreRefused) {
  std::string errors;
  EXPECT_FALSE(parse("Platform(\"PC\");\nDataFile(\"a/main.kcmd\");\nDataFile(\"b/Main.kcmd\");\n",
                     &errors));
  EXPECT_THAT(errors, ::testing::HasSubstr(
                          "game.kproj:3:10: error: data files \"b/Main.kcmd\" and \"a/main.kcmd\" "
                          "(at /work/game/data/game.kproj:2) would both be written to Main.kpk"));
  EXPECT_FALSE(parse("Platform(\"PC\");\nDataFile(\"main.kcmd\", \"./main.kcmd\");\n", &errors));
  EXPECT_THAT(errors,
              ::testing::HasSubstr("2:23: error: `DataFile` \"./main.kcmd\" is listed twice "
                                   "(first at /work/game/data/game.kproj:2)"));
  EXPECT_FALSE(parse("Platform(\"PC\");\nDataFile(\"dir/\");\n", &errors));
  EXPECT_THAT(errors, ::testing::HasSubstr("`DataFile` \"dir/\" names no file"));
  EXPECT_TRUE(parse("Platform(\"PC\");\nDataFile(\"a/main.kcmd\", \"b/ui.kcmd\");\n", &errors))
      << errors;
}

TEST(PipelineProject, Defaults) {
  const std::optional<Project> p = parse("Platform(\"PC\");\nDataFile(\"main.kcmd\");\n");
  ASSERT_TRUE(p);
  EXPECT_EQ(p->data_path, fs::path("/work/game/data"));
  EXPECT_EQ(p->intermediate_path, fs::path("/work/game/data/build/obj"));
  EXPECT_EQ(p->image_path, fs::path("/work/game/data/build/image"));
}

TEST(PipelineProject, LocatedErrors) {
  std::string errors;
  EXPECT_FALSE(parse("Platform(\"PC\");\nDataFile(\"m.kcmd\");\nTexturePath(\"x\");\n", &errors));
  EXPECT_THAT(errors, ::testing::HasSubstr("game.kproj:3:1: error: unknown project command "
                                           "`TexturePath`"));
  EXPECT_FALSE(
      parse("Platform(\"PC\");\nDataFile(\"m.kcmd\");\nIncludePath(\"x\", \"XBOX\");\n", &errors));
  EXPECT_THAT(errors, ::testing::HasSubstr(
                          "game.kproj:3:18: error: IncludePath for platform `XBOX`, which the "
                          "project does not declare"));
  EXPECT_FALSE(parse("Platform(\"PC\", \"common\", \"pc\");\nDataFile(\"m.kcmd\");\n", &errors));
  EXPECT_THAT(errors, ::testing::HasSubstr("1:16: error: \"common\" is the name of the common"));
  EXPECT_THAT(errors, ::testing::HasSubstr("1:26: error: platform `pc` is declared twice"));
  EXPECT_FALSE(parse("DataFile(\"m.kcmd\");\n", &errors));
  EXPECT_THAT(errors, ::testing::HasSubstr("the project declares no platform"));
  EXPECT_FALSE(parse("Platform(\"PC\");\n", &errors));
  EXPECT_THAT(errors, ::testing::HasSubstr("the project names no data file"));
  EXPECT_FALSE(parse("Platform(5);\nDataFile(\"m.kcmd\");\n", &errors));
  EXPECT_THAT(errors, ::testing::HasSubstr("1:10: error: `Platform` expects"));
  EXPECT_FALSE(parse("Platform(\"PC\"\n", &errors));  // a syntax error from the parser
  EXPECT_THAT(errors, ::testing::HasSubstr("game.kproj:"));
}

TEST(PipelineProject, MissingFile) {
  text::Diagnostics diag;
  EXPECT_FALSE(load_project("/nonexistent/x.kproj", diag));
  EXPECT_THAT(diag.render(), ::testing::HasSubstr("cannot read the project file"));
}

}  // namespace
}  // namespace keel::pipeline
