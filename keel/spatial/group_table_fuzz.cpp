// Fuzz target: the group-pair table parser (the table comes from data files).
#include "keel/spatial/group_culling.h"

#include "keel/core/bytes.h"

#include <cstdlib>
#include <span>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace keel::spatial;
  const std::string_view text =
      keel::as_chars(keel::as_bytes(std::span<const uint8_t>(data, size)));
  const keel::Result<GroupTable> table = GroupTable::parse(text, citizen_group_names());
  if (!table) {
    if (table.error().where().line == 0) std::abort();  // parse errors are located
    return 0;
  }
  for (GroupId a = 0; a < 40; ++a) {
    for (GroupId b = 0; b < 40; ++b) {
      if (table->allows(a, b) != table->allows(b, a)) std::abort();  // symmetric
      if (table->allows(a, b) && (a >= 6 || b >= 6)) std::abort();   // only named groups
    }
  }
  return 0;
}
