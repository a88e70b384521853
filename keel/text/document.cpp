#include "keel/text/document.h"

#include "keel/core/file.h"

#include <algorithm>

namespace keel::text {

namespace {
constexpr usize kTokensPerBlock = 1024;
}

Document::Document(std::string source, std::string filename)
    : source_(std::move(source)), filename_(std::move(filename)) {}

Token* Document::new_token(TokenType type, std::string_view text, u32 line, u32 column) {
  if (blocks_.empty() || block_used_ == kTokensPerBlock) {
    blocks_.push_back(std::make_unique<Token[]>(kTokensPerBlock));
    block_used_ = 0;
  }
  Token* t = &blocks_.back()[block_used_++];
  t->type = type;
  t->text = text;
  t->file = filename_;
  t->line = line;
  t->column = column;
  ++token_count_;
  return t;
}

std::string_view Document::store(std::string_view text) { return stored_.emplace_back(text); }

std::string_view Document::line_text(u32 line) const {
  std::call_once(line_starts_once_, [this] {
    line_starts_.push_back(0);
    for (usize i = 0; i < source_.size(); ++i) {
      if (source_[i] == '\n') line_starts_.push_back(static_cast<u32>(i + 1));
    }
  });
  if (line == 0 || line > line_starts_.size()) return {};
  const usize start = line_starts_[line - 1];
  usize end = line < line_starts_.size() ? line_starts_[line] - 1 : source_.size();
  if (end > start && source_[end - 1] == '\r') --end;
  return std::string_view(source_).substr(start, end - start);
}

Result<std::string> read_source_file(const std::filesystem::path& path, usize max_bytes) {
  std::error_code ec;
  const std::filesystem::file_status st = std::filesystem::status(path, ec);
  const SourceLocation at = SourceLocation::text(path.string(), 0);
  if (ec || !std::filesystem::exists(st)) return read_file(path);  // its usual error
  if (std::filesystem::is_directory(st)) {
    return fail_at(at, ErrorCode::kInvalidArgument, "is a directory, not a file");
  }
  if (!std::filesystem::is_regular_file(st)) {
    return fail_at(at, ErrorCode::kInvalidArgument,
                   "is not a regular file (a device, FIFO or socket); give a file");
  }
  const std::uintmax_t size = std::filesystem::file_size(path, ec);
  if (!ec && size > max_bytes) {
    return fail_at(at, ErrorCode::kOutOfRange, "is {} bytes, more than the limit of {}", size,
                   max_bytes);
  }
  Result<std::string> bytes = read_file(path);
  if (bytes && bytes->size() > max_bytes) {  // grew since the check
    return fail_at(at, ErrorCode::kOutOfRange, "is more than the limit of {} bytes", max_bytes);
  }
  return bytes;
}

std::unique_ptr<Document> parse_file(const std::filesystem::path& path, Diagnostics& diagnostics,
                                     const ParseOptions& options) {
  auto bytes = read_source_file(path);
  if (!bytes) {
    diagnostics.error(SourceLocation::text(path.string(), 0), bytes.error().message());
    return nullptr;
  }
  return parse(std::move(*bytes), path.string(), diagnostics, options);
}

}  // namespace keel::text
