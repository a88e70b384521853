// Fuzz target: the string-table chunk reader (data files are external data).
#include "keel/pipeline/string_table_asset.h"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using keel::pipeline::StringTableView;
  const keel::ByteSpan bytes = keel::as_bytes(std::span<const uint8_t>(data, size));
  keel::Result<StringTableView> table = StringTableView::parse(bytes);
  if (!table) return 0;
  keel::usize total = 0;
  for (keel::usize l = 0; l < table->language_count(); ++l) {
    total += table->language(l).size();
    for (keel::Hash key : {0u, 1u, 0x5C3B3DAEu, 0xFFFFFFFFu}) {
      if (auto text = table->find(l, key)) total += text->size();
    }
  }
  if (total > size) std::abort();  // every view lies inside the chunk
  return 0;
}
