// Line splitting and UTF-8 checks for the module's line-based text files (string tables, name
// lists). Lines end with "\n" or "\r\n"; a trailing newline does not start another line; a UTF-8
// byte-order mark at the start is skipped (columns count from after it). Columns are 1-based
// byte offsets in the line.
#pragma once

#include "keel/core/error.h"
#include "keel/core/types.h"

#include <string_view>
#include <vector>

namespace keel::hashing {

struct TextLine {
  std::string_view text;  // without the line ending
  u32 number = 0;         // 1-based
};

// Fails (kParse, with file:line:col) on a carriage return that does not end a line.
Result<std::vector<TextLine>> split_lines(std::string_view text, std::string_view file);

// Offset of the first byte that is not part of valid UTF-8 (overlong forms, surrogates and code
// points above U+10FFFF are invalid), or std::string_view::npos.
usize find_invalid_utf8(std::string_view text);

}  // namespace keel::hashing
