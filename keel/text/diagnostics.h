// Diagnostics a person can act on: several located errors and warnings per file, printed as
//
//   data/level1.txt:12:7: error: `Texture` expects a string as parameter 1, got a number
//      12 |   Texture(5);
//         |           ^
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
  usize error_count() const { return errors_; }
  usize warning_count() const { return items_.size() - errors_; }
  bool empty() const { return items_.empty(); }
  const std::vector<Diagnostic>& items() const { return items_; }
  void clear();

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
  std::vector<std::pair<std::string, std::string>> kept_;
};

// "file:line:col: error: message" plus, when `source` is the file's text, the line and a caret.
std::string format_diagnostic(const Diagnostic& diagnostic, std::string_view source = {});

}  // namespace keel::text
