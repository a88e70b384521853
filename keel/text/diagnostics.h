// Diagnostics a person can act on: several located errors and warnings per file, printed as
//
//   data/level1.txt:12:7: error: `Texture` expects a string as parameter 1, got a number
//      12 |   Texture(5);
//         |           ^
//
// Bounded on hostile input: after error_limit() errors (and as many warnings) further ones are
// counted but not kept, and render() ends with one "too many errors" note; excerpts of very long
// lines are cut around the column; render() locates lines through an index built once per file.
#pragma once

#include "keel/core/error.h"
#include "keel/core/types.h"

#include <fmt/format.h>

#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace keel::text {

struct Token;
class Document;

enum class Severity : u8 { kError, kWarning, kNote };

struct Diagnostic {
  Severity severity = Severity::kError;
  Error error;
};

class Diagnostics {
 public:
  // Errors kept (and printed) before the rest are only counted; compilers print about as many.
  static constexpr usize kDefaultErrorLimit = 50;

  void add(Severity severity, Error error);
  void error(SourceLocation where, std::string message);
  void warning(SourceLocation where, std::string message);
  void error(const Token& at, std::string message);
  void warning(const Token& at, std::string message);

  template <typename... Args>
  void error(const Token& at, fmt::format_string<Args...> format, Args&&... args) {
    error(at, fmt::format(format, std::forward<Args>(args)...));
  }
  template <typename... Args>
  void warning(const Token& at, fmt::format_string<Args...> format, Args&&... args) {
    warning(at, fmt::format(format, std::forward<Args>(args)...));
  }

  bool has_errors() const { return errors_ > 0; }
  // Every error and warning reported, including those past the limit that items() does not keep.
  usize error_count() const { return errors_; }
  usize warning_count() const { return warnings_; }
  bool empty() const { return errors_ == 0 && warnings_ == 0 && items_.empty(); }
  const std::vector<Diagnostic>& items() const { return items_; }
  void clear();  // items and counts; the limit stays

  // How many errors (and, separately, warnings) to keep; 0 keeps every one. Callers that loop
  // over many statements may stop early once limit_reached().
  void set_error_limit(usize limit) { limit_ = limit; }
  usize error_limit() const { return limit_; }
  bool limit_reached() const { return limit_ != 0 && errors_ >= limit_; }
  // Reported but not kept because of the limit.
  usize dropped_count() const { return dropped_; }

  // The first error as a Status (ok when there is none): for callers that want one error.
  Status status() const;

  // Keeps a copy of a file's text for render(); the parser does this for files that failed to
  // parse (their Document is gone by the time the errors are printed).
  void keep_source(std::string filename, std::string text);

  // Every diagnostic with its source line and a caret, taken from whichever of `sources` (or the
  // kept texts) has the diagnostic's file name; other diagnostics print without the excerpt.
  std::string render(std::span<const Document* const> sources = {}) const;
  std::string render(const Document& source) const;

 private:
  std::vector<Diagnostic> items_;
  usize errors_ = 0;
  usize warnings_ = 0;
  usize dropped_ = 0;
  usize limit_ = kDefaultErrorLimit;
  std::vector<std::pair<std::string, std::string>> kept_;
};

// "file:line:col: error: message" plus, when `source` is the file's text, the line and a caret.
// An excerpt longer than kMaxExcerpt bytes is cut around the column ("..." marks the cuts); a
// message longer than kMaxMessage bytes is cut too.
inline constexpr usize kMaxExcerpt = 160;
inline constexpr usize kMaxMessage = 4096;
std::string format_diagnostic(const Diagnostic& diagnostic, std::string_view source = {});

}  // namespace keel::text
