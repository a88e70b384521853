// One build at a time per project: keel-build holds a BuildLock while it builds or cleans, so a
// second run on the same project waits (or refuses) instead of overwriting the first one's
// intermediates, database and data files.
//
//   Result<BuildLock> lock = BuildLock::acquire(project, BuildLock::Wait::kYes,
//                                               [](u32 pid) { print("waiting for pid", pid); });
//
// The lock is flock(2) on <intermediate path>/build.lock, which holds the holder's process id
// while it runs: the operating system releases the lock when the process dies, even by kill -9.
// A lock file that still names a process when it is acquired means that process died while
// building; stale_build() tells, and the caller removes its temporaries
// (remove_stale_temporaries).
#pragma once

#include "keel/core/error.h"
#include "keel/core/file.h"
#include "keel/core/types.h"
#include "keel/pipeline/project.h"

#include <filesystem>
#include <functional>

namespace keel::pipeline {

inline constexpr std::string_view kLockName = "build.lock";

class BuildLock {
 public:
  enum class Wait : u8 { kNo, kYes };

  // kRefused naming the holder's pid when another process holds the lock and `wait` is kNo;
  // with kYes, calls `on_wait(pid)` once and blocks until the lock is free. kIo when the lock
  // file cannot be created; kInvalidArgument for a project that was not loaded.
  static Result<BuildLock> acquire(const Project& project, Wait wait,
                                   const std::function<void(u32 pid)>& on_wait = {});

  BuildLock(BuildLock&& other) noexcept;
  BuildLock& operator=(BuildLock&& other) noexcept;
  BuildLock(const BuildLock&) = delete;
  BuildLock& operator=(const BuildLock&) = delete;
  ~BuildLock();  // empties the lock file, then releases

  // The process id the lock file named when acquired: a build that died (0 when none).
  u32 stale_build() const { return stale_pid_; }

 private:
  BuildLock() = default;
  int fd_ = -1;
  u32 stale_pid_ = 0;
};

using keel::remove_stale_temporaries;

// keel::remove_stale_temporaries (keel/core/file.h) for every folder of the project where
// keel-build writes: the intermediate folders of its platforms and their image folders.
usize remove_stale_temporaries(const Project& project);

}  // namespace keel::pipeline
