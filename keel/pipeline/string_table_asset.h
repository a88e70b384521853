// The data-file form of a localized string table (the StringTable handler's output; Golden Rules
// ch. 3 string tables, built offline instead of parsed at start-up). One chunk, little-endian:
//
//   u32 magic "KSTB" | u32 version (1) | u32 key_count | u32 language_count | u32 text_bytes
//   u32 key_hash[key_count]                        string_hash of each key, ascending
//   language_count x { u32 name_offset, u32 name_length }
//   language_count x u32 offsets[key_count + 1]    text of key i: [offsets[i], offsets[i + 1])
//   u8 text[text_bytes]                            language names and texts, UTF-8
//
// The view reads it in place after checking every count and offset (a hostile chunk is an
// error, never an out-of-bounds read).
#pragma once

#include "keel/core/bytes.h"
#include "keel/core/error.h"
#include "keel/core/hash.h"
#include "keel/core/types.h"

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace keel::pipeline {

inline constexpr u32 kStringTableMagic = 0x4254534Bu;  // "KSTB" read as a little-endian u32
inline constexpr u32 kStringTableVersion = 1;

struct StringTableLanguage {
  std::string name;
  std::vector<std::string> texts;  // one per key, in key order
};

// `keys` in file order; every language has one text per key. Keys' hashes must be distinct.
ByteBuffer encode_string_table(std::span<const std::string> keys,
                               std::span<const StringTableLanguage> languages);

class StringTableView {
 public:
  static Result<StringTableView> parse(ByteSpan bytes);

  usize key_count() const { return key_count_; }
  usize language_count() const { return language_count_; }
  std::string_view language(usize index) const;
  std::optional<usize> find_language(std::string_view name) const;
  // The text of a key (hash = string_hash(key)) in a language, or nullopt.
  std::optional<std::string_view> find(usize language, Hash key) const;
  std::optional<std::string_view> find(usize language, std::string_view key) const {
    return find(language, string_hash(key));
  }

 private:
  u32 word(usize index) const;
  ByteSpan bytes_;
  usize key_count_ = 0;
  usize language_count_ = 0;
  usize keys_at_ = 0;     // word index of key_hash[0]
  usize names_at_ = 0;    // word index of the language name table
  usize offsets_at_ = 0;  // word index of language 0's offsets
  usize text_at_ = 0;     // byte offset of the text
  usize text_bytes_ = 0;
};

}  // namespace keel::pipeline
