// Check 59: the output file a handler writes (the book's AddChunk / AddItem / Close).
#include "keel/pack/pack_file.h"
#include "keel/pipeline/builder.h"
#include "keel/pipeline/handlers/handler_support.h"
#include "keel/pipeline/testing/pipeline_fixture.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <memory>

namespace keel::pipeline {
namespace {

namespace fs = std::filesystem;
using testing::Pipeline;
using testing::RecordingObserver;
using testing::TestProject;

std::vector<u32> g_locators;
u32 g_after_close = 1;

ByteBuffer bytes_of(std::string_view s) { return to_buffer(s); }

// Three chunks in blocks 0, 3, 0; each buffer freed (and scribbled over first) right after the
// call; one item; close; then a use after close.
bool build_chunks(BuildContext& ctx) {
  if (!ctx.set_output("face")) return false;
  OutputFile* out = ctx.create_output();
  if (out == nullptr) return false;
  g_locators.clear();
  const std::pair<u16, std::string_view> chunks[] = {
      {0, "header"}, {3, "pixels-pixels-pixels"}, {0, "palette"}};
  for (const auto& [block, text] : chunks) {
    auto buffer = std::make_unique<ByteBuffer>(bytes_of(text));
    g_locators.push_back(out->add_chunk("face", block, *buffer, block == 3 ? 16 : 4));
    std::fill(buffer->begin(), buffer->end(), std::byte{0xEE});
    buffer.reset();
  }
  out->add_item("face", "Texture", g_locators[0]);
  if (!out->close()) return false;
  g_after_close = out->add_chunk("face", 0, bytes_of("late"), 4);
  return true;
}

TEST_F(Pipeline, Check59_AddChunk) {
  TestProject files(fs::path(KEEL_TEST_TMPDIR) / "pipeline" / "Check59");
  files.write("project.kproj", "Platform(\"PC\");\nDataFile(\"main.kcmd\");\n");
  files.write("main.kcmd", "Chunks();\n");
  std::optional<Project> project = files.load();
  ASSERT_TRUE(project) << files.errors;
  HandlerRegistry handlers;
  handlers.add({.platform = "common",
                .type = "Chunks",
                .fn = build_chunks,
                .version = 1,
                .description = "test"});
  RecordingObserver observer;
  Builder builder(*project, handlers, {}, &observer);
  const DataFileReport r = builder.build("PC", "main.kcmd").value();

  // Locator ids: block id = block type (low 16 bits), chunk number counting up per file.
  ASSERT_EQ(g_locators.size(), 3u);
  EXPECT_EQ(g_locators[0], pack::LocatorId::make(0, 1).value);
  EXPECT_EQ(g_locators[1], pack::LocatorId::make(3, 2).value);
  EXPECT_EQ(g_locators[2], pack::LocatorId::make(0, 3).value);

  // Close wrote the intermediate; the data copied at each call survived the freed buffers.
  Result<pack::PackFile> pack =
      pack::PackFile::open(files.path("build/obj/PC/main/Chunks/face.kpk"));
  ASSERT_TRUE(pack) << pack.error().to_string();
  ASSERT_EQ(pack->items().size(), 1u);  // AddItem made the master entry
  const pack::PackItem& item = pack->items()[0];
  EXPECT_EQ(item.name, "face");
  EXPECT_EQ(item.type_hash, pack::type_hash("Texture"));
  EXPECT_EQ(item.primary.value, g_locators[0]);
  auto chunk = [&](u32 locator) {
    Result<ByteBuffer> b = pack->read_chunk(item.name_hash, pack::LocatorId{locator});
    return b ? keel::to_string(*b) : "<missing>";
  };
  EXPECT_EQ(chunk(g_locators[0]), "header");
  EXPECT_EQ(chunk(g_locators[1]), "pixels-pixels-pixels");
  EXPECT_EQ(chunk(g_locators[2]), "palette");
  const pack::PackBlock* video = pack->find_block(3);
  ASSERT_NE(video, nullptr);
  EXPECT_EQ(video->alignment, 16u);

  // After Close the interface is invalid: a use is refused with an error (and fails the build).
  EXPECT_EQ(g_after_close, 0u);
  EXPECT_FALSE(r.ok);
  EXPECT_THAT(observer.messages,
              ::testing::HasSubstr("main.kcmd:1:1: error: writing `face`: add_chunk on an output "
                                   "file that is already closed"));
}

bool build_bad_alignment(BuildContext& ctx) {
  if (!ctx.set_output("x")) return false;
  OutputFile* out = ctx.create_output();
  EXPECT_EQ(out->add_chunk("x", 0, bytes_of("abc"), 3), 0u);
  out->close();
  return true;
}

bool build_unclosed(BuildContext& ctx) {
  if (!ctx.set_output("u1")) return false;
  OutputFile* out = ctx.create_output();
  out->add_chunk("u1", 0, bytes_of("abc"), 4);
  return true;
}

bool build_unwritten(BuildContext& ctx) { return ctx.set_output("u2"); }

TEST_F(Pipeline, HandlerProtocolMistakesAreErrors) {
  TestProject files(fs::path(KEEL_TEST_TMPDIR) / "pipeline" / "Protocol");
  files.write("project.kproj", "Platform(\"PC\");\nDataFile(\"main.kcmd\");\n");
  files.write("main.kcmd", "Odd();\nUnclosed();\nUnwritten();\n");
  std::optional<Project> project = files.load();
  ASSERT_TRUE(project) << files.errors;
  HandlerRegistry handlers;
  handlers.add({.platform = "common",
                .type = "Odd",
                .fn = build_bad_alignment,
                .version = 1,
                .description = "test"});
  handlers.add({.platform = "common",
                .type = "Unclosed",
                .fn = build_unclosed,
                .version = 1,
                .description = "test"});
  handlers.add({.platform = "common",
                .type = "Unwritten",
                .fn = build_unwritten,
                .version = 1,
                .description = "test"});
  RecordingObserver observer;
  Builder builder(*project, handlers, {}, &observer);
  const DataFileReport r = builder.build("PC", "main.kcmd").value();
  EXPECT_EQ(r.failed, 3u);
  EXPECT_THAT(observer.messages, ::testing::HasSubstr("chunk alignment 3 is not a power of two"));
  EXPECT_THAT(observer.messages, ::testing::HasSubstr("did not close its output file"));
  EXPECT_THAT(observer.messages,
              ::testing::HasSubstr("declared `u2` but neither wrote it nor found it up to date"));
}

// add_file_chunk: the file's bytes between two copied chunks; a second asset names a file that
// does not exist, so its close() fails with the reason.
bool build_file_chunks(BuildContext& ctx) {
  const std::string_view name = ctx.command().param(0)->text;
  Result<std::string> source = ctx.find_source(ctx.command().param(1)->text);
  const std::string path = source ? *source : std::string(ctx.command().param(1)->text);
  if (!ctx.set_output(name)) return false;
  if (ctx.up_to_date()) return true;
  OutputFile* out = ctx.create_output();
  if (out == nullptr) return false;
  const u32 head = out->add_chunk(name, 0, bytes_of("head"), 4);
  const u32 body = out->add_file_chunk(name, 0, path, 16);
  out->add_chunk(name, 0, bytes_of("tail"), 4);
  out->add_item(name, "Blob", head);
  g_locators.push_back(body);
  return out->close();
}

TEST_F(Pipeline, AddFileChunkCopiesTheFileWhenTheOutputCloses) {
  TestProject files(fs::path(KEEL_TEST_TMPDIR) / "pipeline" / "AddFileChunk");
  files.write("project.kproj",
              "Platform(\"PC\");\nIncludePath(\"src\");\nDataFile(\"main.kcmd\");\n");
  files.write("main.kcmd", "Files(\"one\", \"one.bin\");\nFiles(\"two\", \"missing.bin\");\n");
  std::string body;
  for (int i = 0; i < 300'000; ++i) body += static_cast<char>('a' + i % 23);
  files.write("src/one.bin", body);
  std::optional<Project> project = files.load();
  ASSERT_TRUE(project) << files.errors;
  HandlerRegistry handlers;
  handlers.add({.platform = "common",
                .type = "Files",
                .fn = build_file_chunks,
                .version = 1,
                .description = "test"});
  RecordingObserver observer;
  Builder builder(*project, handlers, {}, &observer);
  g_locators.clear();
  const DataFileReport r = builder.build("PC", "main.kcmd").value();
  EXPECT_EQ(r.failed, 1u);
  EXPECT_THAT(observer.messages, ::testing::HasSubstr("main.kcmd:2:1: error: writing `two`: "
                                                      "cannot read `missing.bin`"));
  EXPECT_FALSE(fs::exists(files.path("build/obj/PC/main/Files/two.kpk")));

  Result<pack::PackFile> pack = pack::PackFile::open(files.path("build/obj/PC/main/Files/one.kpk"));
  ASSERT_TRUE(pack) << pack.error().to_string();
  EXPECT_TRUE(pack->verify());
  ASSERT_FALSE(g_locators.empty());
  EXPECT_EQ(g_locators[0], pack::LocatorId::make(0, 2).value);
  Result<ByteBuffer> chunk =
      pack->read_chunk(pack::name_hash("one"), pack::LocatorId{g_locators[0]});
  ASSERT_TRUE(chunk) << chunk.error().to_string();
  EXPECT_EQ(keel::to_string(*chunk), body);
  // The record's content hash is the file's: the next build finds everything up to date except
  // the failed asset, and nothing is rewritten.
  const DataFileReport again = builder.build("PC", "main.kcmd").value();
  EXPECT_EQ(again.built, 0u) << observer.messages;
}

}  // namespace
}  // namespace keel::pipeline
