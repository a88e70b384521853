// Errors as values. Data and I/O failures are returned as keel::Result<T> (std::expected);
// programmer errors are KEEL_ASSERTs. An Error carries a code, a message and, for errors in
// external data, the place in the data: file, line and column (1-based; 0 = unknown), or a byte
// offset for binary data.
#pragma once

#include "keel/core/types.h"

#include <fmt/format.h>

#include <expected>
#include <string>
#include <string_view>

namespace keel {

enum class ErrorCode : u16 {
  kInvalidArgument = 1,  // a caller passed something meaningless
  kNotFound,             // a named thing does not exist
  kAlreadyExists,        // a name is already taken
  kParse,                // text could not be parsed
  kTypeMismatch,         // a value of the wrong type
  kOutOfRange,           // a value outside its allowed range
  kOverflow,             // a writer ran out of room
  kUnderflow,            // a reader ran out of data
  kTrailingData,         // a reader finished with data left over
  kCorrupt,              // data failed a consistency check
  kUnsupported,          // a valid request this build cannot serve (e.g. a newer format version)
  kIo,                   // the operating system refused
  kRefused,              // a component declined (e.g. a task whose start() failed)
  kOutOfMemory,          // memory or a library's resources ran out (allocation, codec set-up)
};

std::string_view to_string(ErrorCode code);

struct SourceLocation {
  std::string file;     // may be empty for in-memory data
  u32 line = 0;         // 1-based; 0 when not applicable
  u32 column = 0;       // 1-based; 0 when not applicable
  u64 offset = 0;       // byte offset, for binary data (used when line == 0)
  bool binary = false;  // true: `offset` is meaningful instead of line/column

  static SourceLocation text(std::string file, u32 line, u32 column = 0) {
    return SourceLocation{std::move(file), line, column, 0, false};
  }
  static SourceLocation bytes(std::string file, u64 offset) {
    return SourceLocation{std::move(file), 0, 0, offset, true};
  }
  bool empty() const { return file.empty() && line == 0 && !binary; }
};

class Error {
 public:
  Error(ErrorCode code, std::string message) : code_(code), message_(std::move(message)) {}
  Error(ErrorCode code, std::string message, SourceLocation where)
      : code_(code), message_(std::move(message)), where_(std::move(where)) {}

  ErrorCode code() const { return code_; }
  const std::string& message() const { return message_; }
  const SourceLocation& where() const { return where_; }
  bool has_location() const { return !where_.empty(); }

  // "file:line:col: error: message", "file: byte 12: error: message" or "error: message".
  std::string to_string() const;

 private:
  ErrorCode code_;
  std::string message_;
  SourceLocation where_;
};

template <typename T>
using Result = std::expected<T, Error>;
using Status = std::expected<void, Error>;
using Unexpected = std::unexpected<Error>;

// Builds an error return: `return keel::fail(ErrorCode::kNotFound, "no task '{}'", name);`
template <typename... Args>
Unexpected fail(ErrorCode code, fmt::format_string<Args...> format, Args&&... args) {
  return Unexpected(Error(code, fmt::format(format, std::forward<Args>(args)...)));
}

// Same, with a location in external data.
template <typename... Args>
Unexpected fail_at(SourceLocation where, ErrorCode code, fmt::format_string<Args...> format,
                   Args&&... args) {
  return Unexpected(
      Error(code, fmt::format(format, std::forward<Args>(args)...), std::move(where)));
}

inline Status ok() { return {}; }

}  // namespace keel

template <>
struct fmt::formatter<keel::Error> : fmt::formatter<std::string_view> {
  auto format(const keel::Error& e, fmt::format_context& ctx) const {
    return fmt::formatter<std::string_view>::format(e.to_string(), ctx);
  }
};
