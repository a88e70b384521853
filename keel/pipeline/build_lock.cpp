#include "keel/pipeline/build_lock.h"

#include "keel/core/file.h"

#include <fmt/format.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <string>

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <unistd.h>

namespace keel::pipeline {

namespace fs = std::filesystem;

namespace {

u32 read_pid(int fd) {
  char buffer[32] = {};
  const ssize_t n = ::pread(fd, buffer, sizeof buffer - 1, 0);
  if (n <= 0) return 0;
  u32 pid = 0;
  std::from_chars(buffer, buffer + n, pid);
  return pid;
}

bool write_pid(int fd, u32 pid) {
  const std::string text = pid != 0 ? fmt::format("{}\n", pid) : std::string();
  if (::ftruncate(fd, 0) != 0) return false;
  return text.empty() ||
         ::pwrite(fd, text.data(), text.size(), 0) == static_cast<ssize_t>(text.size());
}

}  // namespace

Result<BuildLock> BuildLock::acquire(const Project& project, Wait wait,
                                     const std::function<void(u32 pid)>& on_wait) {
  if (!project.intermediate_path.is_absolute()) {
    return fail(ErrorCode::kInvalidArgument,
                "the project has no intermediate path: load it before locking its build");
  }
  std::error_code ec;
  fs::create_directories(project.intermediate_path, ec);
  const fs::path path = project.intermediate_path / std::string(kLockName);
  BuildLock lock;
  lock.fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (lock.fd_ < 0) {
    return fail_at(SourceLocation::text(path.string(), 0), ErrorCode::kIo,
                   "cannot create the build lock: {}", std::strerror(errno));
  }
  if (::flock(lock.fd_, LOCK_EX | LOCK_NB) != 0) {
    if (errno != EWOULDBLOCK) {
      return fail_at(SourceLocation::text(path.string(), 0), ErrorCode::kIo,
                     "cannot lock the build: {}", std::strerror(errno));
    }
    const u32 holder = read_pid(lock.fd_);
    if (wait == Wait::kNo) {
      return fail(ErrorCode::kRefused, "another keel-build is running on this project (pid {})",
                  holder);
    }
    if (on_wait) on_wait(holder);
    while (::flock(lock.fd_, LOCK_EX) != 0) {
      if (errno != EINTR) {
        return fail_at(SourceLocation::text(path.string(), 0), ErrorCode::kIo,
                       "cannot lock the build: {}", std::strerror(errno));
      }
    }
  }
  lock.stale_pid_ = read_pid(lock.fd_);
  write_pid(lock.fd_, static_cast<u32>(::getpid()));
  return lock;
}

BuildLock::BuildLock(BuildLock&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)), stale_pid_(other.stale_pid_) {}

BuildLock& BuildLock::operator=(BuildLock&& other) noexcept {
  if (this != &other) {
    this->~BuildLock();
    fd_ = std::exchange(other.fd_, -1);
    stale_pid_ = other.stale_pid_;
  }
  return *this;
}

BuildLock::~BuildLock() {
  if (fd_ < 0) return;
  write_pid(fd_, 0);  // a clean finish: the next build has nothing stale to look for
  ::close(fd_);       // releases the flock
  fd_ = -1;
}

usize remove_stale_temporaries(const Project& project) {
  usize removed = remove_stale_temporaries(project.intermediate_path, false);
  for (const std::string& platform : project.platforms) {
    removed += remove_stale_temporaries(project.intermediate_path / platform, true);
    removed += remove_stale_temporaries(project.image_dir(platform), false);
  }
  return removed;
}

}  // namespace keel::pipeline
