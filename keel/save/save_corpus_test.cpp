// The fuzz target's seed corpus (fuzz/corpus/save_loader/) holds real saves. This test checks
// they still load (a template change makes them stale); with KEEL_WRITE_SAVE_CORPUS=1 in the
// environment it rewrites them instead.
#include "keel/core/file.h"
#include "keel/save/save_file.h"
#include "keel/save/testing/book_objects.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>

namespace keel::save {
namespace {

ByteBuffer with_mode(u8 mode, ByteSpan bytes) {
  std::string text(1, static_cast<char>(mode));
  text += as_chars(bytes);
  return to_buffer(text);
}

std::vector<std::pair<std::string, ByteBuffer>> seeds(const SaveSystem& system) {
  std::vector<std::pair<std::string, ByteBuffer>> out;
  testing::BookScene scene;
  for (Compression c : {Compression::kZstd, Compression::kNone}) {
    SaveFile f(system);
    if (!f.begin_save({}, {c})) continue;
    (void)f.put_value(u32{0xABCD});
    testing::ExObj4 custom;
    custom.samples = {1.f, 2.f};
    custom.nextObject = &scene.a;
    testing::ExObj3 watcher;
    watcher.nextObject = &custom;
    watcher.watched = &scene.b.health;
    f.declare_block(scene.level, 64);
    f.declare_object(&watcher);
    if (!f.end(f.process_objects())) continue;
    const std::string name = c == Compression::kZstd ? "zstd" : "stored";
    out.emplace_back("file_" + name + ".bin", with_mode(0, f.bytes()));
    if (c == Compression::kNone) out.emplace_back("body.bin", with_mode(1, f.body()));
  }
  const SaveSystem plain = testing::plain_system();
  alignas(8) char level[64] = "plain-level";
  ByteBuffer body;
  if (auto file = testing::save_plain_scene(plain, level, {Compression::kNone}, &body)) {
    out.emplace_back("plain_stored.bin", with_mode(2, *file));
    out.emplace_back("plain_body.bin", with_mode(3, body));
  }
  return out;
}

TEST(SaveCorpus, SeedsLoad) {
  SaveSystem system = testing::book_system();
  const std::filesystem::path dir =
      std::filesystem::path(KEEL_SOURCE_DIR) / "fuzz/corpus/save_loader";
  const SaveSystem plain = testing::plain_system();
  const auto all = seeds(system);
  ASSERT_EQ(all.size(), 5u);
  if (std::getenv("KEEL_WRITE_SAVE_CORPUS") != nullptr) {
    std::filesystem::create_directories(dir);
    for (const auto& [name, bytes] : all)
      ASSERT_TRUE(write_file_atomic(dir / name, ByteSpan(bytes)));
  }
  for (const auto& [name, bytes] : all) {
    auto text = read_file(dir / name);
    ASSERT_TRUE(text) << name;
    if (name.ends_with("body.bin")) continue;
    SaveFile f(name.starts_with("plain") ? plain : system);
    alignas(8) static char level[64] = {};
    Status st = f.begin_load_bytes(as_bytes(*text).subspan(1));
    u32 client = 0;
    if (st) st = f.get_value(client);
    f.declare_block(level, 64);
    if (st) st = f.process_objects();
    EXPECT_TRUE(f.end(st)) << name << " is stale: rerun with KEEL_WRITE_SAVE_CORPUS=1";
  }
}

}  // namespace
}  // namespace keel::save
