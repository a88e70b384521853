#include "keel/serial/file_saver.h"

#include <fmt/format.h>

namespace keel::serial {

FileSaver::FileSaver(const std::filesystem::path& path, usize buffer_size)
    : ArchiveBase(path.string()),
      buffer_(new u8[std::max<usize>(buffer_size, 64)]),
      capacity_(std::max<usize>(buffer_size, 64)),
      cur_(buffer_.get()),
      end_(buffer_.get() + capacity_) {
  if (auto opened = writer_.open(path); !opened) {
    fail(ErrorCode::kIo, opened.error().message());
  }
}

FileSaver::~FileSaver() {
  if (!committed_) writer_.discard();
}

bool FileSaver::flush() {
  if (!ok()) return false;
  const usize size = static_cast<usize>(cur_ - buffer_.get());
  if (size == 0) return true;
  if (auto written = writer_.write(buffer_.get(), size); !written) {
    fail(ErrorCode::kIo, written.error().message());
    return false;
  }
  flushed_ += size;
  cur_ = buffer_.get();
  return true;
}

bool FileSaver::make_room() {
  if (!flush()) return false;
  end_ = buffer_.get() + capacity_;
  return true;
}

void FileSaver::put_bytes_slow(const std::byte* data, usize size) {
  if (!make_room()) return;
  if (size <= capacity_) {
    std::memcpy(cur_, data, size);
    cur_ += size;
    return;
  }
  if (auto written = writer_.write(data, size); !written) {
    fail(ErrorCode::kIo, written.error().message());
    return;
  }
  flushed_ += size;
}

Status FileSaver::commit() {
  KEEL_ASSERT(!committed_, "FileSaver::commit called twice");
  if (committed_) return status();  // release builds: the second call changes nothing
  committed_ = true;
  if (flush()) {
    if (auto done = writer_.commit(); !done) fail(ErrorCode::kIo, done.error().message());
  }
  if (!ok()) writer_.discard();
  return status();
}

}  // namespace keel::serial
