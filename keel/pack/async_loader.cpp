#include "keel/pack/async_loader.h"

#include <algorithm>

namespace keel::pack {

AsyncLoader::AsyncLoader(Loader loader) : loader_(std::move(loader)), thread_([this] { run(); }) {}

AsyncLoader::~AsyncLoader() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    requests_.clear();
    cancel_current_.store(true, std::memory_order_release);
  }
  work_ready_.notify_all();
  thread_.join();
  // Finished packs nobody polled are destroyed here, on the owner's thread.
}

RequestId AsyncLoader::request_load(std::filesystem::path path, LoadOptions options) {
  RequestId id = 0;
  {
    std::lock_guard lock(mutex_);
    id = next_id_++;
    requests_.push_back(Request{id, std::move(path), options});
  }
  work_ready_.notify_one();
  return id;
}

bool AsyncLoader::cancel(RequestId id) {
  std::unique_lock lock(mutex_);
  auto queued = std::find_if(requests_.begin(), requests_.end(),
                             [id](const Request& r) { return r.id == id; });
  if (queued != requests_.end()) {
    requests_.erase(queued);
    return true;
  }
  if (loading_id_ == id && !cancel_current_.load(std::memory_order_acquire)) {
    // The loader thread drops the result (and checks this flag between blocks and setups).
    cancel_current_.store(true, std::memory_order_release);
    return true;
  }
  auto done = std::find_if(completions_.begin(), completions_.end(),
                           [id](const LoadCompletion& c) { return c.id == id; });
  if (done != completions_.end()) {
    LoadCompletion dropped = std::move(*done);
    completions_.erase(done);
    lock.unlock();  // the pack's teardowns run outside the lock
    return true;
  }
  return false;
}

std::optional<LoadCompletion> AsyncLoader::poll() {
  std::lock_guard lock(mutex_);
  if (completions_.empty()) return std::nullopt;
  LoadCompletion done = std::move(completions_.front());
  completions_.pop_front();
  return done;
}

std::optional<LoadCompletion> AsyncLoader::wait(std::chrono::milliseconds timeout) {
  std::unique_lock lock(mutex_);
  if (!completion_ready_.wait_for(lock, timeout, [this] { return !completions_.empty(); })) {
    return std::nullopt;
  }
  LoadCompletion done = std::move(completions_.front());
  completions_.pop_front();
  return done;
}

usize AsyncLoader::outstanding() const {
  std::lock_guard lock(mutex_);
  return requests_.size() + (loading_id_ != 0 ? 1 : 0) + completions_.size();
}

void AsyncLoader::run() {
  std::unique_lock lock(mutex_);
  for (;;) {
    work_ready_.wait(lock, [this] { return stopping_ || !requests_.empty(); });
    if (stopping_) return;
    Request request = std::move(requests_.front());
    requests_.pop_front();
    loading_id_ = request.id;
    cancel_current_.store(false, std::memory_order_relaxed);
    lock.unlock();

    // Read, decompress and set up without holding the lock.
    LoadOptions options = request.options;
    options.cancel = &cancel_current_;
    Result<LoadedPack> result = loader_.load(request.path, options);

    lock.lock();
    if (cancel_current_.load(std::memory_order_acquire)) {
      lock.unlock();
      result = Result<LoadedPack>();  // a cancelled pack is torn down outside the lock
      lock.lock();
    } else {
      completions_.push_back(
          LoadCompletion{request.id, std::move(request.path), std::move(result)});
      completion_ready_.notify_all();
    }
    loading_id_ = 0;
  }
}

}  // namespace keel::pack
