#include "keel/serial/archive.h"

#include <fmt/format.h>

namespace keel::serial {

Status ArchiveState::status() const {
  if (error_) return Unexpected(*error_);
  return keel::ok();
}

void ArchiveState::record(ErrorCode code, std::string message, u64 offset) {
  if (error_) return;
  error_.emplace(code, std::move(message), SourceLocation::bytes(name_, offset));
}

void ArchiveState::length_error(const char* what, u64 count, u64 limit, u64 remaining, u64 min_wire,
                                u64 offset) {
  if (count > limit) {
    record(ErrorCode::kOutOfRange,
           fmt::format("{} length {} exceeds the limit of {}", what, count, limit), offset);
  } else {
    record(ErrorCode::kUnderflow,
           fmt::format("{} length {} needs at least {} bytes but only {} are left", what, count,
                       count * min_wire, remaining),
           offset);
  }
}

void ArchiveState::flag_error(const char* what, u8 byte, u64 offset) {
  record(ErrorCode::kCorrupt, fmt::format("{} byte is {}, not 0 or 1", what, byte), offset);
}

void ArchiveState::too_long_error(const char* what, u64 count, u64 offset) {
  record(ErrorCode::kOutOfRange,
         fmt::format("{} of {} elements is too long for a u32 length field", what, count), offset);
}

}  // namespace keel::serial
