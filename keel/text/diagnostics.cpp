#include "keel/text/diagnostics.h"

#include "keel/text/document.h"
#include "keel/text/token.h"

#include <algorithm>
#include <optional>

namespace keel::text {

void Diagnostics::add(Severity severity, Error error) {
  usize& count = severity == Severity::kError ? errors_ : warnings_;
  ++count;
  if (limit_ != 0 && count > limit_) {
    ++dropped_;
    return;
  }
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
  warnings_ = 0;
  dropped_ = 0;
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

std::string_view strip_cr(std::string_view text) {
  if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
  return text;
}

// One scan per file for render(): line N starts at starts[N - 1].
class LineIndex {
 public:
  explicit LineIndex(std::string_view source) : source_(source) {
    starts_.push_back(0);
    for (usize at = source.find('\n'); at != std::string_view::npos;
         at = source.find('\n', at + 1)) {
      starts_.push_back(at + 1);
    }
  }
  std::string_view line(u32 line) const {
    if (line == 0 || line > starts_.size()) return {};
    const usize start = starts_[line - 1];
    const usize end = line < starts_.size() ? starts_[line] - 1 : source_.size();
    return strip_cr(source_.substr(start, end - start));
  }

 private:
  std::string_view source_;
  std::vector<usize> starts_;
};

std::string_view nth_line(std::string_view source, u32 line) {
  usize start = 0;
  for (u32 l = 1; l < line; ++l) {
    const usize nl = source.find('\n', start);
    if (nl == std::string_view::npos) return {};
    start = nl + 1;
  }
  usize end = source.find('\n', start);
  if (end == std::string_view::npos) end = source.size();
  return strip_cr(source.substr(start, end - start));
}

bool is_continuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

// The part of `line` to print around 0-based byte `column`: at most kMaxExcerpt bytes, never
// splitting a UTF-8 sequence. `cut_front` tells whether "..." goes before it.
std::string_view excerpt_window(std::string_view line, usize column, bool& cut_front) {
  cut_front = false;
  if (line.size() <= kMaxExcerpt) return line;
  usize start = column > kMaxExcerpt / 2 ? column - kMaxExcerpt / 2 : 0;
  start = std::min(start, line.size() - kMaxExcerpt);
  while (start > 0 && is_continuation(line[start])) --start;
  usize end = std::min(start + kMaxExcerpt, line.size());
  while (end < line.size() && end > start && is_continuation(line[end])) --end;
  cut_front = start > 0;
  return line.substr(start, end - start);
}

void append_excerpt(std::string& out, const SourceLocation& w, std::string_view line) {
  const std::string number = std::to_string(w.line);
  const usize column = w.column > 0 ? w.column - 1 : 0;
  bool cut_front = false;
  const std::string_view shown = excerpt_window(line, column, cut_front);
  const bool cut_back = shown.data() + shown.size() < line.data() + line.size();
  out +=
      fmt::format(" {} | {}{}{}\n", number, cut_front ? "..." : "", shown, cut_back ? "..." : "");
  if (w.column == 0) return;
  std::string pad = cut_front ? "   " : "";
  const usize first = static_cast<usize>(shown.data() - line.data());
  for (usize i = first; i < column && i < first + shown.size(); ++i) {
    pad += line[i] == '\t' ? '\t' : ' ';
  }
  out += fmt::format(" {} | {}^\n", std::string(number.size(), ' '), pad);
}

// The diagnostic with `line` (the text of its line, when known) as the excerpt.
std::string format_with_line(const Diagnostic& diagnostic, std::optional<std::string_view> line) {
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
  std::string_view message = e.message();
  const bool cut = message.size() > kMaxMessage;
  if (cut) message = message.substr(0, kMaxMessage);
  out += fmt::format(
      "{}: {}{}\n", severity_name(diagnostic.severity), message,
      cut ? fmt::format("... ({} more bytes)", e.message().size() - kMaxMessage) : std::string());
  if (line && !w.binary && w.line > 0) append_excerpt(out, w, *line);
  return out;
}

}  // namespace

std::string format_diagnostic(const Diagnostic& diagnostic, std::string_view source) {
  std::optional<std::string_view> line;
  if (!source.empty()) line = nth_line(source, diagnostic.error.where().line);
  return format_with_line(diagnostic, line);
}

std::string Diagnostics::render(std::span<const Document* const> sources) const {
  std::string out;
  std::vector<std::pair<const std::string*, LineIndex>> indices;  // of kept_ texts, on demand
  for (const Diagnostic& d : items_) {
    const std::string& file = d.error.where().file;
    std::optional<std::string_view> line;
    const u32 number = d.error.where().line;
    const Document* document = nullptr;
    for (const Document* doc : sources) {
      if (doc != nullptr && doc->filename() == file) document = doc;
    }
    if (document != nullptr && !document->source().empty()) {
      line = document->line_text(number);
    } else if (number > 0 && !d.error.where().binary) {
      for (const auto& [name, text] : kept_) {
        if (name != file || text.empty()) continue;
        auto it = std::find_if(indices.begin(), indices.end(),
                               [&](const auto& entry) { return entry.first == &text; });
        if (it == indices.end()) it = indices.insert(it, {&text, LineIndex(text)});
        line = it->second.line(number);
      }
    }
    out += format_with_line(d, line);
  }
  if (dropped_ > 0) {
    out += fmt::format("note: too many errors: {} more diagnostics not shown (limit {})\n",
                       dropped_, limit_);
  }
  return out;
}

std::string Diagnostics::render(const Document& source) const {
  const Document* one[] = {&source};
  return render(one);
}

}  // namespace keel::text
