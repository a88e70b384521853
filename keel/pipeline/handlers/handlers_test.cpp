// The built-in handlers (Blob, Script, FSM, StringTable) and the example plug-in (TileMap), end
// to end: command file -> intermediate -> data file -> the asset's runtime reader.
#include "keel/fsm/compiled.h"
#include "keel/pack/pack_file.h"
#include "keel/pipeline/builder.h"
#include "keel/pipeline/handlers/builtin_handlers.h"
#include "keel/pipeline/string_table_asset.h"
#include "keel/pipeline/testing/test_project.h"
#include "keel/script/library.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace keel::pipeline {
namespace {

namespace fs = std::filesystem;
using testing::RecordingObserver;
using testing::TestProject;

class PipelineHandlers : public ::testing::Test {
 protected:
  PipelineHandlers()
      : files_(fs::path(KEEL_TEST_TMPDIR) / "pipeline" / "handlers" /
               ::testing::UnitTest::GetInstance()->current_test_info()->name()) {
    files_.write(
        "project.kproj",
        "Platform(\"PC\", \"Handheld\");\nIncludePath(\"src\");\nDataFile(\"main.kcmd\");\n");
    register_builtin_handlers(handlers_);
  }

  DataFileReport build(std::string_view commands, std::string_view platform = "PC") {
    files_.write("main.kcmd", commands);
    text::Diagnostics diag;
    project_ = load_project(files_.path("project.kproj"), diag);
    EXPECT_TRUE(project_) << diag.render();
    RecordingObserver observer;
    Builder builder(*project_, handlers_, {}, &observer);
    DataFileReport r = builder.build(platform, "main.kcmd").value();
    messages_ = observer.messages;
    return r;
  }

  // The primary chunk of `name` in the data file, checking its type.
  ByteBuffer asset(std::string_view name, std::string_view type, std::string_view platform = "PC") {
    Result<pack::PackFile> pack =
        pack::PackFile::open(files_.path(fmt::format("build/image/{}/main.kpk", platform)));
    EXPECT_TRUE(pack) << (pack ? "" : pack.error().to_string());
    if (!pack) return {};
    const pack::PackItem* item = pack->find_item(name);
    EXPECT_NE(item, nullptr) << name;
    if (item == nullptr) return {};
    EXPECT_EQ(item->type_hash, pack::type_hash(type));
    Result<ByteBuffer> bytes = pack->read_chunk(item->name_hash, item->primary);
    EXPECT_TRUE(bytes);
    return bytes ? *bytes : ByteBuffer();
  }
  static std::string str(const ByteBuffer& b) { return keel::to_string(b); }

  TestProject files_;
  HandlerRegistry handlers_;
  std::optional<Project> project_;
  std::string messages_;
};

TEST_F(PipelineHandlers, Blob) {
  files_.write("src/logo.bin", "LOGO");
  files_.write("src/same_name", "SAME");
  const DataFileReport r = build(
      "Blob(\"logo\", \"logo.bin\") { Alignment(64); BlockType(2); }\nBlob(\"same_name\");\n");
  ASSERT_TRUE(r.ok) << messages_;
  EXPECT_EQ(str(asset("logo", "Blob")), "LOGO");
  EXPECT_EQ(str(asset("same_name", "Blob")), "SAME");
  Result<pack::PackFile> pack = pack::PackFile::open(files_.path("build/image/PC/main.kpk"));
  ASSERT_TRUE(pack);
  ASSERT_NE(pack->find_block(2), nullptr);
  EXPECT_EQ(pack->find_block(2)->alignment, 64u);
}

// Issue 15: a block over the readers' 1 GiB limit used to be found at repack time, after reading
// and copying the whole source, as "0 failed ... 1 error". Now the asset fails up front, by name.
TEST_F(PipelineHandlers, BlobOverTheBlockLimitFailsBeforeTheWorkNamingTheAsset) {
  files_.write("src/small.bin", "SMALL");
  files_.write("src/huge.bin", "");
  fs::resize_file(files_.path("src/huge.bin"), (u64{1} << 30) + 1);  // sparse: no disk, no time
  const DataFileReport r =
      build("Blob(\"small\", \"small.bin\");\nBlob(\"huge\", \"huge.bin\");\n");
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.failed, 1u) << messages_;
  EXPECT_EQ(r.built, 1u) << messages_;
  EXPECT_THAT(messages_, ::testing::HasSubstr("Blob `huge`")) << messages_;
  EXPECT_THAT(messages_, ::testing::HasSubstr("1 GiB")) << messages_;
  EXPECT_FALSE(files_.exists("build/obj/PC/main/Blob/huge.kpk"));
  fs::remove(files_.path("src/huge.bin"));
}

TEST_F(PipelineHandlers, BlobOptionErrors) {
  files_.write("src/logo.bin", "LOGO");
  const DataFileReport r = build(
      "Blob(\"a\", \"logo.bin\") { Alignment(3); }\n"
      "Blob(\"b\", \"logo.bin\") { BlockType(70000); }\n"
      "Blob(\"c\", \"logo.bin\") { Colour(1); }\n"
      "Blob(5);\n");
  EXPECT_EQ(r.failed, 4u);
  EXPECT_THAT(messages_, ::testing::HasSubstr("main.kcmd:1:35: error: the alignment must be"));
  EXPECT_THAT(messages_, ::testing::HasSubstr("main.kcmd:2:35: error: a block type is 0 to 65535"));
  EXPECT_THAT(messages_,
              ::testing::HasSubstr("main.kcmd:3:25: error: unknown Blob option `Colour`"));
  EXPECT_THAT(messages_, ::testing::HasSubstr("main.kcmd:4:6: error: `Blob` expects a string"));
}

TEST_F(PipelineHandlers, ScriptFileAndInline) {
  files_.write("src/guard.script",
               "SCRIPT(\"patrol\") { PRINT(\"walking\"); PAUSE(30); CHANGESCRIPT(\"flee\"); }\n"
               "SCRIPT(\"flee\") { PLATFORM(\"PC\") PAUSESECONDS(2); SET(health, 100); }\n");
  const DataFileReport r = build(
      "Script(\"guard\", \"guard.script\");\n"
      "SCRIPT(\"blink\") { PAUSE(5); CHANGESCRIPT(\"blink\"); }\n");
  ASSERT_TRUE(r.ok) << messages_;
  Result<script::Library> guard = script::Library::from_bytes(asset("guard", "Script"));
  ASSERT_TRUE(guard) << guard.error().to_string();
  EXPECT_EQ(guard->size(), 2u);
  EXPECT_NE(guard->find("patrol"), nullptr);
  EXPECT_NE(guard->find("flee"), nullptr);
  Result<script::Library> blink = script::Library::from_bytes(asset("blink", "Script"));
  ASSERT_TRUE(blink) << blink.error().to_string();
  ASSERT_NE(blink->find("blink"), nullptr);
  EXPECT_EQ(blink->size(), 1u);
}

TEST_F(PipelineHandlers, ScriptErrorsPointIntoTheScriptFile) {
  files_.write("src/bad.script", "SCRIPT(\"s\")\n{\n    PAUSE(\"x\");\n}\n");
  const DataFileReport r =
      build("Script(\"bad\", \"bad.script\");\nSCRIPT(\"inline\") { BREAK(1); }\n");
  EXPECT_EQ(r.failed, 2u);
  EXPECT_THAT(messages_, ::testing::HasSubstr("bad.script:3:11: error:"));
  EXPECT_THAT(messages_,
              ::testing::HasSubstr("main.kcmd:2:20: error: `BREAK` expects 0 parameters"));
  EXPECT_FALSE(files_.exists("build/image/PC/main.kpk"));
}

TEST_F(PipelineHandlers, FsmFileAndInline) {
  files_.write(
      "src/door.fsm",
      "FSM(\"door\", \"Door\")\n{\n  InitialState(\"closed\");\n"
      "  State(\"closed\") { On(\"event_use\") Transition(\"open\"); }\n"
      "  State(\"open\") { Behavior(\"solid\"); On(\"event_use\") Transition(\"closed\"); }\n}\n");
  files_.write("src/types.txt", "Type(\"Door\") { Behaviors(\"animate\", \"solid\"); }\n");
  const DataFileReport r = build(
      "FSM(\"doors\", \"door.fsm\", \"types.txt\");\n"
      "FSM(\"lamp\", \"Lamp\") { InitialState(\"off\"); State(\"off\") { } }\n");
  ASSERT_TRUE(r.ok) << messages_;
  Result<fsm::CompiledFsms> doors = fsm::CompiledFsms::from_bytes(asset("doors", "FSM"));
  ASSERT_TRUE(doors) << doors.error().to_string();
  ASSERT_TRUE(doors->find("door"));
  const fsm::FsmView door = *doors->find("door");
  EXPECT_EQ(door.state_count(), 2u);
  // The type description numbered the behaviours: "solid" is the second bit.
  ASSERT_EQ(door.behavior_count(), 2u);
  EXPECT_EQ(door.behavior_name(1), "solid");
  Result<fsm::CompiledFsms> lamp = fsm::CompiledFsms::from_bytes(asset("lamp", "FSM"));
  ASSERT_TRUE(lamp) << lamp.error().to_string();
  EXPECT_TRUE(lamp->find("lamp"));
}

TEST_F(PipelineHandlers, StringTable) {
  files_.write("src/keys.txt", "TITLE\nSTART\n");
  files_.write("src/en.txt", "My Game\nPress Start\n");
  files_.write("src/fr.txt", "Mon jeu\nAppuyez\\n sur Start\n");
  const DataFileReport r = build(
      "StringTable(\"ui\", \"keys.txt\") { Language(\"english\", \"en.txt\"); "
      "Language(french, \"fr.txt\"); }\n");
  ASSERT_TRUE(r.ok) << messages_;
  const ByteBuffer bytes = asset("ui", "StringTable");
  Result<StringTableView> table = StringTableView::parse(bytes);
  ASSERT_TRUE(table) << table.error().to_string();
  EXPECT_EQ(table->key_count(), 2u);
  ASSERT_EQ(table->language_count(), 2u);
  EXPECT_EQ(table->language(0), "english");
  const usize fr = *table->find_language("french");
  EXPECT_EQ(table->find(0, "TITLE"), "My Game");
  EXPECT_EQ(table->find(fr, "START"), "Appuyez\n sur Start");
  EXPECT_FALSE(table->find(0, "MISSING"));
}

TEST_F(PipelineHandlers, StringTableErrors) {
  files_.write("src/keys.txt", "TITLE\nSTART\n");
  files_.write("src/short.txt", "only one line\n");
  DataFileReport r =
      build("StringTable(\"ui\", \"keys.txt\") { Language(\"english\", \"short.txt\"); }\n");
  EXPECT_EQ(r.failed, 1u);
  EXPECT_THAT(messages_, ::testing::HasSubstr("short.txt"));
  r = build("StringTable(\"ui\", \"keys.txt\") { }\n");
  EXPECT_THAT(messages_, ::testing::HasSubstr("needs at least one Language"));
  r = build("StringTable(\"ui\", \"keys.txt\") { Language(\"en\", \"nope.txt\"); Font(\"x\"); }\n");
  EXPECT_THAT(messages_, ::testing::HasSubstr("source `nope.txt` not found"));
  EXPECT_THAT(messages_, ::testing::HasSubstr("unknown StringTable command `Font`"));
}

TEST_F(PipelineHandlers, TileMapPlugin) {
  ASSERT_TRUE(handlers_.load_plugin(KEEL_TILEMAP_PLUGIN));
  files_.write("src/level.map", "#..#\n##\n");
  DataFileReport r = build(
      "TileMap(\"level\", \"level.map\") { Legend(\"#\", 1); Legend(\".\", 0); }\n"
      "TileMap(\"raw\", \"level.map\");\n");
  ASSERT_TRUE(r.ok) << messages_;
  const ByteBuffer level = asset("level", "TileMap");
  ASSERT_EQ(level.size(), 8u + 8u);
  EXPECT_EQ(static_cast<u8>(level[0]), 4u);  // width
  EXPECT_EQ(static_cast<u8>(level[4]), 2u);  // height
  const u8 expected[] = {1, 0, 0, 1, 1, 1, 0, 0};
  for (usize i = 0; i < 8; ++i) EXPECT_EQ(static_cast<u8>(level[8 + i]), expected[i]) << i;
  EXPECT_EQ(static_cast<u8>(asset("raw", "TileMap")[8]), u8{'#'});

  files_.write("src/level.map", "#x#\n");
  r = build("TileMap(\"level\", \"level.map\") { Legend(\"#\", 1); }\n");
  EXPECT_EQ(r.failed, 1u);
  EXPECT_THAT(messages_, ::testing::HasSubstr("level.map:1:2: character 'x' is not in the legend"));
}

TEST_F(PipelineHandlers, PlatformIncludePathOverrides) {
  files_.write("project.kproj",
               "Platform(\"PC\", \"Handheld\");\nIncludePath(\"src\");\n"
               "IncludePath(\"small\", \"Handheld\");\nDataFile(\"main.kcmd\");\n");
  files_.write("src/splash.txt", "big");
  files_.write("small/splash.txt", "small");
  ASSERT_TRUE(build("Blob(\"splash\", \"splash.txt\");\n", "PC").ok) << messages_;
  ASSERT_TRUE(build("Blob(\"splash\", \"splash.txt\");\n", "Handheld").ok) << messages_;
  EXPECT_EQ(str(asset("splash", "Blob", "PC")), "big");
  EXPECT_EQ(str(asset("splash", "Blob", "Handheld")), "small");
}

}  // namespace
}  // namespace keel::pipeline
