// Test helper (not installed): a task that logs every life-cycle call into a shared event log
// and can run a callback in update/fixed_update/stop.
#pragma once

#include "keel/kernel/kernel.h"
#include "keel/kernel/task.h"

#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace keel::kernel::testing {

using Log = std::vector<std::string>;

class RecordingTask : public Task {
 public:
  using Callback = std::function<void(const Frame&, RecordingTask&)>;

  RecordingTask(Log& log, std::string name, s32 priority = kDefaultPriority, bool accept = true)
      : Task(std::move(name), priority), log_(&log), accept_(accept) {}

  bool start() override {
    ++starts;
    log_->push_back("start " + name());
    return accept_;
  }
  void update(const Frame& frame) override {
    ++updates;
    log_->push_back("update " + name());
    if (on_update) on_update(frame, *this);
  }
  void fixed_update(const Frame& frame) override {
    ++fixed_updates;
    log_->push_back("fixed " + name());
    if (on_fixed_update) on_fixed_update(frame, *this);
  }
  void on_suspend() override {
    ++suspends;
    log_->push_back("suspend " + name());
  }
  void on_resume() override {
    ++resumes;
    log_->push_back("resume " + name());
  }
  void stop() override {
    ++stops;
    log_->push_back("stop " + name());
    if (on_stop) on_stop(frame_of_kernel(), *this);
  }

  void set_accept(bool accept) { accept_ = accept; }

  int starts = 0;
  int updates = 0;
  int fixed_updates = 0;
  int suspends = 0;
  int resumes = 0;
  int stops = 0;
  Callback on_update;
  Callback on_fixed_update;
  Callback on_stop;

 private:
  const Frame& frame_of_kernel() const { return kernel()->frame(); }

  Log* log_;
  bool accept_;
};

// The entries of `log` that start with `prefix` (e.g. "update ").
inline Log only(const Log& log, std::string_view prefix) {
  Log out;
  for (const std::string& line : log) {
    if (line.starts_with(prefix)) out.push_back(line);
  }
  return out;
}

}  // namespace keel::kernel::testing
