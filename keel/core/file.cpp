#include "keel/core/file.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <random>
#include <vector>

namespace keel {
namespace {

Unexpected io_error(const std::filesystem::path& path, std::string_view what) {
  return Unexpected(Error(ErrorCode::kIo, fmt::format("{}: {}", what, std::strerror(errno)),
                          SourceLocation{path.string(), 0, 0, 0, false}));
}

Unexpected empty_path(std::string_view function) {
  return Unexpected(Error(ErrorCode::kInvalidArgument, fmt::format("{}: empty path", function)));
}

// A temporary name no other writer uses at the same time: `<target>.tmp.<pid>.<n>.<r>` with n
// from a process-wide counter (threads of one process differ in n) and r a random number drawn
// once per process (a new process that got an old pid after a crash still differs). O_EXCL makes
// the file ours alone; a name that exists anyway (a crash's leftover) is skipped.
std::FILE* create_temporary(const std::filesystem::path& target, std::filesystem::path& temp) {
  static std::atomic<u64> counter{0};
  static const u32 salt = std::random_device{}();
  for (int attempt = 0; attempt < 100; ++attempt) {
    temp = target;
    temp += fmt::format(".tmp.{}.{}.{:08x}", ::getpid(),
                        counter.fetch_add(1, std::memory_order_relaxed), salt);
    const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd >= 0) {
      std::FILE* file = ::fdopen(fd, "wb");
      if (file == nullptr) {
        const int saved = errno;
        ::close(fd);
        std::remove(temp.c_str());
        errno = saved;
      }
      return file;
    }
    if (errno != EEXIST) return nullptr;
  }
  return nullptr;
}

// The pid of an atomic-write temporary "<target>.tmp.<pid>.<counter>.<random>", or 0.
u32 temporary_pid(const std::string& name) {
  const usize tmp = name.rfind(".tmp.");
  if (tmp == std::string::npos || tmp == 0) return 0;
  const char* first = name.data() + tmp + 5;
  const char* last = name.data() + name.size();
  u32 pid = 0;
  const auto [end, ec] = std::from_chars(first, last, pid);
  if (ec != std::errc() || end == first || (end != last && *end != '.')) return 0;
  return pid;
}

bool process_alive(u32 pid) { return ::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM; }

// A temporary of a dead process (never of this one).
bool is_stale_temporary(const std::string& name) {
  const u32 pid = temporary_pid(name);
  return pid != 0 && pid != static_cast<u32>(::getpid()) && !process_alive(pid);
}

usize remove_all(const std::vector<std::filesystem::path>& doomed) {
  usize removed = 0;
  std::error_code ec;
  for (const std::filesystem::path& p : doomed) removed += std::filesystem::remove(p, ec) ? 1 : 0;
  return removed;
}

}  // namespace

usize remove_stale_temporaries(const std::filesystem::path& dir, bool recursive) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (dir.empty() || !fs::is_directory(dir, ec)) return 0;
  std::vector<fs::path> doomed;
  auto consider = [&](const fs::directory_entry& e) {
    if (e.is_regular_file(ec) && is_stale_temporary(e.path().filename().string())) {
      doomed.push_back(e.path());
    }
  };
  if (recursive) {
    for (const fs::directory_entry& e : fs::recursive_directory_iterator(dir, ec)) consider(e);
  } else {
    for (const fs::directory_entry& e : fs::directory_iterator(dir, ec)) consider(e);
  }
  return remove_all(doomed);
}

usize remove_stale_temporaries_of(const std::filesystem::path& target) {
  namespace fs = std::filesystem;
  if (target.empty() || !target.has_filename()) return 0;
  const fs::path dir = target.parent_path().empty() ? fs::path(".") : target.parent_path();
  const std::string prefix = target.filename().string() + ".tmp.";
  std::error_code ec;
  std::vector<fs::path> doomed;
  for (const fs::directory_entry& e : fs::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    // The prefix must be followed directly by the pid: "a.tmp.1.2.3" is a temporary of "a".
    if (name.size() > prefix.size() && name.compare(0, prefix.size(), prefix) == 0 &&
        name.find(".tmp.", prefix.size()) == std::string::npos && e.is_regular_file(ec) &&
        is_stale_temporary(name)) {
      doomed.push_back(e.path());
    }
  }
  return remove_all(doomed);
}

Result<std::string> read_file(const std::filesystem::path& path) {
  if (path.empty()) return empty_path("read_file");
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return io_error(path, "cannot open for reading");
  // A regular file is read straight into a string of its size (no growing copies); anything
  // else, or a file that grows meanwhile, in 64 KiB pieces after that.
  struct stat st {};
  usize expected = 0;
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) expected = static_cast<usize>(st.st_size);
  std::string data;
  bool failed = false;
  data.resize_and_overwrite(expected, [&](char* out, usize size) {
    usize done = 0;
    while (done < size) {
      const ssize_t n = ::read(fd, out + done, size - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        failed = n < 0;
        break;
      }
      done += static_cast<usize>(n);
    }
    return done;
  });
  char buffer[1 << 16];
  while (!failed) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      failed = n < 0;
      break;
    }
    data.append(buffer, static_cast<usize>(n));
  }
  const int saved = errno;
  ::close(fd);
  errno = saved;
  if (failed) return io_error(path, "read failed");
  return data;
}

AtomicFileWriter::~AtomicFileWriter() { discard(); }

Status AtomicFileWriter::open(const std::filesystem::path& path) {
  discard();
  if (path.empty()) return empty_path("AtomicFileWriter::open");
  target_ = path;
  file_ = create_temporary(target_, temp_);
  if (file_ == nullptr) return io_error(temp_, "cannot create temporary file");
  return ok();
}

Status AtomicFileWriter::write(const void* data, usize size) {
  if (file_ == nullptr)
    return fail(ErrorCode::kInvalidArgument, "write to a writer that is not open");
  if (data == nullptr && size != 0) {
    discard();
    return fail(ErrorCode::kInvalidArgument, "write of {} bytes from a null pointer", size);
  }
  if (size != 0 && std::fwrite(data, 1, size, file_) != size) {
    auto err = io_error(temp_, "write failed");
    discard();
    return err;
  }
  return ok();
}

Status AtomicFileWriter::truncate(u64 size) {
  if (file_ == nullptr)
    return fail(ErrorCode::kInvalidArgument, "truncate of a writer that is not open");
  if (std::fflush(file_) != 0 || ::ftruncate(::fileno(file_), static_cast<off_t>(size)) != 0 ||
      ::fseeko(file_, static_cast<off_t>(size), SEEK_SET) != 0) {
    auto err = io_error(temp_, "truncate failed");
    discard();
    return err;
  }
  return ok();
}

Status AtomicFileWriter::write_at(u64 offset, const void* data, usize size) {
  if (file_ == nullptr)
    return fail(ErrorCode::kInvalidArgument, "write to a writer that is not open");
  if (data == nullptr && size != 0) {
    discard();
    return fail(ErrorCode::kInvalidArgument, "write of {} bytes from a null pointer", size);
  }
  if (std::fflush(file_) != 0) {
    auto err = io_error(temp_, "write failed");
    discard();
    return err;
  }
  const auto* p = static_cast<const char*>(data);
  while (size > 0) {
    const ssize_t n = ::pwrite(::fileno(file_), p, size, static_cast<off_t>(offset));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      if (n == 0) errno = ENOSPC;
      auto err = io_error(temp_, "write failed");
      discard();
      return err;
    }
    p += n;
    offset += static_cast<u64>(n);
    size -= static_cast<usize>(n);
  }
  return ok();
}

Status AtomicFileWriter::commit() {
  if (file_ == nullptr)
    return fail(ErrorCode::kInvalidArgument, "commit of a writer that is not open");
  if (std::fflush(file_) != 0 || ::fsync(::fileno(file_)) != 0) {
    auto err = io_error(temp_, "flush failed");
    discard();
    return err;
  }
  const bool closed = std::fclose(file_) == 0;
  file_ = nullptr;
  if (!closed) {
    auto err = io_error(temp_, "close failed");
    std::remove(temp_.c_str());
    return err;
  }
  if (std::rename(temp_.c_str(), target_.c_str()) != 0) {
    auto err = io_error(target_, "cannot rename temporary file into place");
    std::remove(temp_.c_str());
    return err;
  }
  return ok();
}

void AtomicFileWriter::discard() {
  if (file_ != nullptr) {
    std::fclose(file_);
    file_ = nullptr;
    std::remove(temp_.c_str());
  }
}

Status write_file_atomic(const std::filesystem::path& path, ByteSpan bytes) {
  AtomicFileWriter writer;
  if (auto s = writer.open(path); !s) return s;
  if (auto s = writer.write(bytes.data(), bytes.size()); !s) return s;
  return writer.commit();
}

Status write_file_atomic(const std::filesystem::path& path, std::string_view text) {
  return write_file_atomic(path, as_bytes(text));
}

}  // namespace keel
