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

}  // namespace
}  // namespace keel::pipeline
