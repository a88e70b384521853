// The crash test: a child process saves in a loop and is killed (SIGKILL) at random moments,
// a few hundred times. Every time, the save file loads completely, as one whole generation:
// never a mix of two saves, never a torn file.
#include "keel/save/save_file.h"
#include "keel/save/testing/book_objects.h"

#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>
#include <csignal>
#include <filesystem>
#include <random>

namespace keel::save {
namespace {

using testing::BookScene;
using testing::ExObj1;

constexpr int kKills = 300;

Status save_generation(const SaveSystem& system, const std::filesystem::path& path, u32 g) {
  BookScene scene;
  scene.a.objID = g;
  scene.b.objID = g;
  scene.c.objID = g;
  scene.b.health = g;
  SaveFile f(system);
  Status st = f.begin_save(path);
  if (st) {
    ClientHeader header;
    header.level_name = "crash";
    header.level_version = g;
    header.extra = ByteBuffer(20000, std::byte{static_cast<u8>(g)});  // a larger file
    f.set_header(header);
    f.declare_block(scene.level, 64);
    f.declare_object(&scene.a);
    st = f.process_objects();
  }
  return f.end(st);
}

// Loads the file; returns its generation, or an error if it is damaged or mixed.
Result<u32> load_generation(const SaveSystem& system, const std::filesystem::path& path) {
  alignas(8) static char level[64] = {};
  SaveFile f(system);
  Status st = f.begin_load(path);
  if (st) {
    f.declare_block(level, 64);
    st = f.process_objects();
  }
  st = f.end(st);
  if (!st) return Unexpected(st.error());
  const u32 g = f.header().level_version;
  auto objects = f.take_objects();
  if (objects.size() != 3) return fail(ErrorCode::kCorrupt, "{} objects", objects.size());
  for (auto& o : objects) {
    if (dynamic_cast<ExObj1&>(*o).objID != g) return fail(ErrorCode::kCorrupt, "mixed save");
  }
  for (std::byte b : f.header().extra) {
    if (b != std::byte{static_cast<u8>(g)}) return fail(ErrorCode::kCorrupt, "mixed header");
  }
  return g;
}

TEST(SaveCrash, KilledWhileSavingLeavesOldOrNewNeverAMix) {
  SaveSystem system = testing::book_system();
  const auto dir =
      std::filesystem::temp_directory_path() / fmt::format("keel_save_crash.{}", getpid());
  std::filesystem::create_directories(dir);
  const auto path = dir / "quick.ksav";
  ASSERT_TRUE(save_generation(system, path, 1));
  std::mt19937 random(12345);
  std::uniform_int_distribution<int> delay_us(0, 4000);
  u32 last = 1;
  u32 changed = 0;
  for (int i = 0; i < kKills; ++i) {
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      for (u32 k = 0;; ++k) {
        if (!save_generation(system, path, (last + k) % 250 + 1)) _exit(3);
      }
    }
    usleep(static_cast<useconds_t>(delay_us(random)));
    kill(child, SIGKILL);
    int status = 0;
    waitpid(child, &status, 0);
    ASSERT_TRUE(WIFSIGNALED(status)) << "the saving child failed on its own";
    auto loaded = load_generation(system, path);
    ASSERT_TRUE(loaded) << "after kill " << i << ": " << loaded.error().to_string();
    if (*loaded != last) ++changed;
    last = *loaded;
  }
  EXPECT_GT(changed, 0u);  // the children did replace the file some of the time
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace keel::save
