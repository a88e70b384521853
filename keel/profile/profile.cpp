#include "keel/profile/profile.h"

#include "keel/core/file.h"
#include "keel/profile/chrome_trace.h"
#include "keel/profile/detail/trace_registry.h"

#include <memory>

namespace keel::profile {

namespace detail {
constinit thread_local Profiler* t_profiler = nullptr;
}  // namespace detail

namespace {

// The calling thread's profiler and its registered trace buffer. On thread exit the buffer is
// retired (kept for export) and the profiler destroyed.
struct ThreadState {
  std::shared_ptr<TraceBuffer> trace;
  Profiler profiler;

  ThreadState()
      : trace(detail::TraceRegistry::global().create(CpuTickSource::instance())),
        profiler(ProfilerOptions{.trace = trace.get()}) {}
  ~ThreadState() {
    detail::t_profiler = nullptr;
    detail::TraceRegistry::global().retire(trace);
  }
  ThreadState(const ThreadState&) = delete;
  ThreadState& operator=(const ThreadState&) = delete;
};

thread_local std::unique_ptr<ThreadState> t_state;

}  // namespace

Profiler& detail::make_thread_profiler() {
  t_state = std::make_unique<ThreadState>();
  t_profiler = &t_state->profiler;
  return *t_profiler;
}

void set_thread_name(std::string_view name) {
  this_thread();  // make sure the buffer exists
  t_state->trace->set_thread_name(name);
}

std::string chrome_trace_json(u32 frames) {
  const std::vector<ThreadTrace> threads = detail::TraceRegistry::global().snapshot_all();
  return chrome_trace_json(threads, TraceOptions{.frames = frames});
}

Status write_chrome_trace(const std::filesystem::path& path, u32 frames) {
  return write_file_atomic(path, chrome_trace_json(frames));
}

void discard_exited_threads() { detail::TraceRegistry::global().discard_exited(); }

}  // namespace keel::profile
