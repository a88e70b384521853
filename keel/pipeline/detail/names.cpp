#include "keel/pipeline/detail/names.h"

#include "keel/core/hash.h"

#include <fmt/format.h>

namespace keel::pipeline {
namespace {
char lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }
bool letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool digit(char c) { return c >= '0' && c <= '9'; }
}  // namespace

std::string to_lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = lower(c);
  return out;
}

bool equal_names(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (lower(a[i]) != lower(b[i])) return false;
  }
  return true;
}

bool is_identifier(std::string_view name) {
  if (name.empty() || !letter(name.front())) return false;
  for (char c : name) {
    if (!letter(c) && !digit(c)) return false;
  }
  return true;
}

std::string file_name_for(std::string_view asset_name) {
  std::string out;
  out.reserve(asset_name.size() + 9);
  bool changed = asset_name.empty() || asset_name.front() == '.' || asset_name.size() > 80;
  for (char c : asset_name.substr(0, 80)) {
    if (letter(c) || digit(c) || c == '-' || c == '.') {
      out += c;
    } else {
      out += '_';
      changed = true;
    }
  }
  if (changed) out += fmt::format("-{:08x}", string_hash(asset_name));
  return out;
}

}  // namespace keel::pipeline
