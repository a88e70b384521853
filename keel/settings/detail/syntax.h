// Internal: the setting expression `[+|-]name[=value]`, split into its parts (no registry
// involved).
//
// Blanks around the bias, the name and `=` are ignored; the value is everything after the first
// `=`, trimmed (value_text.h reads quotes and lists from it). Names are ASCII letters, digits,
// `_`, `.` and `-`, starting with a letter, digit or `_`; they are matched case-insensitively by
// the registry.
#pragma once

#include "keel/core/error.h"
#include "keel/core/types.h"

#include <string_view>

namespace keel::settings {

struct SettingExpression {
  char bias = 0;           // '+', '-' or 0 (none)
  std::string_view name;   // a view into the parsed text
  usize name_offset = 0;   // 0-based offsets into the parsed text, for error columns
  bool has_value = false;  // an `=` was present
  std::string_view value;  // after `=`, trimmed; may be empty
  usize value_offset = 0;
};

bool is_valid_setting_name(std::string_view name);

// Errors carry the 1-based column in where().column.
Result<SettingExpression> parse_expression(std::string_view text);

}  // namespace keel::settings
