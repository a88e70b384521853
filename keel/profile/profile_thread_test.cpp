// Several threads profile at once, each on its own thread-local profiler, while the main thread
// keeps exporting the merged Chrome trace (the readers of the per-thread ring buffers race the
// writers by design; run under ThreadSanitizer by CI).
#include "keel/profile/profile.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <map>
#include <string>
#include <thread>
#include <vector>

namespace keel::profile {
namespace {

using nlohmann::json;

// Explicit sites and scopes rather than the macros, so the test also runs in builds with
// profiling compiled out (the thread-local profiler exists either way).
constexpr Site kItem{"work item", __FILE__, __LINE__};
constexpr Site kWorkerFrame{"worker frame", __FILE__, __LINE__};
constexpr Site kFileWork{"file work", __FILE__, __LINE__};
constexpr Site kMainWork{"main work", __FILE__, __LINE__};

void work_item(int depth) {
  const Scope scope(kItem);
  if (depth > 0) work_item(depth - 1);
}

struct WorkerResult {
  u64 frames = 0;
  u32 outer_calls = 0;
  u32 item_calls = 0;
  u64 errors = 0;
  usize nodes = 0;
};

void worker(int index, int frames, WorkerResult& out) {
  set_thread_name(fmt::format("worker {}", index));
  Profiler& p = this_thread();
  for (int f = 0; f < frames; ++f) {
    begin_frame();
    {
      const Scope scope(kWorkerFrame);
      for (int i = 0; i < 4; ++i) work_item(2);
    }
    end_frame();
  }
  out.frames = p.frame_count();
  out.outer_calls = p.node(p.find("worker frame")).calls;
  out.item_calls = p.node(p.find("worker frame/work item")).calls;
  out.errors = p.error_count();
  out.nodes = p.node_count();
}

TEST(ProfileThreads, PerThreadTreesAndMergedTrace) {
  constexpr int kThreads = 4;
  constexpr int kFrames = 200;
  std::vector<WorkerResult> results(kThreads);
  std::atomic<bool> done{false};
  std::atomic<int> exports{0};

  std::thread reader([&] {
    while (!done.load(std::memory_order_acquire)) {
      const json doc = json::parse(chrome_trace_json(2));
      EXPECT_TRUE(doc.at("traceEvents").is_array());
      exports.fetch_add(1, std::memory_order_relaxed);
    }
  });
  std::vector<std::thread> workers;
  workers.reserve(kThreads);
  for (int i = 0; i < kThreads; ++i) {
    workers.emplace_back(worker, i, kFrames, std::ref(results[static_cast<usize>(i)]));
  }
  for (std::thread& t : workers) t.join();
  done.store(true, std::memory_order_release);
  reader.join();
  EXPECT_GT(exports.load(), 0);

  for (const WorkerResult& r : results) {
    EXPECT_EQ(r.frames, static_cast<u64>(kFrames));
    EXPECT_EQ(r.outer_calls, 1u);
    EXPECT_EQ(r.item_calls, 4u);
    EXPECT_EQ(r.errors, 0u);
    EXPECT_EQ(r.nodes, 5u);  // Frame, worker frame, work item x3 levels
  }

  // The exited workers' buffers are kept: the merged trace has one named track per worker.
  const json doc = json::parse(chrome_trace_json(0));
  std::map<int, std::string> names;
  std::map<int, int> events;
  for (const json& e : doc.at("traceEvents")) {
    const int tid = e.at("tid").get<int>();
    if (e.at("ph") == "M" && e.at("name") == "thread_name") {
      names[tid] = e.at("args").at("name").get<std::string>();
    } else if (e.at("ph") == "X") {
      ++events[tid];
      EXPECT_GE(e.at("dur").get<double>(), 0.0);
    }
  }
  int workers_seen = 0;
  for (const auto& [tid, name] : names) {
    if (name.rfind("worker ", 0) != 0) continue;
    ++workers_seen;
    // Each frame records 1 frame + 1 outer + 12 items = 14 events; the ring keeps the newest.
    EXPECT_EQ(events[tid],
              std::min<int>(kFrames * 14, static_cast<int>(TraceBuffer::kDefaultCapacity)))
        << name;
  }
  EXPECT_EQ(workers_seen, kThreads);

  // Only the last frame: the window starts where the newest frame (of any thread) starts, so the
  // workers' earlier frames drop out.
  const json last = json::parse(chrome_trace_json(1));
  EXPECT_LT(last.at("traceEvents").size(), doc.at("traceEvents").size());

  discard_exited_threads();
  const json after = json::parse(chrome_trace_json(0));
  for (const json& e : after.at("traceEvents")) {
    if (e.at("ph") == "M" && e.at("name") == "thread_name") {
      EXPECT_EQ(e.at("args").at("name").get<std::string>().rfind("worker ", 0), std::string::npos);
    }
  }
}

TEST(ProfileThreads, TraceFileFromSeveralThreads) {
  const std::string path = std::string(KEEL_TEST_TMPDIR) + "/profile_threads_trace.json";
  std::thread t([] {
    set_thread_name("file worker");
    begin_frame();
    { const Scope scope(kFileWork); }
    end_frame();
  });
  t.join();
  begin_frame();
  { const Scope scope(kMainWork); }
  end_frame();
  std::filesystem::create_directories(KEEL_TEST_TMPDIR);
  ASSERT_TRUE(write_chrome_trace(path).has_value());
  std::FILE* file = std::fopen(path.c_str(), "rb");
  ASSERT_NE(file, nullptr);
  const json doc = json::parse(file);
  std::fclose(file);
  bool file_work = false;
  bool main_work = false;
  for (const json& e : doc.at("traceEvents")) {
    file_work = file_work || e.at("name") == "file work";
    main_work = main_work || e.at("name") == "main work";
  }
  EXPECT_TRUE(file_work);
  EXPECT_TRUE(main_work);
}

}  // namespace
}  // namespace keel::profile
