#include "keel/settings/convert.h"

#include <fmt/format.h>

#include <charconv>
#include <system_error>

namespace keel::settings::detail {
namespace {

constexpr usize kExcerptLength = 40;

Unexpected not_an_integer(std::string_view text) {
  return fail(ErrorCode::kParse, "expected an integer, got '{}'", excerpt(text));
}

Unexpected integer_out_of_range(std::string_view text, std::string_view type, auto min, auto max) {
  return fail(ErrorCode::kOutOfRange, "'{}' is out of range for {} ({} to {})", excerpt(text), type,
              min, max);
}

struct Magnitude {
  bool negative = false;
  u64 value = 0;
};

// Sign, optional 0x prefix, digits; the whole text must be used. out_of_range: too big for u64.
Result<Magnitude> parse_magnitude(std::string_view text, bool& out_of_range) {
  out_of_range = false;
  Magnitude m;
  std::string_view rest = text;
  if (!rest.empty() && (rest.front() == '+' || rest.front() == '-')) {
    m.negative = rest.front() == '-';
    rest.remove_prefix(1);
  }
  int base = 10;
  if (rest.size() > 2 && rest[0] == '0' && (rest[1] == 'x' || rest[1] == 'X')) {
    base = 16;
    rest.remove_prefix(2);
  }
  // from_chars on an unsigned type rejects signs, so "+-5" and "0x-5" fail here.
  if (rest.empty()) return not_an_integer(text);
  const char* begin = rest.data();
  const char* end = begin + rest.size();
  auto [ptr, ec] = std::from_chars(begin, end, m.value, base);
  if (ec == std::errc::result_out_of_range && ptr == end) {
    out_of_range = true;
    return m;
  }
  if (ec != std::errc() || ptr != end) return not_an_integer(text);
  return m;
}

bool equals_ignoring_case(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (usize i = 0; i < a.size(); ++i) {
    char c = a[i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c != b[i]) return false;
  }
  return true;
}

// from_chars accepts neither a leading '+' nor whitespace; allow one '+' before a digit or '.'.
std::string_view strip_plus(std::string_view text) {
  if (text.size() > 1 && text.front() == '+' && text[1] != '+' && text[1] != '-') {
    text.remove_prefix(1);
  }
  return text;
}

template <typename F>
Result<F> parse_floating(std::string_view text, std::string_view type) {
  const std::string_view rest = strip_plus(text);
  F value{};
  const char* begin = rest.data();
  const char* end = begin + rest.size();
  auto [ptr, ec] = std::from_chars(begin, end, value, std::chars_format::general);
  if (ec == std::errc::result_out_of_range && ptr == end) {
    return fail(ErrorCode::kOutOfRange, "'{}' is out of range for {}", excerpt(text), type);
  }
  if (rest.empty() || ec != std::errc() || ptr != end) {
    return fail(ErrorCode::kParse, "expected a number, got '{}'", excerpt(text));
  }
  return value;
}

}  // namespace

std::string excerpt(std::string_view text) {
  std::string out;
  const usize n = text.size() > kExcerptLength ? kExcerptLength - 3 : text.size();
  out.reserve(n + 3);
  for (usize i = 0; i < n; ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    out.push_back(c < 0x20 || c == 0x7f ? '?' : text[i]);
  }
  if (n < text.size()) out += "...";
  return out;
}

Result<s64> parse_signed(std::string_view text, s64 min, s64 max, std::string_view type) {
  bool too_big = false;
  auto m = parse_magnitude(text, too_big);
  if (!m) return Unexpected(std::move(m.error()));
  if (too_big) return integer_out_of_range(text, type, min, max);
  s64 value = 0;
  if (m->negative) {
    // |min| = -(min + 1) + 1, computed without overflowing.
    const u64 limit = static_cast<u64>(-(min + 1)) + 1;
    if (m->value > limit) return integer_out_of_range(text, type, min, max);
    value = m->value == 0 ? 0 : -static_cast<s64>(m->value - 1) - 1;
  } else {
    if (m->value > static_cast<u64>(max)) return integer_out_of_range(text, type, min, max);
    value = static_cast<s64>(m->value);
  }
  return value;
}

Result<u64> parse_unsigned(std::string_view text, u64 max, std::string_view type) {
  bool too_big = false;
  auto m = parse_magnitude(text, too_big);
  if (!m) return Unexpected(std::move(m.error()));
  if (too_big || m->value > max || (m->negative && m->value != 0)) {
    return integer_out_of_range(text, type, 0, max);
  }
  return m->value;
}

Result<bool> parse_bool(std::string_view text) {
  for (std::string_view yes : {"1", "true", "yes", "on"}) {
    if (equals_ignoring_case(text, yes)) return true;
  }
  for (std::string_view no : {"0", "false", "no", "off"}) {
    if (equals_ignoring_case(text, no)) return false;
  }
  return fail(ErrorCode::kParse, "expected true/false, yes/no, on/off or 1/0, got '{}'",
              excerpt(text));
}

Result<double> parse_double(std::string_view text) {
  return parse_floating<double>(text, "double");
}
Result<float> parse_float(std::string_view text) { return parse_floating<float>(text, "float"); }

// fmt's default format is the shortest text that reads back to the same value.
std::string format_double(double value) { return fmt::format("{}", value); }
std::string format_float(float value) { return fmt::format("{}", value); }

}  // namespace keel::settings::detail
