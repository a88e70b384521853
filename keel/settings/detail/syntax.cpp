#include "keel/settings/detail/syntax.h"

#include "keel/settings/convert.h"
#include "keel/settings/value_text.h"

namespace keel::settings {
namespace {

bool is_alnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

Unexpected error_at(usize offset, std::string message) {
  return Unexpected(Error(ErrorCode::kParse, std::move(message),
                          SourceLocation::text("", 0, static_cast<u32>(offset + 1))));
}

}  // namespace

bool is_valid_setting_name(std::string_view name) {
  if (name.empty() || !(is_alnum(name.front()) || name.front() == '_')) return false;
  for (char c : name) {
    if (!(is_alnum(c) || c == '_' || c == '.' || c == '-')) return false;
  }
  return true;
}

Result<SettingExpression> parse_expression(std::string_view text) {
  SettingExpression e;
  usize pos = 0;
  while (pos < text.size() && is_blank(text[pos])) ++pos;
  if (pos < text.size() && (text[pos] == '+' || text[pos] == '-')) {
    e.bias = text[pos];
    ++pos;
    while (pos < text.size() && is_blank(text[pos])) ++pos;
  }
  const usize eq = text.find('=', pos);
  const std::string_view name_part =
      text.substr(pos, eq == std::string_view::npos ? std::string_view::npos : eq - pos);
  e.name = trim(name_part);
  e.name_offset = pos;
  if (e.name.empty()) return error_at(pos, "missing setting name");
  if (!is_valid_setting_name(e.name)) {
    return error_at(pos, fmt::format("invalid setting name '{}'", detail::excerpt(e.name)));
  }
  if (eq != std::string_view::npos) {
    e.has_value = true;
    usize v = eq + 1;
    while (v < text.size() && is_blank(text[v])) ++v;
    e.value_offset = v;
    e.value = trim(text.substr(v));
  }
  return e;
}

}  // namespace keel::settings
