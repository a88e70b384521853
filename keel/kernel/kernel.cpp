#include "keel/kernel/kernel.h"

#include "keel/core/assert.h"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>

namespace keel::kernel {
namespace {

// Room for a typical game's tasks and hooks, so steady-state frames never grow a vector.
constexpr usize kReserveTasks = 64;
constexpr usize kReserveHooks = 8;

}  // namespace

Kernel::Kernel(const Clock& clock, TimingConfig timing) : clock_(clock, timing), frame_{*this} {
  running_.reserve(kReserveTasks);
  pending_.reserve(kReserveTasks);
  pending_scratch_.reserve(kReserveTasks);
  paused_.reserve(kReserveTasks);
  dying_.reserve(kReserveTasks);
  dying_scratch_.reserve(kReserveTasks);
  begin_hooks_.reserve(kReserveHooks);
  end_hooks_.reserve(kReserveHooks);
  pending_hooks_.reserve(kReserveHooks);
}

Kernel::~Kernel() { shutdown(); }

// --- Tasks ---------------------------------------------------------------------------------

bool Kernel::add(std::shared_ptr<Task> task) {
  KEEL_ASSERT(task != nullptr, "Kernel::add(nullptr)");
  if (!task) return false;
  KEEL_ASSERT(task->kernel_ == nullptr, "task '{}' is already in a kernel", task->name_);
  if (task->kernel_ != nullptr || shutting_down_) return false;
  if (!task->start()) return false;
  KEEL_ASSERT(task->kernel_ == nullptr, "task '{}' was added from its own start()", task->name_);
  if (task->kernel_ != nullptr) return false;
  place(std::move(task));
  return true;
}

void Kernel::place(std::shared_ptr<Task> task) {
  Task& t = *task;
  t.kernel_ = this;
  t.state_ = TaskState::kRunning;
  t.kill_ = false;
  t.seq_ = ++next_seq_;
  t.update_ticket_ = t.seq_;
  t.self_ = task;
  ++running_count_;
  Entry entry{std::move(task), t.priority_, t.seq_};
  if (in_frame_) {
    pending_.push_back(std::move(entry));  // joins the running order at the end of the frame
  } else {
    insert_sorted(std::move(entry));
  }
}

void Kernel::insert_sorted(Entry entry) {
  // After every entry of lower or equal priority: ties keep their placement order, because
  // `entry` has the newest ticket.
  auto at = std::upper_bound(running_.begin(), running_.end(), entry.priority,
                             [](s32 priority, const Entry& e) { return priority < e.priority; });
  running_.insert(at, std::move(entry));
}

bool Kernel::suspend(Task& task) {
  if (task.kernel_ != this || task.state_ != TaskState::kRunning || task.kill_) return false;
  std::shared_ptr<Task> owner = task.self_.lock();
  KEEL_ASSERT(owner != nullptr, "task '{}' lost its owner", task.name_);
  if (!owner) return false;
  task.state_ = TaskState::kPaused;  // its running entry is stale from now on
  task.update_ticket_ = 0;
  --running_count_;
  needs_compaction_ = true;
  if (!in_frame_) compact_running();
  paused_.push_back(std::move(owner));
  task.on_suspend();
  return true;
}

bool Kernel::resume(Task& task) {
  if (task.kernel_ != this || task.state_ != TaskState::kPaused || task.kill_) return false;
  auto it = std::find_if(paused_.begin(), paused_.end(),
                         [&](const std::shared_ptr<Task>& p) { return p.get() == &task; });
  KEEL_ASSERT(it != paused_.end(), "paused task '{}' is not in the paused list", task.name_);
  if (it == paused_.end()) return false;
  std::shared_ptr<Task> owner = std::move(*it);
  paused_.erase(it);
  place(std::move(owner));
  task.on_resume();
  return true;
}

bool Kernel::remove(Task& task) {
  if (task.kernel_ != this || task.kill_) return false;
  if (task.state_ == TaskState::kRunning) {
    task.kill_ = true;
    task.update_ticket_ = 0;
    kill_marked_ = true;
    return true;
  }
  if (task.state_ == TaskState::kPaused) {
    auto it = std::find_if(paused_.begin(), paused_.end(),
                           [&](const std::shared_ptr<Task>& p) { return p.get() == &task; });
    if (it == paused_.end()) return false;
    task.kill_ = true;
    dying_.push_back(std::move(*it));
    paused_.erase(it);
    return true;
  }
  return false;
}

void Kernel::kill_all() {
  for (std::vector<Entry>* list : {&running_, &pending_, &pending_scratch_}) {
    // pending_scratch_ is non-empty only while pending tasks are being merged.
    for (Entry& e : *list) {
      if (!live(e)) continue;
      e.task->kill_ = true;
      e.task->update_ticket_ = 0;
    }
  }
  kill_marked_ = true;
  for (std::shared_ptr<Task>& p : paused_) {
    p->kill_ = true;
    dying_.push_back(std::move(p));
  }
  paused_.clear();
}

void Kernel::finish(Task& task) {
  const bool was_running = task.state_ == TaskState::kRunning;
  task.stop();
  if (was_running) --running_count_;
  task.state_ = TaskState::kDetached;
  task.kill_ = false;
  task.update_ticket_ = 0;
  task.kernel_ = nullptr;
  task.self_.reset();
  needs_compaction_ = true;
}

void Kernel::stop_marked() {
  if (kill_marked_) {
    kill_marked_ = false;  // marks made by the stop() calls below are handled next frame
    for (usize i = 0; i < running_.size(); ++i) {
      const Entry& e = running_[i];
      if (live(e) && e.task->kill_) finish(*e.task);
    }
  }
  if (!dying_.empty()) {
    dying_scratch_.swap(dying_);
    for (const std::shared_ptr<Task>& t : dying_scratch_) finish(*t);
    dying_scratch_.clear();
  }
}

void Kernel::compact_running() {
  if (!needs_compaction_) return;
  needs_compaction_ = false;
  std::erase_if(running_, [](const Entry& e) { return !live(e); });
}

void Kernel::flush_pending() {
  // stop() or start() calls made here may add more; loop until nothing is left.
  while (!pending_.empty()) {
    pending_scratch_.swap(pending_);
    for (Entry& e : pending_scratch_) {
      if (!live(e)) continue;  // suspended again before the frame ended
      if (e.task->kill_) {
        finish(*e.task);  // added and removed within one frame: stopped, never updated
        continue;
      }
      insert_sorted(std::move(e));
    }
    pending_scratch_.clear();
  }
}

// --- The loop ------------------------------------------------------------------------------

void Kernel::step() {
  KEEL_ASSERT(!in_frame_, "Kernel::step() called from inside a frame");
  if (in_frame_) return;
  in_frame_ = true;
  clock_.advance(frame_);
  run_hooks(begin_hooks_);

  // running_ keeps its size and order until the updates are done: additions wait in pending_,
  // suspensions leave stale entries, removals only mark.
  const usize count = running_.size();
  for (u32 s = 0; s < frame_.fixed_steps; ++s) {
    frame_.fixed_step = s;
    for (usize i = 0; i < count; ++i) {
      const Entry& e = running_[i];
      if (updatable(e)) e.task->fixed_update(frame_);
    }
    frame_.fixed_time += frame_.fixed_dt;
  }
  frame_.fixed_time = clock_.fixed_time();
  for (usize i = 0; i < count; ++i) {
    const Entry& e = running_[i];
    if (updatable(e)) e.task->update(frame_);
  }

  stop_marked();
  compact_running();
  flush_pending();
  run_hooks(end_hooks_);
  flush_pending();
  compact_running();
  flush_hooks();
  in_frame_ = false;
}

void Kernel::run() {
  KEEL_ASSERT(!in_frame_, "Kernel::run() called from inside a frame");
  if (in_frame_) return;
  while (has_work()) step();
}

u64 Kernel::run_frames(u64 max_frames) {
  KEEL_ASSERT(!in_frame_, "Kernel::run_frames() called from inside a frame");
  if (in_frame_) return 0;
  u64 frames = 0;
  while (frames < max_frames && has_work()) {
    step();
    ++frames;
  }
  return frames;
}

void Kernel::shutdown() {
  KEEL_ASSERT(!in_frame_, "Kernel::shutdown() called from inside a frame");
  if (in_frame_) return;
  shutting_down_ = true;  // add() refuses; killed tasks cannot be suspended or resumed
  in_frame_ = true;       // defer structural changes made by stop() calls
  while (running_count_ > 0 || !paused_.empty() || !dying_.empty()) {
    kill_all();
    stop_marked();
    compact_running();
    flush_pending();
  }
  compact_running();
  flush_hooks();
  in_frame_ = false;
  shutting_down_ = false;
}

// --- Hooks ---------------------------------------------------------------------------------

Kernel::HookId Kernel::add_frame_begin_hook(std::function<void()> hook) {
  return add_hook(true, std::move(hook));
}

Kernel::HookId Kernel::add_frame_end_hook(std::function<void()> hook) {
  return add_hook(false, std::move(hook));
}

Kernel::HookId Kernel::add_hook(bool begin, std::function<void()> fn) {
  KEEL_ASSERT(static_cast<bool>(fn), "empty frame hook");
  Hook hook{++next_hook_id_, begin, !fn, std::move(fn)};
  const HookId id = hook.id;
  if (in_frame_) {
    pending_hooks_.push_back(std::move(hook));
    hooks_dirty_ = true;
  } else {
    (begin ? begin_hooks_ : end_hooks_).push_back(std::move(hook));
  }
  return id;
}

bool Kernel::remove_frame_hook(HookId id) {
  for (std::vector<Hook>* hooks : {&begin_hooks_, &end_hooks_, &pending_hooks_}) {
    auto it = std::find_if(hooks->begin(), hooks->end(),
                           [&](const Hook& h) { return h.id == id && !h.removed; });
    if (it == hooks->end()) continue;
    if (in_frame_) {
      it->removed = true;  // the hook may be the one running: destroy it after the frame
      hooks_dirty_ = true;
    } else {
      hooks->erase(it);
    }
    return true;
  }
  return false;
}

void Kernel::run_hooks(const std::vector<Hook>& hooks) {
  const usize count = hooks.size();
  for (usize i = 0; i < count; ++i) {
    if (!hooks[i].removed) hooks[i].fn();
  }
}

void Kernel::flush_hooks() {
  if (!hooks_dirty_) return;
  hooks_dirty_ = false;
  const auto removed = [](const Hook& h) { return h.removed; };
  std::erase_if(begin_hooks_, removed);
  std::erase_if(end_hooks_, removed);
  for (Hook& h : pending_hooks_) {
    if (!h.removed) (h.begin ? begin_hooks_ : end_hooks_).push_back(std::move(h));
  }
  pending_hooks_.clear();
}

// --- Diagnostics ---------------------------------------------------------------------------

std::string Kernel::describe() const {
  std::string out;
  auto line = [&](const Task& t, const char* state) {
    fmt::format_to(std::back_inserter(out), "{} (priority {}): {}\n", t.name(), t.priority(),
                   state);
  };
  for (const Entry& e : running_) {
    if (live(e)) line(*e.task, e.task->kill_ ? "running, kill pending" : "running");
  }
  for (const std::vector<Entry>* list : {&pending_, &pending_scratch_}) {
    for (const Entry& e : *list) {
      if (live(e)) line(*e.task, "running from next frame");
    }
  }
  for (const std::shared_ptr<Task>& t : paused_) line(*t, "paused");
  for (const std::shared_ptr<Task>& t : dying_) line(*t, "paused, kill pending");
  return out;
}

}  // namespace keel::kernel
