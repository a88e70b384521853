// A unit of per-frame work run by a Kernel, with the Enginuity life cycle:
// start -> update each frame (-> on_suspend ... on_resume) -> stop.
#pragma once

#include "keel/core/types.h"
#include "keel/kernel/frame.h"

#include <memory>
#include <string>

namespace keel::kernel {

enum class TaskState : u8 {
  kDetached,  // not in a kernel (never added, refused, or stopped)
  kRunning,   // updated every frame (possibly only from the next frame on, if added mid-frame)
  kPaused,    // suspended: no updates until resumed
};

class Task {
 public:
  static constexpr s32 kDefaultPriority = 5000;

  // Lower priority numbers update first; equal priorities update in the order they were added
  // (or resumed). The name is for diagnostics (Kernel::describe, logs, profiler labels).
  explicit Task(std::string name = "task", s32 priority = kDefaultPriority);
  virtual ~Task() = default;
  Task(const Task&) = delete;
  Task& operator=(const Task&) = delete;

  // Called by Kernel::add. Returning false refuses: the task is not added, never updated and
  // never stopped, and add() reports false.
  virtual bool start() { return true; }
  // Called once per frame while running, in priority order.
  virtual void update(const Frame& frame) = 0;
  // With a fixed step configured: called once per fixed step (0..n per frame) before update();
  // use frame.fixed_dt and frame.fixed_time.
  virtual void fixed_update(const Frame& /*frame*/) {}
  // Called once when the task is suspended / resumed.
  virtual void on_suspend() {}
  virtual void on_resume() {}
  // Called once when the task leaves the kernel: at the end of the frame in which it was
  // removed, or when the kernel shuts down. Every task whose start() succeeded is stopped once.
  virtual void stop() {}

  const std::string& name() const { return name_; }
  s32 priority() const { return priority_; }
  // Takes effect the next time the task is added or resumed (the kernel's order is fixed
  // while the task sits in it).
  void set_priority(s32 priority) { priority_ = priority; }

  TaskState state() const { return state_; }
  // Marked by Kernel::remove or kill_all; stop() has not been called yet.
  bool kill_pending() const { return kill_; }
  // The kernel the task is in, or null when detached.
  Kernel* kernel() const { return kernel_; }

 private:
  friend class Kernel;

  // seq_ while the task is to be updated (running, not marked), else 0: the frame loop's only
  // check per task. First, so it shares a cache line with the vtable pointer.
  u64 update_ticket_ = 0;
  u64 seq_ = 0;  // placement ticket: identifies the kernel's current entry
  s32 priority_;
  TaskState state_ = TaskState::kDetached;
  bool kill_ = false;
  Kernel* kernel_ = nullptr;
  std::string name_;
  std::weak_ptr<Task> self_;  // set while in a kernel, so Task& calls find the owner in O(1)
};

}  // namespace keel::kernel
