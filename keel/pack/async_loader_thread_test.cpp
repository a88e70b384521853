// AsyncLoader (check 48): requests return at once, the game keeps ticking, packs arrive set up in
// FIFO order; cancellation. Runs under ThreadSanitizer in CI.
#include "keel/pack/async_loader.h"

#include "keel/pack/testing/samples.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

namespace keel::pack {
namespace {

using namespace std::chrono_literals;
using testing::pattern;
using testing::TextureHeader;

// Holds setup functions until the test opens it, so the test controls when loads finish.
struct Gate {
  std::atomic<bool> open{false};
  std::atomic<int> waiting{0};
  void pass() {
    waiting.fetch_add(1);
    while (!open.load()) std::this_thread::sleep_for(1ms);
  }
};

std::filesystem::path make_pack(const std::string& name, u32 seed) {
  const auto dir = std::filesystem::path(KEEL_TEST_TMPDIR) / "pack_async";
  std::filesystem::create_directories(dir);
  PackWriter writer;
  testing::add_texture(writer, name, 8, 8, seed);
  const auto path = dir / (name + ".kpk");
  EXPECT_TRUE(writer.write(path));
  return path;
}

Loader gated_loader(Gate& gate, std::atomic<int>& teardowns) {
  Loader loader;
  loader.register_type(
      type_hash("Texture"),
      [&gate](SetupContext& ctx) -> Result<void*> {
        gate.pass();
        return testing::setup_texture(ctx);
      },
      [&teardowns](void*) { teardowns.fetch_add(1); });
  return loader;
}

std::optional<LoadCompletion> poll_for(AsyncLoader& async, int& frames,
                                       std::chrono::seconds limit = 20s) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < deadline) {
    if (auto done = async.poll()) return done;
    ++frames;  // the game's frame: it keeps running while the loader works
    std::this_thread::sleep_for(1ms);
  }
  return std::nullopt;
}

TEST(PackAsync, Check48_RequestsCompleteInOrderWhileTheGameTicks) {
  const std::vector<std::string> names = {"a", "b", "c"};
  std::vector<std::filesystem::path> paths;
  for (u32 i = 0; i < names.size(); ++i) paths.push_back(make_pack(names[i], i + 1));
  Gate gate;
  std::atomic<int> teardowns{0};
  {
    AsyncLoader async(gated_loader(gate, teardowns));
    std::vector<RequestId> ids;
    for (const auto& path : paths) ids.push_back(async.request_load(path));  // returns at once
    EXPECT_EQ(async.outstanding(), 3u);

    // Frames tick while the first load is held in its setup function; nothing completes.
    int frames = 0;
    while (gate.waiting.load() == 0) {
      EXPECT_FALSE(async.poll());
      ++frames;
      std::this_thread::sleep_for(1ms);
    }
    for (int i = 0; i < 10; ++i, ++frames) EXPECT_FALSE(async.poll());
    gate.open = true;

    for (usize i = 0; i < names.size(); ++i) {
      auto done = poll_for(async, frames);
      ASSERT_TRUE(done) << "request " << i << " never completed";
      EXPECT_EQ(done->id, ids[i]);  // FIFO
      EXPECT_EQ(done->path, paths[i]);
      ASSERT_TRUE(done->result) << done->result.error().to_string();
      auto* texture = done->result->find_as<TextureHeader>(names[i]);
      ASSERT_NE(texture, nullptr);  // fully set up: the pixel pointer is fixed
      const auto pixels = pattern(64, static_cast<u32>(i + 1));
      EXPECT_TRUE(std::equal(pixels.begin(), pixels.end(), texture->pixels.get()));
    }
    EXPECT_GE(frames, 10);
    EXPECT_EQ(async.outstanding(), 0u);
  }
  EXPECT_EQ(teardowns.load(), 3);  // the completed packs were destroyed with their completions
}

TEST(PackAsync, CancelQueuedInFlightAndFinishedRequests) {
  const auto a = make_pack("ca", 1);
  const auto b = make_pack("cb", 2);
  const auto c = make_pack("cc", 3);
  Gate gate;
  std::atomic<int> teardowns{0};
  AsyncLoader async(gated_loader(gate, teardowns));
  const RequestId first = async.request_load(a);
  const RequestId second = async.request_load(b);
  while (gate.waiting.load() == 0) std::this_thread::sleep_for(1ms);  // `first` is loading
  EXPECT_TRUE(async.cancel(second));                                  // still queued
  EXPECT_FALSE(async.cancel(second));
  EXPECT_TRUE(async.cancel(first));  // in flight: its result is dropped
  EXPECT_FALSE(async.cancel(12345));
  gate.open = true;

  const RequestId third = async.request_load(c);
  auto done = async.wait(20s);
  ASSERT_TRUE(done);
  EXPECT_EQ(done->id, third);  // neither cancelled request ever reaches the game
  EXPECT_TRUE(done->result);
  EXPECT_FALSE(async.poll());
  EXPECT_EQ(async.outstanding(), 0u);
  EXPECT_EQ(teardowns.load(), 1);  // the dropped in-flight pack was torn down

  // A request whose setup has run (in flight or already finished, not polled) can be cancelled
  // too; it never surfaces and its pack is torn down.
  const int set_up_before = gate.waiting.load();
  const RequestId fourth = async.request_load(a);
  while (gate.waiting.load() == set_up_before) std::this_thread::sleep_for(1ms);
  EXPECT_TRUE(async.cancel(fourth));
  EXPECT_FALSE(async.wait(50ms));
  while (async.outstanding() != 0) std::this_thread::sleep_for(1ms);
  EXPECT_EQ(teardowns.load(), 2);
  EXPECT_FALSE(async.poll());
}

TEST(PackAsync, FailuresArriveAsCompletions) {
  Gate gate;
  gate.open = true;
  std::atomic<int> teardowns{0};
  AsyncLoader async(gated_loader(gate, teardowns));
  const RequestId id = async.request_load("/nonexistent/keel/pack.kpk");
  auto done = async.wait(20s);
  ASSERT_TRUE(done);
  EXPECT_EQ(done->id, id);
  ASSERT_FALSE(done->result);
  EXPECT_EQ(done->result.error().code(), ErrorCode::kIo);
}

TEST(PackAsync, DestructorDropsPendingRequests) {
  const auto a = make_pack("da", 1);
  Gate gate;
  gate.open = true;
  std::atomic<int> teardowns{0};
  {
    AsyncLoader async(gated_loader(gate, teardowns));
    for (int i = 0; i < 20; ++i) async.request_load(a);
  }  // joins without waiting for the queue
  EXPECT_LE(teardowns.load(), 20);
}

}  // namespace
}  // namespace keel::pack
