// File reading shared by the pack readers (Loader's file source, PackFile): positioned reads that
// fill the whole buffer, and I/O errors that carry the reason from errno.
#pragma once

#include "keel/core/bytes.h"
#include "keel/core/error.h"
#include "keel/core/types.h"

#include <string>
#include <string_view>

namespace keel::pack::detail {

// "<what>: <strerror(errno)>", located at the file `label`.
Unexpected io_error(const std::string& label, std::string_view what);

// Reads exactly out.size() bytes at `offset` (pread: no shared file position, so const readers
// may share the descriptor), retrying on EINTR; a file that ends early is kUnderflow at the
// offset where it ended.
Status pread_exact(int fd, u64 offset, MutableByteSpan out, const std::string& label);

}  // namespace keel::pack::detail
