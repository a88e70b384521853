#include "keel/serial/versioned.h"

namespace keel::serial {

std::string describe_tag(u32 tag) {
  char text[4];
  for (int i = 0; i < 4; ++i) {
    text[i] = static_cast<char>(tag >> (24 - 8 * i));
    if (text[i] < 0x20 || text[i] > 0x7e) return fmt::format("{:#010x}", tag);
  }
  return fmt::format("'{}'", std::string_view(text, 4));
}

}  // namespace keel::serial
