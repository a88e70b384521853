// Fuzz target for string-table files. Input: keys file, a 0 byte, language file (no 0 byte:
// the same bytes serve as both files). Parsing must never crash; a parsed table must answer
// every lookup and survive a language switch.
#include "keel/hashing/string_table.h"

#include "keel/core/bytes.h"

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input = keel::as_chars(keel::as_bytes(std::span(data, size)));
  const size_t split = input.find('\0');
  const std::string_view keys = input.substr(0, split);
  const std::string_view texts = split == std::string_view::npos ? input : input.substr(split + 1);
  auto table = keel::hashing::StringTable::parse(keys, "keys", texts, "texts");
  if (table) {
    size_t start = 0;
    while (start <= keys.size()) {
      size_t end = keys.find('\n', start);
      if (end == std::string_view::npos) end = keys.size();
      const std::string_view key = keys.substr(start, end - start);
      (void)table->find(key);
      start = end + 1;
    }
    (void)table->set_language(texts, "again");
    (void)table->find("missing");
  } else {
    (void)table.error().to_string();
  }
  return 0;
}
