// Text <-> value conversions for dators.
//
// Converter<T> turns the text of one setting value into a T and back. Conversions are strict: the
// whole text must be the value ("12x" and " 12" are errors), numbers must fit their type, and a
// failed conversion leaves nothing changed. Built in: integers (int8..int64, uint8..uint64; decimal
// with an optional sign, or 0x-prefixed hexadecimal), bool (1/0, true/false, yes/no, on/off, any
// case), float and double (std::from_chars; written back in the shortest form that reads back to
// the same value), std::string (the text itself, spaces and all).
//
// Add your own type by specialising Converter in this namespace:
//
//   template <> struct keel::settings::Converter<Color> {
//     static constexpr std::string_view kTypeName = "color";      // optional, for listings
//     static keel::Result<Color> parse(std::string_view text);    // error: kParse / kOutOfRange
//     static std::string format(const Color& value);              // parse(format(v)) == v
//   };
#pragma once

#include "keel/core/error.h"
#include "keel/core/types.h"

#include <concepts>
#include <limits>
#include <string>
#include <string_view>
#include <type_traits>

namespace keel::settings {

template <typename T>
struct Converter;  // specialised per type; the primary template is deliberately undefined

template <typename T>
concept Convertible = requires(std::string_view text, const T& value) {
  { Converter<T>::parse(text) } -> std::same_as<Result<T>>;
  { Converter<T>::format(value) } -> std::convertible_to<std::string>;
};

// Integers a setting can hold: every integral type except bool and the character types.
template <typename T>
concept SettingInteger = std::integral<T> && !std::same_as<T, bool> && !std::same_as<T, char> &&
                         !std::same_as<T, wchar_t> && !std::same_as<T, char8_t> &&
                         !std::same_as<T, char16_t> && !std::same_as<T, char32_t>;

// The name shown in listings ("int32", "bool", "string", ...); "value" when a user converter
// does not provide kTypeName.
template <typename T>
constexpr std::string_view type_name_of() {
  if constexpr (requires { Converter<T>::kTypeName; }) {
    return Converter<T>::kTypeName;
  } else {
    return "value";
  }
}

namespace detail {
Result<s64> parse_signed(std::string_view text, s64 min, s64 max, std::string_view type);
Result<u64> parse_unsigned(std::string_view text, u64 max, std::string_view type);
Result<bool> parse_bool(std::string_view text);
Result<double> parse_double(std::string_view text);
Result<float> parse_float(std::string_view text);
std::string format_double(double value);
std::string format_float(float value);
// Shortens a value for an error message (long values are cut and marked with "...").
std::string excerpt(std::string_view text);

template <typename T>
constexpr std::string_view integer_type_name() {
  constexpr bool kSigned = std::is_signed_v<T>;
  switch (sizeof(T)) {
    case 1: return kSigned ? "int8" : "uint8";
    case 2: return kSigned ? "int16" : "uint16";
    case 4: return kSigned ? "int32" : "uint32";
    default: return kSigned ? "int64" : "uint64";
  }
}
}  // namespace detail

template <SettingInteger T>
struct Converter<T> {
  static constexpr std::string_view kTypeName = detail::integer_type_name<T>();
  static Result<T> parse(std::string_view text) {
    if constexpr (std::is_signed_v<T>) {
      auto v = detail::parse_signed(text, std::numeric_limits<T>::min(),
                                    std::numeric_limits<T>::max(), kTypeName);
      if (!v) return Unexpected(std::move(v.error()));
      return static_cast<T>(*v);
    } else {
      auto v = detail::parse_unsigned(text, std::numeric_limits<T>::max(), kTypeName);
      if (!v) return Unexpected(std::move(v.error()));
      return static_cast<T>(*v);
    }
  }
  static std::string format(const T& value) { return std::to_string(value); }
};

template <>
struct Converter<bool> {
  static constexpr std::string_view kTypeName = "bool";
  static Result<bool> parse(std::string_view text) { return detail::parse_bool(text); }
  static std::string format(const bool& value) { return value ? "true" : "false"; }
};

template <>
struct Converter<double> {
  static constexpr std::string_view kTypeName = "double";
  static Result<double> parse(std::string_view text) { return detail::parse_double(text); }
  static std::string format(const double& value) { return detail::format_double(value); }
};

template <>
struct Converter<float> {
  static constexpr std::string_view kTypeName = "float";
  static Result<float> parse(std::string_view text) { return detail::parse_float(text); }
  static std::string format(const float& value) { return detail::format_float(value); }
};

template <>
struct Converter<std::string> {
  static constexpr std::string_view kTypeName = "string";
  static Result<std::string> parse(std::string_view text) { return std::string(text); }
  static std::string format(const std::string& value) { return value; }
};

}  // namespace keel::settings
