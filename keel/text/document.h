// A parsed command file (the book's PARSEDFILE): owns the source text, every token (one arena)
// and any text created by tree transforms. Destroying the Document frees all of it.
//
//   text::Diagnostics diag;
//   auto doc = text::parse_file("data/level1.txt", diag);
//   if (!doc) { fmt::print(stderr, "{}", diag.render()); return 1; }
//   for (const text::Token& statement : text::chain(doc->first())) { ... }
#pragma once

#include "keel/core/types.h"
#include "keel/text/diagnostics.h"
#include "keel/text/token.h"

#include <deque>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace keel::text {

class Document {
 public:
  Document(std::string source, std::string filename);
  Document(const Document&) = delete;
  Document& operator=(const Document&) = delete;

  const Token* first() const { return first_; }
  Token* first() { return first_; }
  void set_first(Token* first) { first_ = first; }

  const std::string& filename() const { return filename_; }
  std::string_view source() const { return source_; }
  // The text of a 1-based line without its line break (empty past the end).
  std::string_view line_text(u32 line) const;

  // Tree transforms create tokens and text here; both live as long as the Document.
  Token* new_token(TokenType type, std::string_view text, u32 line = 0, u32 column = 0);
  std::string_view store(std::string_view text);

  usize token_count() const { return token_count_; }

 private:
  std::string source_;
  std::string filename_;
  Token* first_ = nullptr;
  std::vector<std::unique_ptr<Token[]>> blocks_;
  usize block_used_ = 0;
  usize token_count_ = 0;
  std::deque<std::string> stored_;
  // Built on the first line_text(); once_flag because several build threads may render
  // diagnostics that quote one shared Document at the same time.
  mutable std::once_flag line_starts_once_;
  mutable std::vector<u32> line_starts_;
};

struct ParseOptions {
  usize max_errors = 25;  // stop after this many errors (0 counts as 1)
};

// Parses `source`; syntax errors go to `diagnostics` (several per file: the parser skips to the
// next statement after each). Returns nullptr when there were errors.
std::unique_ptr<Document> parse(std::string source, std::string filename, Diagnostics& diagnostics,
                                const ParseOptions& options = {});
// Source files larger than this are refused (a command file is text a person writes).
inline constexpr usize kMaxSourceBytes = usize{1} << 30;

// Reads a whole source (or compiled) file for the tools: refuses what is not a regular file
// (directories, FIFOs that would block, devices such as /dev/zero that never end) and files over
// `max_bytes`, with an error naming the path (kInvalidArgument / kOutOfRange; kIo, kNotFound).
Result<std::string> read_source_file(const std::filesystem::path& path,
                                     usize max_bytes = kMaxSourceBytes);

// Reads (read_source_file) and parses a file. An unreadable file is one error located at it.
std::unique_ptr<Document> parse_file(const std::filesystem::path& path, Diagnostics& diagnostics,
                                     const ParseOptions& options = {});

}  // namespace keel::text
