// Every public entry point of the pipeline, called the wrong way: an error, never a crash (issue
// 17, "entry points that cannot be crashed by their caller"). One test per family.
#include "keel/pipeline/build_lock.h"
#include "keel/pipeline/builder.h"
#include "keel/pipeline/detail/build_db.h"
#include "keel/pipeline/handlers/builtin_handlers.h"
#include "keel/pipeline/project.h"
#include "keel/pipeline/registry.h"
#include "keel/pipeline/string_table_asset.h"
#include "keel/pipeline/testing/pipeline_fixture.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace keel::pipeline {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using testing::RecordingObserver;

class EntryPoints : public testing::Pipeline {};

bool build_nothing(BuildContext&) { return true; }

TEST_F(EntryPoints, BuildLockOfAProjectNotLoaded) {
  const Project not_loaded;
  Result<BuildLock> lock = BuildLock::acquire(not_loaded, BuildLock::Wait::kNo);
  ASSERT_FALSE(lock);
  EXPECT_EQ(lock.error().code(), ErrorCode::kInvalidArgument);
}

TEST_F(EntryPoints, RegistryWithoutHandlersReportsEveryCommand) {
  HandlerRegistry empty;
  EXPECT_EQ(empty.find("PC", "Blob"), nullptr);
  EXPECT_EQ(empty.find("", ""), nullptr);
  RecordingObserver observer;
  Builder builder(project(), empty, {}, &observer);
  Result<DataFileReport> r = builder.build("PC", "main.kcmd");
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_FALSE(r->ok);
  EXPECT_EQ(r->built, 0u);
  EXPECT_GE(r->errors, 1u);
  EXPECT_THAT(observer.messages, HasSubstr("no handler for asset type `Blob`"));
  EXPECT_FALSE(files_.exists("image/PC/main.kpk"));
}

TEST_F(EntryPoints, UnknownPlatformOrDataFileIsAnError) {
  Builder builder(project(), handlers_);
  Result<DataFileReport> r = builder.build("Dreamcast", "main.kcmd");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code(), ErrorCode::kNotFound);
  EXPECT_THAT(r.error().message(), HasSubstr("no platform `Dreamcast` (it has: PC, XBOX)"));
  r = builder.build("", "main.kcmd");
  EXPECT_FALSE(r);
  r = builder.build("PC", "absent.kcmd");
  ASSERT_FALSE(r);
  EXPECT_THAT(r.error().message(), HasSubstr("`absent.kcmd` is not a data file of the project"));
  r = builder.build("PC", "");
  EXPECT_FALSE(r);
  // build_all checks every name first: nothing is built when one is wrong.
  Result<BuildSummary> all = builder.build_all({"PC", "Dreamcast"}, project().data_files);
  ASSERT_FALSE(all);
  EXPECT_EQ(builder.outputs_created(), 0u);
  EXPECT_FALSE(files_.exists("obj/PC/main/build.kdb"));
  // Platforms match case-insensitively, data files by command file or data file name.
  r = builder.build("pc", "main");
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_TRUE(r->ok);
  EXPECT_EQ(r->platform, "PC");
  EXPECT_TRUE(files_.exists("image/PC/main.kpk"));
}

TEST_F(EntryPoints, BuildOrCleanBeforeLoadIsAnError) {
  const Project unloaded;  // never went through load_project: no paths
  Builder builder(unloaded, handlers_);
  Result<DataFileReport> r = builder.build("PC", "main.kcmd");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code(), ErrorCode::kInvalidArgument);
  EXPECT_THAT(r.error().message(), HasSubstr("load_project"));
  EXPECT_FALSE(builder.build_all({"PC"}, {"main.kcmd"}));
  Project half = unloaded;  // platforms and data files, but still no paths
  half.platforms = {"PC"};
  half.data_files = {"main.kcmd"};
  Builder half_builder(half, handlers_);
  EXPECT_FALSE(half_builder.build("PC", "main.kcmd"));
  Result<CleanReport> c = clean(half);
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().code(), ErrorCode::kInvalidArgument);
}

TEST_F(EntryPoints, EmptyProjectAndEmptyCommandFile) {
  // A project file with nothing in it: located errors, no project.
  files_.write("empty.kproj", "");
  text::Diagnostics diag;
  EXPECT_FALSE(load_project(files_.path("empty.kproj"), diag));
  EXPECT_THAT(diag.render(), HasSubstr("declares no platform"));
  EXPECT_THAT(diag.render(), HasSubstr("names no data file"));
  diag = {};
  EXPECT_FALSE(load_project(files_.path("absent.kproj"), diag));
  EXPECT_THAT(diag.render(), HasSubstr("cannot read the project file"));

  // Nothing to build: an empty summary.
  Builder builder(project(), handlers_, {.jobs = 0, .force_rebuild = false, .force_repack = false});
  Result<BuildSummary> none = builder.build_all({}, {});
  ASSERT_TRUE(none);
  EXPECT_TRUE(none->data_files.empty());
  EXPECT_TRUE(none->ok());

  // A command file without assets makes an empty data file, twice without work.
  files_.write("main.kcmd", "// nothing yet\n");
  Result<DataFileReport> r = builder.build("PC", "main.kcmd");
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_TRUE(r->ok);
  EXPECT_EQ(r->assets, 0u);
  r = builder.build("PC", "main.kcmd");
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->ok);
  EXPECT_FALSE(r->repacked);
}

TEST_F(EntryPoints, DuplicateAndInvalidRegistrationsAreReported) {
  HandlerRegistry r;
  register_builtin_handlers(r);
  EXPECT_TRUE(r.take_problems().empty());
  register_builtin_handlers(r);  // every one a duplicate
  std::vector<Error> problems = r.take_problems();
  ASSERT_EQ(problems.size(), 4u);
  EXPECT_EQ(problems[0].code(), ErrorCode::kAlreadyExists);
  EXPECT_THAT(problems[0].message(), HasSubstr("already registered"));
  EXPECT_EQ(r.entries().size(), 4u);
  // The first registration stays in force.
  EXPECT_EQ(r.find("PC", "Blob")->fn, &build_blob);
  // Case-insensitive names are the same handler.
  r.add(
      {.platform = "COMMON", .type = "blob", .fn = build_nothing, .version = 1, .description = ""});
  EXPECT_EQ(r.take_problems().size(), 1u);
  // Missing type, platform or function.
  r.add({.platform = kCommon, .type = "", .fn = build_nothing, .version = 1, .description = ""});
  r.add({.platform = "", .type = "X", .fn = build_nothing, .version = 1, .description = ""});
  r.add({.platform = kCommon, .type = "X", .fn = nullptr, .version = 1, .description = ""});
  problems = r.take_problems();
  ASSERT_EQ(problems.size(), 3u);
  EXPECT_EQ(problems[2].code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(r.entries().size(), 4u);
}

TEST_F(EntryPoints, PluginErrorsLeaveTheRegistryUnchanged) {
  HandlerRegistry r;
  register_builtin_handlers(r);
  EXPECT_FALSE(r.load_plugin(""));
  EXPECT_FALSE(r.load_plugin(fs::path(KEEL_TEST_TMPDIR)));  // a folder
  files_.write("fake.so", "not an ELF file");
  Status s = r.load_plugin(files_.path("fake.so"));
  ASSERT_FALSE(s);
  EXPECT_THAT(s.error().to_string(), HasSubstr("cannot load plug-in"));
  EXPECT_FALSE(r.load_plugin(KEEL_NOT_A_PLUGIN));
  EXPECT_FALSE(r.load_plugin(KEEL_WRONG_VERSION_PLUGIN));
  EXPECT_EQ(r.entries().size(), 4u);
  // Loaded twice: the second load only duplicates, so it registers nothing and is refused.
  ASSERT_TRUE(r.load_plugin(KEEL_TILEMAP_PLUGIN));
  s = r.load_plugin(KEEL_TILEMAP_PLUGIN);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code(), ErrorCode::kRefused);
  EXPECT_EQ(r.entries().size(), 5u);
  EXPECT_EQ(r.take_problems().size(), 1u);
  // Names that resolve to nothing.
  EXPECT_FALSE(find_plugin("", files_.dir(), {files_.dir()}));
  EXPECT_FALSE(find_plugin("absent", files_.dir(), {}));
  EXPECT_FALSE(find_plugin("absent.so", files_.dir(), {}));
}

TEST_F(EntryPoints, EmptyAndHostileBytesAreErrors) {
  EXPECT_FALSE(BuildDatabase::from_bytes({}));
  EXPECT_FALSE(StringTableView::parse({}));
  const ByteBuffer zeros(64);
  EXPECT_FALSE(BuildDatabase::from_bytes(zeros));
  EXPECT_FALSE(StringTableView::parse(zeros));
}

}  // namespace
}  // namespace keel::pipeline
