#include "keel/core/file.h"

#include <fcntl.h>
#include <unistd.h>
#include <cerrno>
#include <cstring>

namespace keel {
namespace {

Unexpected io_error(const std::filesystem::path& path, std::string_view what) {
  return Unexpected(Error(ErrorCode::kIo, fmt::format("{}: {}", what, std::strerror(errno)),
                          SourceLocation{path.string(), 0, 0, 0, false}));
}

}  // namespace

Result<std::string> read_file(const std::filesystem::path& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) return io_error(path, "cannot open for reading");
  std::string data;
  char buffer[1 << 16];
  for (;;) {
    const usize n = std::fread(buffer, 1, sizeof buffer, f);
    data.append(buffer, n);
    if (n < sizeof buffer) break;  // end of file or error, told apart below
  }
  const bool failed = std::ferror(f) != 0;
  std::fclose(f);
  if (failed) return io_error(path, "read failed");
  return data;
}

AtomicFileWriter::~AtomicFileWriter() { discard(); }

Status AtomicFileWriter::open(const std::filesystem::path& path) {
  discard();
  target_ = path;
  temp_ = path;
  temp_ += fmt::format(".tmp.{}", ::getpid());
  file_ = std::fopen(temp_.c_str(), "wb");
  if (file_ == nullptr) return io_error(temp_, "cannot create temporary file");
  return ok();
}

Status AtomicFileWriter::write(const void* data, usize size) {
  if (file_ == nullptr)
    return fail(ErrorCode::kInvalidArgument, "write to a writer that is not open");
  if (size != 0 && std::fwrite(data, 1, size, file_) != size) {
    auto err = io_error(temp_, "write failed");
    discard();
    return err;
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
  std::fclose(file_);
  file_ = nullptr;
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

Status write_file_atomic(const std::filesystem::path& path, std::span<const u8> bytes) {
  AtomicFileWriter writer;
  if (auto s = writer.open(path); !s) return s;
  if (auto s = writer.write(bytes.data(), bytes.size()); !s) return s;
  return writer.commit();
}

Status write_file_atomic(const std::filesystem::path& path, std::string_view text) {
  return write_file_atomic(
      path, std::span<const u8>(reinterpret_cast<const u8*>(text.data()), text.size()));
}

}  // namespace keel
