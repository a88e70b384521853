// Small helpers shared by the FSM compiler and type registry: case-insensitive comparison and
// the off-prefixes of modifiers ("~animate", "!animate" and "-animate" all turn animate off).
#pragma once

#include "keel/core/types.h"

#include <string_view>

namespace keel::fsm {

bool iequals(std::string_view a, std::string_view b);

struct Modifier {
  std::string_view name;  // without the prefix
  bool on = true;         // false when prefixed with ~, ! or -
};

// Splits one leading off-prefix from `text`.
constexpr Modifier parse_modifier(std::string_view text) {
  if (!text.empty() && (text[0] == '~' || text[0] == '!' || text[0] == '-')) {
    return Modifier{text.substr(1), false};
  }
  return Modifier{text, true};
}

}  // namespace keel::fsm
