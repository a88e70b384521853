#include "keel/pack/detail/file_io.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace keel::pack::detail {

Unexpected io_error(const std::string& label, std::string_view what) {
  return Unexpected(Error(ErrorCode::kIo, fmt::format("{}: {}", what, std::strerror(errno)),
                          SourceLocation{label, 0, 0, 0, false}));
}

Status pread_exact(int fd, u64 offset, MutableByteSpan out, const std::string& label) {
  usize done = 0;
  while (done < out.size()) {
    const ssize_t n =
        ::pread(fd, out.data() + done, out.size() - done, static_cast<off_t>(offset + done));
    if (n < 0) {
      if (errno == EINTR) continue;
      return io_error(label, "read failed");
    }
    if (n == 0) {
      return fail_at(SourceLocation::bytes(label, offset + done), ErrorCode::kUnderflow,
                     "file ended early (was it changed while reading?)");
    }
    done += static_cast<usize>(n);
  }
  return {};
}

}  // namespace keel::pack::detail
