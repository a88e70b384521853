// The kernel: the frame loop that runs tasks in priority order, with suspend/resume/remove that
// are safe to call from inside a frame, a frame clock, an optional fixed step, and frame hooks.
//
//   keel::kernel::Kernel kernel;                     // or Kernel(fake_clock, {.fixed_dt = 1/60.})
//   kernel.add(std::make_shared<InputTask>());       // start() runs now; false = refused
//   auto game = kernel.create<GameTask>(level);      // same, returns the task (null if refused)
//   kernel.add_frame_end_hook([&] { objects.collect(); });
//   kernel.run();                                    // until no running task is left
//
// Inside a frame, structural changes are deferred so the running list is never reshaped while
// it is being walked: a task added or resumed mid-frame joins the running order at the end of
// that frame (first update: the next frame); a task suspended or removed mid-frame is not
// updated again in that frame; a removed task is stopped at the end of the frame.
#pragma once

#include "keel/core/clock.h"
#include "keel/core/types.h"
#include "keel/kernel/frame.h"
#include "keel/kernel/frame_clock.h"
#include "keel/kernel/task.h"

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace keel::kernel {

class Kernel {
 public:
  using HookId = u32;

  // `clock` must outlive the kernel. Tests pass a FakeClock.
  explicit Kernel(const Clock& clock = SteadyClock::instance(), TimingConfig timing = {});
  // Calls shutdown(): every task still in the kernel is stopped.
  ~Kernel();
  Kernel(const Kernel&) = delete;
  Kernel& operator=(const Kernel&) = delete;

  // --- Tasks. The kernel shares ownership of its tasks (see README: why shared_ptr). ---

  // Calls task->start(); on true the task joins the running tasks in its priority slot (after
  // tasks of equal priority). Returns false if start() refused, or (asserted) if the task is
  // null or already in a kernel.
  bool add(std::shared_ptr<Task> task);
  // make_shared<T>(args...) + add(); returns null if start() refused.
  template <typename T, typename... Args>
  std::shared_ptr<T> create(Args&&... args) {
    auto task = std::make_shared<T>(std::forward<Args>(args)...);
    if (!add(task)) return nullptr;
    return task;
  }
  // Running (and not marked for killing) -> paused, then on_suspend(). Otherwise false.
  bool suspend(Task& task);
  // Paused -> running in its priority slot (after equal priorities), then on_resume().
  // Otherwise false.
  bool resume(Task& task);
  // Marks a running or paused task of this kernel for killing: it is not updated any more and
  // stop() is called at the end of the current frame (the next frame when called between
  // frames). False if the task is not in this kernel or already marked.
  bool remove(Task& task);
  // remove() for every task, running and paused.
  void kill_all();

  // --- The loop. ---

  // Runs frames until no task is running (and none awaits stop()). Paused tasks alone do not
  // keep it going: nothing inside the loop could ever resume them. They stay paused in the
  // kernel (resume them and run() again) and are stopped at shutdown.
  void run();
  // Like run(), but at most `max_frames` frames. Returns the number of frames run.
  u64 run_frames(u64 max_frames);
  // One frame: begin hooks; fixed steps (fixed_update on every live task, per step); update on
  // every running task not marked for killing, in priority order; stop() and removal of marked
  // tasks; tasks added/resumed during the frame join the running order; end hooks.
  void step();
  // Stops every task (running in priority order, then paused) and empties the kernel. add()
  // is refused while it runs. The kernel can be used again afterwards.
  void shutdown();

  // True while a task is running or awaiting stop(): what run() loops on.
  bool has_work() const { return running_count_ > 0 || !dying_.empty(); }
  usize running_count() const { return running_count_; }
  usize paused_count() const { return paused_.size(); }
  bool in_frame() const { return in_frame_; }

  // --- Frame hooks: run every frame in the order added. Hooks added during a frame run from
  // the next frame; a hook removed during a frame does not run again (not even later in it).
  HookId add_frame_begin_hook(std::function<void()> hook);
  HookId add_frame_end_hook(std::function<void()> hook);
  bool remove_frame_hook(HookId id);

  // --- Timing. ---
  // The current frame (inside a frame) or the last one.
  const Frame& frame() const { return frame_; }
  FrameClock& frame_clock() { return clock_; }
  const FrameClock& frame_clock() const { return clock_; }

  // One line per task: name, priority, state (running order first, then paused, then dying).
  std::string describe() const;

 private:
  struct Entry {
    std::shared_ptr<Task> task;
    s32 priority = 0;
    u64 seq = 0;
  };
  struct Hook {
    HookId id = 0;
    bool begin = false;
    bool removed = false;
    std::function<void()> fn;
  };

  // An entry is live while its task is running under that same placement ticket; suspending
  // (or suspending and resuming) a task makes its old entry stale without touching the list.
  static bool live(const Entry& e) {
    return e.task && e.task->state_ == TaskState::kRunning && e.task->seq_ == e.seq;
  }
  static bool updatable(const Entry& e) { return e.task->update_ticket_ == e.seq; }

  void place(std::shared_ptr<Task> task);
  void insert_sorted(Entry entry);
  void finish(Task& task);
  void stop_marked();
  void flush_pending();
  void compact_running();
  void flush_hooks();
  HookId add_hook(bool begin, std::function<void()> fn);
  static void run_hooks(const std::vector<Hook>& hooks);

  FrameClock clock_;
  Frame frame_;
  std::vector<Entry> running_;  // sorted by (priority, seq); never reshaped during a frame
  std::vector<Entry> pending_;  // added or resumed during the current frame
  std::vector<Entry> pending_scratch_;
  std::vector<std::shared_ptr<Task>> paused_;
  std::vector<std::shared_ptr<Task>> dying_;  // removed while paused: stop() at frame end
  std::vector<std::shared_ptr<Task>> dying_scratch_;
  std::vector<Hook> begin_hooks_;
  std::vector<Hook> end_hooks_;
  std::vector<Hook> pending_hooks_;
  usize running_count_ = 0;
  u64 next_seq_ = 0;
  HookId next_hook_id_ = 0;
  bool in_frame_ = false;
  bool shutting_down_ = false;
  bool kill_marked_ = false;       // some running task may be marked: the stop pass has work
  bool needs_compaction_ = false;  // running_ may hold stale entries
  bool hooks_dirty_ = false;
};

}  // namespace keel::kernel
