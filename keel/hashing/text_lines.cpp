#include "keel/hashing/text_lines.h"

#include <string>

namespace keel::hashing {

Result<std::vector<TextLine>> split_lines(std::string_view text, std::string_view file) {
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
  std::vector<TextLine> lines;
  u64 number = 1;
  while (!text.empty()) {
    const usize end = text.find('\n');
    std::string_view line = text.substr(0, end);
    if (end != std::string_view::npos && line.ends_with('\r')) line.remove_suffix(1);
    if (const usize cr = line.find('\r'); cr != std::string_view::npos) {
      return fail_at(SourceLocation::text(std::string(file), static_cast<u32>(number),
                                          static_cast<u32>(cr + 1)),
                     ErrorCode::kParse, "carriage return inside a line");
    }
    if (number > 0xFFFFFFFFu) {
      return fail_at(SourceLocation::text(std::string(file), 0xFFFFFFFFu), ErrorCode::kOutOfRange,
                     "too many lines");
    }
    lines.push_back(TextLine{line, static_cast<u32>(number)});
    ++number;
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
  return lines;
}

usize find_invalid_utf8(std::string_view text) {
  const usize n = text.size();
  usize i = 0;
  while (i < n) {
    const auto b0 = static_cast<u8>(text[i]);
    if (b0 < 0x80) {
      ++i;
      continue;
    }
    // Sequence length, smallest code point for that length, and the lead byte's payload.
    usize len = 4;
    u32 min = 0x10000;
    u32 cp = b0 & 0x07u;
    if ((b0 & 0xE0) == 0xC0) {
      len = 2;
      min = 0x80;
      cp = b0 & 0x1Fu;
    } else if ((b0 & 0xF0) == 0xE0) {
      len = 3;
      min = 0x800;
      cp = b0 & 0x0Fu;
    } else if ((b0 & 0xF8) != 0xF0) {
      return i;
    }
    if (n - i < len) return i;
    for (usize k = 1; k < len; ++k) {
      const auto b = static_cast<u8>(text[i + k]);
      if ((b & 0xC0) != 0x80) return i;
      cp = (cp << 6) | (b & 0x3Fu);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return i;
    i += len;
  }
  return std::string_view::npos;
}

}  // namespace keel::hashing
