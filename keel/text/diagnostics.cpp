#include "keel/text/diagnostics.h"

#include "keel/text/document.h"
#include "keel/text/token.h"

namespace keel::text {

void Diagnostics::add(Severity severity, Error error) {
  if (severity == Severity::kError) ++errors_;
  items_.push_back(Diagnostic{severity, std::move(error)});
}

void Diagnostics::error(SourceLocation where, std::string message) {
  add(Severity::kError, Error(ErrorCode::kParse, std::move(message), std::move(where)));
}

void Diagnostics::warning(SourceLocation where, std::string message) {
  add(Severity::kWarning, Error(ErrorCode::kParse, std::move(message), std::move(where)));
}

void Diagnostics::error(const Token& at, std::string message) {
  error(at.location(), std::move(message));
}

void Diagnostics::warning(const Token& at, std::string message) {
  warning(at.location(), std::move(message));
}

void Diagnostics::clear() {
  items_.clear();
  errors_ = 0;
  kept_.clear();
}

void Diagnostics::keep_source(std::string filename, std::string text) {
  for (auto& [name, kept] : kept_) {
    if (name == filename) {
      kept = std::move(text);
      return;
    }
  }
  kept_.emplace_back(std::move(filename), std::move(text));
}

Status Diagnostics::status() const {
  for (const Diagnostic& d : items_) {
    if (d.severity == Severity::kError) return Unexpected(d.error);
  }
  return {};
}

namespace {

std::string_view severity_name(Severity s) {
  switch (s) {
    case Severity::kError: return "error";
    case Severity::kWarning: return "warning";
    case Severity::kNote: return "note";
  }
  return "error";
}

std::string_view nth_line(std::string_view source, u32 line) {
  usize start = 0;
  for (u32 l = 1; l < line; ++l) {
    const usize nl = source.find('\n', start);
    if (nl == std::string_view::npos) return {};
    start = nl + 1;
  }
  usize end = source.find('\n', start);
  if (end == std::string_view::npos) end = source.size();
  std::string_view text = source.substr(start, end - start);
  if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
  return text;
}

}  // namespace

std::string format_diagnostic(const Diagnostic& diagnostic, std::string_view source) {
  const Error& e = diagnostic.error;
  const SourceLocation& w = e.where();
  std::string out;
  if (!w.file.empty()) {
    out += w.file;
    out += ':';
  }
  if (w.binary) {
    out += fmt::format(" byte {}:", w.offset);
  } else if (w.line > 0) {
    out += fmt::format("{}:", w.line);
    if (w.column > 0) out += fmt::format("{}:", w.column);
  }
  if (!out.empty()) out += ' ';
  out += fmt::format("{}: {}\n", severity_name(diagnostic.severity), e.message());
  if (!source.empty() && !w.binary && w.line > 0) {
    const std::string_view line = nth_line(source, w.line);
    const std::string number = std::to_string(w.line);
    out += fmt::format(" {} | {}\n", number, line);
    if (w.column > 0) {
      std::string pad;
      for (u32 i = 0; i + 1 < w.column && i < line.size(); ++i) {
        pad += line[i] == '\t' ? '\t' : ' ';
      }
      out += fmt::format(" {} | {}^\n", std::string(number.size(), ' '), pad);
    }
  }
  return out;
}

std::string Diagnostics::render(std::span<const Document* const> sources) const {
  std::string out;
  for (const Diagnostic& d : items_) {
    std::string_view source;
    for (const auto& [name, text] : kept_) {
      if (name == d.error.where().file) source = text;
    }
    for (const Document* doc : sources) {
      if (doc != nullptr && doc->filename() == d.error.where().file) source = doc->source();
    }
    out += format_diagnostic(d, source);
  }
  return out;
}

std::string Diagnostics::render(const Document& source) const {
  const Document* one[] = {&source};
  return render(one);
}

}  // namespace keel::text
