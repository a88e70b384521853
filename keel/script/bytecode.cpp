#include "keel/script/bytecode.h"

#include "keel/script/detail/builtins.h"

#include <array>

namespace keel::script {

std::string_view builtin_mnemonic(Opcode opcode) {
  const detail::BuiltinInfo* info = detail::builtin_info(opcode);
  return info != nullptr ? info->command : std::string_view();
}

namespace {

struct Spelling {
  std::string_view name;
  Comparator comparator;
};

// The first spelling of each comparator is its canonical name.
constexpr std::array<Spelling, 20> kSpellings{{
    {"EQUALS", Comparator::kEqual},
    {"EQUAL", Comparator::kEqual},
    {"EQ", Comparator::kEqual},
    {"NOTEQUAL", Comparator::kNotEqual},
    {"NOTEQUALS", Comparator::kNotEqual},
    {"NE", Comparator::kNotEqual},
    {"LESSTHAN", Comparator::kLess},
    {"LESS", Comparator::kLess},
    {"LT", Comparator::kLess},
    {"LESSEQUAL", Comparator::kLessEqual},
    {"LESSOREQUAL", Comparator::kLessEqual},
    {"LE", Comparator::kLessEqual},
    {"GREATERTHAN", Comparator::kGreater},
    {"GREATER", Comparator::kGreater},
    {"GT", Comparator::kGreater},
    {"GREATEREQUAL", Comparator::kGreaterEqual},
    {"GREATEROREQUAL", Comparator::kGreaterEqual},
    {"GE", Comparator::kGreaterEqual},
    {"LESSTHANOREQUAL", Comparator::kLessEqual},
    {"GREATERTHANOREQUAL", Comparator::kGreaterEqual},
}};

char upper(char c) { return (c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : c; }

bool same_upper(std::string_view text, std::string_view upper_name) {
  if (text.size() != upper_name.size()) return false;
  for (usize i = 0; i < text.size(); ++i) {
    if (upper(text[i]) != upper_name[i]) return false;
  }
  return true;
}

}  // namespace

std::string_view comparator_symbol(u8 comparator) {
  static constexpr std::array<std::string_view, kComparatorCount> kSymbols{"==", "!=", "<",
                                                                           "<=", ">",  ">="};
  return comparator < kComparatorCount ? kSymbols[comparator] : std::string_view("?");
}

std::string_view comparator_name(u8 comparator) {
  for (const Spelling& s : kSpellings) {
    if (static_cast<u8>(s.comparator) == comparator) return s.name;
  }
  return "?";
}

bool parse_comparator(std::string_view name, Comparator& out) {
  for (const Spelling& s : kSpellings) {
    if (same_upper(name, s.name)) {
      out = s.comparator;
      return true;
    }
  }
  return false;
}

std::string_view comparator_spellings() {
  return "EQUALS (EQUAL, EQ), NOTEQUAL (NOTEQUALS, NE), LESSTHAN (LESS, LT), "
         "LESSEQUAL (LESSOREQUAL, LE), GREATERTHAN (GREATER, GT), "
         "GREATEREQUAL (GREATEROREQUAL, GE)";
}

}  // namespace keel::script
