// AsyncLoader: loads packs on a loader thread while the game keeps running (Golden Rules ch. 5.6).
//
//   AsyncLoader async(loader);                  // starts the thread
//   RequestId id = async.request_load("level2.kpk");   // returns at once
//   ... every frame:
//   while (auto done = async.poll()) { if (done->result) use(std::move(*done->result)); }
//
// request_load() appends to the request queue (FIFO) and wakes the thread, which reads,
// decompresses and sets up the pack (setup functions run on the loader thread) and appends the
// result to the completion queue that poll() reads without blocking. cancel() removes a request
// that is still queued, stops one being loaded (checked between blocks and setups), or drops a
// finished one not yet polled: after cancel() returns true the request never reaches poll().
// The destructor cancels everything outstanding and joins the thread.
#pragma once

#include "keel/core/error.h"
#include "keel/pack/loader.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <filesystem>
#include <mutex>
#include <optional>
#include <thread>

namespace keel::pack {

using RequestId = u64;

struct LoadCompletion {
  RequestId id = 0;
  std::filesystem::path path;
  Result<LoadedPack> result;
};

class AsyncLoader {
 public:
  explicit AsyncLoader(Loader loader);
  ~AsyncLoader();
  AsyncLoader(const AsyncLoader&) = delete;
  AsyncLoader& operator=(const AsyncLoader&) = delete;

  RequestId request_load(std::filesystem::path path, LoadOptions options = {});
  bool cancel(RequestId id);

  // The oldest finished request, or nothing. Never blocks on a load.
  std::optional<LoadCompletion> poll();
  // Blocks until a request finishes or the timeout passes (tools and tests; not for frames).
  std::optional<LoadCompletion> wait(std::chrono::milliseconds timeout);

  usize outstanding() const;  // queued + loading + finished but not polled

 private:
  struct Request {
    RequestId id = 0;
    std::filesystem::path path;
    LoadOptions options;
  };
  void run();

  Loader loader_;
  mutable std::mutex mutex_;
  std::condition_variable work_ready_;
  std::condition_variable completion_ready_;
  std::deque<Request> requests_;
  std::deque<LoadCompletion> completions_;
  RequestId next_id_ = 1;
  RequestId loading_id_ = 0;  // 0 = idle
  std::atomic<bool> cancel_current_{false};
  bool stopping_ = false;
  std::thread thread_;  // last: starts after everything above is constructed
};

}  // namespace keel::pack
