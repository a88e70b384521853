#include "keel/core/error.h"

namespace keel {

std::string_view to_string(ErrorCode code) {
  switch (code) {
    case ErrorCode::kInvalidArgument: return "invalid argument";
    case ErrorCode::kNotFound: return "not found";
    case ErrorCode::kAlreadyExists: return "already exists";
    case ErrorCode::kParse: return "parse error";
    case ErrorCode::kTypeMismatch: return "type mismatch";
    case ErrorCode::kOutOfRange: return "out of range";
    case ErrorCode::kOverflow: return "overflow";
    case ErrorCode::kUnderflow: return "underflow";
    case ErrorCode::kTrailingData: return "trailing data";
    case ErrorCode::kCorrupt: return "corrupt data";
    case ErrorCode::kUnsupported: return "unsupported";
    case ErrorCode::kIo: return "i/o error";
    case ErrorCode::kRefused: return "refused";
    case ErrorCode::kOutOfMemory: return "out of memory";
  }
  return "unknown error";
}

std::string Error::to_string() const {
  if (where_.binary) {
    return fmt::format("{}{}byte {}: error: {}", where_.file, where_.file.empty() ? "" : ": ",
                       where_.offset, message_);
  }
  if (where_.line != 0) {
    if (where_.column != 0) {
      return fmt::format("{}:{}:{}: error: {}", where_.file, where_.line, where_.column, message_);
    }
    return fmt::format("{}:{}: error: {}", where_.file, where_.line, message_);
  }
  if (!where_.file.empty()) {
    return fmt::format("{}: error: {}", where_.file, message_);
  }
  return fmt::format("error: {}", message_);
}

}  // namespace keel
