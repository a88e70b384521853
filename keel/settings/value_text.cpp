#include "keel/settings/value_text.h"

namespace keel::settings {
namespace {

Unexpected error_at(usize offset, ErrorCode code, std::string message) {
  return Unexpected(
      Error(code, std::move(message), SourceLocation::text("", 0, static_cast<u32>(offset + 1))));
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool is_control(char c) {
  const auto u = static_cast<unsigned char>(c);
  return u < 0x20 || u == 0x7f;
}

// Reads a quoted string whose opening quote is at text[pos]; on success pos is just past the
// closing quote.
Result<std::string> read_quoted(std::string_view text, usize& pos) {
  const usize open = pos;
  std::string out;
  ++pos;
  while (pos < text.size()) {
    const char c = text[pos];
    if (c == '"') {
      ++pos;
      return out;
    }
    if (c != '\\') {
      out.push_back(c);
      ++pos;
      continue;
    }
    if (pos + 1 >= text.size()) break;  // a backslash at the end: unterminated
    const char e = text[pos + 1];
    switch (e) {
      case '"': out.push_back('"'); break;
      case '\\': out.push_back('\\'); break;
      case 'n': out.push_back('\n'); break;
      case 'r': out.push_back('\r'); break;
      case 't': out.push_back('\t'); break;
      case 'x': {
        const int hi = pos + 2 < text.size() ? hex_digit(text[pos + 2]) : -1;
        const int lo = pos + 3 < text.size() ? hex_digit(text[pos + 3]) : -1;
        if (hi < 0 || lo < 0) {
          return error_at(pos, ErrorCode::kParse, "\\x must be followed by two hex digits");
        }
        out.push_back(static_cast<char>(hi * 16 + lo));
        pos += 2;
        break;
      }
      default:
        return error_at(pos, ErrorCode::kParse,
                        is_control(e) ? std::string("unknown escape")
                                      : fmt::format("unknown escape '\\{}'", e));
    }
    pos += 2;
  }
  return error_at(open, ErrorCode::kParse, "unterminated quoted value (missing '\"')");
}

usize skip_blanks(std::string_view text, usize pos) {
  while (pos < text.size() && is_blank(text[pos])) ++pos;
  return pos;
}

}  // namespace

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

std::string_view trim(std::string_view text) {
  while (!text.empty() && is_blank(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_blank(text.back())) text.remove_suffix(1);
  return text;
}

Result<std::string> parse_single_value(std::string_view text) {
  usize pos = skip_blanks(text, 0);
  if (pos == text.size() || text[pos] != '"') return std::string(trim(text));
  auto value = read_quoted(text, pos);
  if (!value) return value;
  pos = skip_blanks(text, pos);
  if (pos != text.size()) {
    return error_at(pos, ErrorCode::kParse, "unexpected text after the closing quote");
  }
  return value;
}

Result<std::vector<ValuePiece>> parse_list_value(std::string_view text) {
  std::vector<ValuePiece> pieces;
  usize pos = skip_blanks(text, 0);
  if (pos == text.size()) return pieces;
  while (true) {
    pos = skip_blanks(text, pos);
    const usize start = pos;
    if (pos < text.size() && text[pos] == '"') {
      auto value = read_quoted(text, pos);
      if (!value) return Unexpected(std::move(value.error()));
      pieces.push_back({std::move(*value), start});
      pos = skip_blanks(text, pos);
      if (pos < text.size() && text[pos] != ';') {
        return error_at(pos, ErrorCode::kParse, "expected ';' after the closing quote");
      }
    } else {
      usize end = text.find(';', pos);
      if (end == std::string_view::npos) end = text.size();
      const std::string_view raw = trim(text.substr(pos, end - pos));
      if (raw.empty()) {
        return error_at(start, ErrorCode::kParse,
                        "empty value in list (write \"\" for an empty string)");
      }
      pieces.push_back({std::string(raw), start});
      pos = end;
    }
    if (pos >= text.size()) break;
    ++pos;  // the ';'
  }
  return pieces;
}

bool needs_quotes(std::string_view value, bool in_list) {
  if (value.empty()) return in_list;
  if (value.front() == '"' || is_blank(value.front()) || is_blank(value.back())) return true;
  for (char c : value) {
    if (is_control(c) || (in_list && c == ';')) return true;
  }
  return false;
}

std::string quote(std::string_view value) {
  std::string out;
  out.reserve(value.size() + 2);
  out.push_back('"');
  for (char c : value) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (is_control(c)) {
          out += fmt::format("\\x{:02x}", static_cast<unsigned char>(c));
        } else {
          out.push_back(c);
        }
    }
  }
  out.push_back('"');
  return out;
}

std::string format_single_value(std::string_view value) {
  return needs_quotes(value, false) ? quote(value) : std::string(value);
}

void append_list_element(std::string& out, std::string_view value, bool first) {
  if (!first) out.push_back(';');
  if (needs_quotes(value, true)) {
    out += quote(value);
  } else {
    out += value;
  }
}

std::string format_list_value(std::span<const std::string> values) {
  std::string out;
  for (usize i = 0; i < values.size(); ++i) append_list_element(out, values[i], i == 0);
  return out;
}

}  // namespace keel::settings
