// Localized string tables (Golden Rules ch. 3, "Localization of Text Assets").
//
//   keys.txt     TITLE        english.txt   My Game
//                START                      Press Start
//
//   Result<StringTable> table = StringTable::load("keys.txt", "english.txt");
//   table->find("START");               // "Press Start"
//   table->find("MISSING");             // "MISSING": the key itself, never null
//   table->load_language("french.txt"); // same key order, French texts
//
// Both files hold one entry per line, in the same order. Keys are hashed with string_hash
// (case-sensitive; equal to the compile-time "KEY"_id) and the texts stored under the hashes in a
// hash list; the keys themselves are not kept, only their hashes in file order (needed to switch
// language). Two keys with the same hash are rejected at load time (the book's build-time
// collision check), so a lookup never needs to compare strings.
//
// File rules (errors carry file:line:col): lines end with "\n" or "\r\n"; a UTF-8 BOM is skipped;
// both files must be valid UTF-8. A key is non-empty and has no spaces or control characters;
// duplicate keys are errors. Texts may be empty and may use the escapes \n, \t and \\; other
// control characters are errors. The language file must have exactly one line per key.
#pragma once

#include "keel/core/error.h"
#include "keel/core/hash.h"
#include "keel/core/types.h"
#include "keel/hashing/hash_list.h"

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace keel::hashing {

class StringTable {
 public:
  StringTable() = default;
  StringTable(StringTable&&) noexcept = default;
  StringTable& operator=(StringTable&&) noexcept = default;
  StringTable(const StringTable&) = delete;  // the index points into this table's texts
  StringTable& operator=(const StringTable&) = delete;

  // `keys_name` and `texts_name` name the data in error locations.
  static Result<StringTable> parse(std::string_view keys, std::string_view keys_name,
                                   std::string_view texts, std::string_view texts_name);
  static Result<StringTable> load(const std::filesystem::path& keys,
                                  const std::filesystem::path& texts);

  // Switches language: on failure the table keeps its current texts.
  Status set_language(std::string_view texts, std::string_view texts_name);
  Status load_language(const std::filesystem::path& texts);

  // The book's FindLocalizedText: the text for `key`, or `key` itself when there is none.
  std::string_view find(std::string_view key) const;
  // The text stored under a key hash (string_hash of the key / StringId), or nullptr.
  const std::string* find_text(Hash key_hash) const { return index_.find(key_hash); }
  const std::string* find_text(StringId key) const { return index_.find(key.value); }

  usize size() const { return key_hashes_.size(); }
  const std::string& language() const { return language_; }  // texts_name of the current texts

 private:
  std::vector<Hash> key_hashes_;  // in keys-file order
  std::vector<std::string> texts_;
  HashList<const std::string> index_;
  std::string language_;
};

}  // namespace keel::hashing
