#include "keel/serial/file_loader.h"

#include <fmt/format.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstring>

namespace keel::serial {

FileLoader::FileLoader(const std::filesystem::path& path, LoadLimits limits, usize buffer_size)
    : ArchiveBase(path.string()),
      buffer_(new u8[std::max<usize>(buffer_size, 64)]),
      capacity_(std::max<usize>(buffer_size, 64)),
      cur_(buffer_.get()),
      end_(buffer_.get()),
      limits_(limits) {
  file_ = std::fopen(path.c_str(), "rb");
  if (file_ == nullptr) {
    const int error = errno;
    fail(error == ENOENT ? ErrorCode::kNotFound : ErrorCode::kIo,
         fmt::format("cannot open for reading: {}", std::strerror(error)));
    return;
  }
  std::setvbuf(file_, nullptr, _IONBF, 0);  // the staging buffer is the only buffer
  struct stat info {};
  if (::fstat(::fileno(file_), &info) != 0 || !S_ISREG(info.st_mode)) {
    fail(ErrorCode::kIo, "not a regular file");
    return;
  }
  file_size_ = static_cast<u64>(info.st_size);
}

FileLoader::~FileLoader() {
  if (file_ != nullptr) std::fclose(file_);
}

bool FileLoader::read_some(void* data, usize size, usize& got) {
  got = 0;
  while (got < size) {
    const usize n = std::fread(static_cast<char*>(data) + got, 1, size - got, file_);
    got += n;
    if (n == 0) {
      if (std::ferror(file_) != 0) {
        fail(ErrorCode::kIo, fmt::format("read failed: {}", std::strerror(errno)));
        return false;
      }
      break;  // end of file
    }
  }
  return true;
}

bool FileLoader::fill(usize size) {
  if (!ok()) return false;
  // Keep the unread tail, read the rest of the buffer behind it.
  const usize kept = static_cast<usize>(end_ - cur_);
  if (kept != 0) std::memmove(buffer_.get(), cur_, kept);
  buffer_offset_ += static_cast<u64>(cur_ - buffer_.get());
  cur_ = buffer_.get();
  end_ = cur_ + kept;
  const u64 left_in_file = file_size_ - std::min(file_size_, buffer_offset_ + kept);
  const usize wanted = static_cast<usize>(std::min<u64>(capacity_ - kept, left_in_file));
  usize got = 0;
  if (!read_some(buffer_.get() + kept, wanted, got)) return false;
  end_ += got;
  if (static_cast<usize>(end_ - cur_) < size) return underflow(size);
  return true;
}

bool FileLoader::underflow(usize size) {
  if (ok()) {
    fail(ErrorCode::kUnderflow,
         fmt::format("loader out of data: {} bytes to read, {} left", size, remaining()));
  }
  return false;
}

bool FileLoader::get_bytes_slow(std::byte* data, usize size) {
  if (!ok()) return false;
  const usize buffered = static_cast<usize>(end_ - cur_);
  if (size > remaining()) return underflow(size);
  if (size <= capacity_) {
    if (!fill(size)) return false;
    std::memcpy(data, cur_, size);
    cur_ += size;
    return true;
  }
  // Large: take what is buffered, read the rest straight into the destination.
  std::memcpy(data, cur_, buffered);
  buffer_offset_ += static_cast<u64>(end_ - buffer_.get());
  cur_ = end_ = buffer_.get();
  usize got = 0;
  if (!read_some(data + buffered, size - buffered, got)) return false;
  buffer_offset_ += got;
  if (got != size - buffered) {
    fail(ErrorCode::kUnderflow, "file ended early (changed while being read?)");
    return false;
  }
  return true;
}

Status FileLoader::finish() {
  if (ok() && offset() != file_size_) {
    fail(ErrorCode::kTrailingData,
         fmt::format("{} bytes left over after the object (corrupt data, or the wrong object)",
                     remaining()));
  }
  return status();
}

}  // namespace keel::serial
