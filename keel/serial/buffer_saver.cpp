#include "keel/serial/buffer_saver.h"

#include <fmt/format.h>

namespace keel::serial {

void BufferSaver::overflow(usize size) {
  if (!ok()) return;
  fail(ErrorCode::kOverflow,
       fmt::format("saver out of room: {} bytes to write, {} left", size, remaining()));
}

}  // namespace keel::serial
