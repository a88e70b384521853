#include "keel/serial/buffer_loader.h"

#include <fmt/format.h>

namespace keel::serial {

void BufferLoader::underflow(usize size) {
  if (!ok()) return;
  fail(ErrorCode::kUnderflow,
       fmt::format("loader out of data: {} bytes to read, {} left", size, remaining()));
}

Status BufferLoader::finish() {
  if (ok() && cur_ != end_) {
    fail(ErrorCode::kTrailingData,
         fmt::format("{} bytes left over after the object (corrupt data, or the wrong object)",
                     remaining()));
  }
  return status();
}

}  // namespace keel::serial
