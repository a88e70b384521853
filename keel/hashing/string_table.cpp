#include "keel/hashing/string_table.h"

#include "keel/core/assert.h"
#include "keel/core/file.h"
#include "keel/hashing/text_lines.h"

#include <unordered_map>
#include <utility>

namespace keel::hashing {

namespace {

SourceLocation at(std::string_view file, u32 line, usize column) {
  return SourceLocation::text(std::string(file), line, static_cast<u32>(column));
}

Status check_utf8(std::string_view file, const TextLine& line) {
  const usize bad = find_invalid_utf8(line.text);
  if (bad != std::string_view::npos) {
    return fail_at(at(file, line.number, bad + 1), ErrorCode::kParse, "invalid UTF-8");
  }
  return ok();
}

Status check_key(std::string_view file, const TextLine& line) {
  if (line.text.empty()) return fail_at(at(file, line.number, 1), ErrorCode::kParse, "empty key");
  for (usize i = 0; i < line.text.size(); ++i) {
    const auto c = static_cast<u8>(line.text[i]);
    if (c <= 0x20 || c == 0x7F) {
      return fail_at(at(file, line.number, i + 1), ErrorCode::kParse,
                     "keys cannot contain spaces or control characters (byte 0x{:02X})", c);
    }
  }
  return check_utf8(file, line);
}

Result<std::string> unescape_text(std::string_view file, const TextLine& line) {
  if (Status s = check_utf8(file, line); !s) return Unexpected(s.error());
  std::string out;
  out.reserve(line.text.size());
  for (usize i = 0; i < line.text.size(); ++i) {
    const char c = line.text[i];
    const auto byte = static_cast<u8>(c);
    if ((byte < 0x20 && c != '\t') || byte == 0x7F) {
      return fail_at(at(file, line.number, i + 1), ErrorCode::kParse,
                     "control character 0x{:02X} in text (use \\n or \\t)", byte);
    }
    if (c != '\\') {
      out.push_back(c);
      continue;
    }
    if (i + 1 == line.text.size()) {
      return fail_at(at(file, line.number, i + 1), ErrorCode::kParse,
                     "backslash at the end of the line (write \\\\ for a backslash)");
    }
    const char next = line.text[++i];
    switch (next) {
      case 'n': out.push_back('\n'); break;
      case 't': out.push_back('\t'); break;
      case '\\': out.push_back('\\'); break;
      default:
        return fail_at(at(file, line.number, i), ErrorCode::kParse,
                       "unknown escape '\\{}' (known: \\n \\t \\\\)",
                       static_cast<u8>(next) < 0x80 && static_cast<u8>(next) >= 0x20
                           ? std::string(1, next)
                           : fmt::format("x{:02X}", static_cast<u8>(next)));
    }
  }
  return out;
}

}  // namespace

Result<StringTable> StringTable::parse(std::string_view keys, std::string_view keys_name,
                                       std::string_view texts, std::string_view texts_name) {
  Result<std::vector<TextLine>> key_lines = split_lines(keys, keys_name);
  if (!key_lines) return Unexpected(key_lines.error());

  StringTable table;
  table.key_hashes_.reserve(key_lines->size());
  std::unordered_map<Hash, const TextLine*> seen;
  seen.reserve(key_lines->size());
  for (const TextLine& line : *key_lines) {
    if (Status s = check_key(keys_name, line); !s) return Unexpected(s.error());
    const Hash hash = string_hash(line.text);
    const auto [it, inserted] = seen.emplace(hash, &line);
    if (!inserted) {
      const TextLine& first = *it->second;
      if (first.text == line.text) {
        return fail_at(at(keys_name, line.number, 1), ErrorCode::kAlreadyExists,
                       "duplicate key '{}' (first on line {})", line.text, first.number);
      }
      return fail_at(at(keys_name, line.number, 1), ErrorCode::kAlreadyExists,
                     "key '{}' collides with '{}' (line {}): both hash to 0x{:08X}; rename one",
                     line.text, first.text, first.number, hash);
    }
    table.key_hashes_.push_back(hash);
  }
  if (Status s = table.set_language(texts, texts_name); !s) return Unexpected(s.error());
  return table;
}

Result<StringTable> StringTable::load(const std::filesystem::path& keys,
                                      const std::filesystem::path& texts) {
  Result<std::string> key_text = read_file(keys);
  if (!key_text) return Unexpected(key_text.error());
  Result<std::string> text_text = read_file(texts);
  if (!text_text) return Unexpected(text_text.error());
  return parse(*key_text, keys.string(), *text_text, texts.string());
}

Status StringTable::set_language(std::string_view texts, std::string_view texts_name) {
  Result<std::vector<TextLine>> lines = split_lines(texts, texts_name);
  if (!lines) return Unexpected(lines.error());
  const usize keys = key_hashes_.size();
  if (lines->size() < keys) {
    return fail_at(at(texts_name, static_cast<u32>(lines->size() + 1), 1), ErrorCode::kParse,
                   "missing text: the keys file has {} keys, this file ends after {} lines", keys,
                   lines->size());
  }
  if (lines->size() > keys) {
    return fail_at(at(texts_name, (*lines)[keys].number, 1), ErrorCode::kParse,
                   "extra line: the keys file has only {} keys", keys);
  }
  std::vector<std::string> new_texts;
  new_texts.reserve(keys);
  for (const TextLine& line : *lines) {
    Result<std::string> text = unescape_text(texts_name, line);
    if (!text) return Unexpected(text.error());
    new_texts.push_back(std::move(*text));
  }
  // The texts are complete: build the index over their final addresses, then commit.
  HashList<const std::string> new_index;
  new_index.reserve(keys);
  new_index.defer_sort();
  for (usize i = 0; i < keys; ++i) {
    // Deferred adds only append; duplicates would surface in sort() (keys are unique).
    const Status added = new_index.add(key_hashes_[i], &new_texts[i]);
    KEEL_ASSERT(added.has_value(), "string table index: {}", added.error().to_string());
  }
  if (Status s = new_index.sort(); !s) return s;
  texts_ = std::move(new_texts);  // moving a vector keeps its elements' addresses
  index_ = std::move(new_index);
  language_ = std::string(texts_name);
  return ok();
}

Status StringTable::load_language(const std::filesystem::path& texts) {
  Result<std::string> text = read_file(texts);
  if (!text) return Unexpected(text.error());
  return set_language(*text, texts.string());
}

std::string_view StringTable::find(std::string_view key) const {
  const std::string* text = index_.find(string_hash(key));
  return text != nullptr ? std::string_view(*text) : key;
}

}  // namespace keel::hashing
