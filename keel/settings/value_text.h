// The text form of setting values: quoting, unquoting and `;`-separated lists.
//
// A value is taken as written, with surrounding spaces and tabs removed. A value that starts with
// `"` is a quoted string running to the next unescaped `"`; inside it `;` and `#` are ordinary
// characters and \" \\ \n \r \t \xHH are escapes. Quotes elsewhere are ordinary characters
// (`title=say "hi"` is the text `say "hi"`). Lists separate values with `;`; an empty list is
// written as nothing, an empty string inside a list as `""`.
//
// Errors carry the 1-based column inside the given text in where().column (file empty, line 0);
// callers move them to the place in their file.
#pragma once

#include "keel/core/error.h"
#include "keel/core/types.h"

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace keel::settings {

struct ValuePiece {
  std::string text;  // the value, unquoted
  usize offset = 0;  // where it starts in the source text (0-based)
};

// Spaces, tabs and carriage returns are trimmed around names and values.
bool is_blank(char c);
std::string_view trim(std::string_view text);

// One value: trimmed; unquoted if it starts with `"` (the closing quote must end it).
Result<std::string> parse_single_value(std::string_view text);

// A `;`-separated list; empty (or blank) text is the empty list. An unquoted empty element
// ("a;;b", "a;") is an error: write `""` for an empty string.
Result<std::vector<ValuePiece>> parse_list_value(std::string_view text);

// True when `value` must be quoted to read back unchanged.
bool needs_quotes(std::string_view value, bool in_list);
std::string quote(std::string_view value);  // always quotes

// The inverse of parse_single_value / parse_list_value.
std::string format_single_value(std::string_view value);
std::string format_list_value(std::span<const std::string> values);
// Appends one list element (with its ';' separator unless `out` is empty) to `out`.
void append_list_element(std::string& out, std::string_view value, bool first);

}  // namespace keel::settings
