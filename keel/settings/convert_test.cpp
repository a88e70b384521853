#include "keel/settings/convert.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace {

struct Rgb {
  keel::u8 r = 0, g = 0, b = 0;
  bool operator==(const Rgb&) const = default;
};

}  // namespace

// A user type: "#rrggbb".
template <>
struct keel::settings::Converter<Rgb> {
  static constexpr std::string_view kTypeName = "rgb";
  static keel::Result<Rgb> parse(std::string_view text) {
    if (text.size() != 7 || text[0] != '#') {
      return keel::fail(keel::ErrorCode::kParse, "expected #rrggbb, got '{}'", text);
    }
    Rgb c;
    keel::u8* parts[] = {&c.r, &c.g, &c.b};
    for (int i = 0; i < 3; ++i) {
      const std::string part = "0x" + std::string(text.substr(1 + 2 * i, 2));
      auto v = Converter<keel::u8>::parse(part);
      if (!v) return keel::Unexpected(v.error());
      *parts[i] = *v;
    }
    return c;
  }
  static std::string format(const Rgb& c) {
    return fmt::format("#{:02x}{:02x}{:02x}", c.r, c.g, c.b);
  }
};

namespace keel::settings {
namespace {

template <typename T>
T parse_ok(std::string_view text) {
  auto v = Converter<T>::parse(text);
  EXPECT_TRUE(v) << text << ": " << (v ? "" : v.error().to_string());
  return v ? *v : T{};
}

template <typename T>
ErrorCode parse_error(std::string_view text) {
  auto v = Converter<T>::parse(text);
  EXPECT_FALSE(v) << "'" << text << "' should not parse";
  return v ? ErrorCode{} : v.error().code();
}

TEST(SettingsConvert, IntegersAcceptSignsAndHex) {
  EXPECT_EQ(parse_ok<int>("1024"), 1024);
  EXPECT_EQ(parse_ok<int>("-17"), -17);
  EXPECT_EQ(parse_ok<int>("+17"), 17);
  EXPECT_EQ(parse_ok<int>("0x1F"), 31);
  EXPECT_EQ(parse_ok<int>("-0x10"), -16);
  EXPECT_EQ(parse_ok<unsigned>("0"), 0u);
  EXPECT_EQ(parse_ok<unsigned>("-0"), 0u);
  EXPECT_EQ(parse_ok<s64>("-9223372036854775808"), std::numeric_limits<s64>::min());
  EXPECT_EQ(parse_ok<u64>("18446744073709551615"), std::numeric_limits<u64>::max());
  EXPECT_EQ(parse_ok<s8>("-128"), -128);
}

TEST(SettingsConvert, IntegersRejectGarbage) {
  EXPECT_EQ(parse_error<int>("abc"), ErrorCode::kParse);
  EXPECT_EQ(parse_error<int>("12x"), ErrorCode::kParse);
  EXPECT_EQ(parse_error<int>(" 12"), ErrorCode::kParse);
  EXPECT_EQ(parse_error<int>("12 "), ErrorCode::kParse);
  EXPECT_EQ(parse_error<int>(""), ErrorCode::kParse);
  EXPECT_EQ(parse_error<int>("-"), ErrorCode::kParse);
  EXPECT_EQ(parse_error<int>("+-5"), ErrorCode::kParse);
  EXPECT_EQ(parse_error<int>("--5"), ErrorCode::kParse);
  EXPECT_EQ(parse_error<int>("0x"), ErrorCode::kParse);
  EXPECT_EQ(parse_error<int>("1.5"), ErrorCode::kParse);
}

TEST(SettingsConvert, IntegersOutOfRangeAreErrors) {
  EXPECT_EQ(parse_error<s8>("128"), ErrorCode::kOutOfRange);
  EXPECT_EQ(parse_error<s8>("-129"), ErrorCode::kOutOfRange);
  EXPECT_EQ(parse_error<u8>("256"), ErrorCode::kOutOfRange);
  EXPECT_EQ(parse_error<unsigned>("-1"), ErrorCode::kOutOfRange);
  EXPECT_EQ(parse_error<int>("99999999999"), ErrorCode::kOutOfRange);
  EXPECT_EQ(parse_error<u64>("18446744073709551616"), ErrorCode::kOutOfRange);
  EXPECT_EQ(parse_error<s64>("-9223372036854775809"), ErrorCode::kOutOfRange);
  auto e = Converter<u8>::parse("300");
  ASSERT_FALSE(e);
  EXPECT_EQ(e.error().message(), "'300' is out of range for uint8 (0 to 255)");
}

TEST(SettingsConvert, BoolWords) {
  for (std::string_view t : {"1", "true", "TRUE", "Yes", "on", "ON"})
    EXPECT_TRUE(parse_ok<bool>(t)) << t;
  for (std::string_view t : {"0", "false", "False", "no", "NO", "off"})
    EXPECT_FALSE(parse_ok<bool>(t)) << t;
  EXPECT_EQ(parse_error<bool>("maybe"), ErrorCode::kParse);
  EXPECT_EQ(parse_error<bool>("2"), ErrorCode::kParse);
  EXPECT_EQ(parse_error<bool>("true "), ErrorCode::kParse);
  EXPECT_EQ(Converter<bool>::format(true), "true");
}

TEST(SettingsConvert, FloatsUseFromCharsAndRoundTrip) {
  EXPECT_DOUBLE_EQ(parse_ok<double>("2.5"), 2.5);
  EXPECT_DOUBLE_EQ(parse_ok<double>("-1e3"), -1000.0);
  EXPECT_DOUBLE_EQ(parse_ok<double>("+.5"), 0.5);
  EXPECT_FLOAT_EQ(parse_ok<float>("0.1"), 0.1f);
  EXPECT_TRUE(std::isinf(parse_ok<double>("inf")));
  EXPECT_EQ(parse_error<double>("1.5x"), ErrorCode::kParse);
  EXPECT_EQ(parse_error<double>("abc"), ErrorCode::kParse);
  EXPECT_EQ(parse_error<double>("+-1"), ErrorCode::kParse);
  EXPECT_EQ(parse_error<double>(""), ErrorCode::kParse);
  EXPECT_EQ(parse_error<float>("1e40"), ErrorCode::kOutOfRange);
  for (double v : {0.1, 1.0 / 3.0, 1e-300, -2.5e17, 123456789.123}) {
    EXPECT_EQ(parse_ok<double>(Converter<double>::format(v)), v);
  }
  EXPECT_EQ(Converter<double>::format(0.1), "0.1");
  EXPECT_EQ(parse_ok<float>(Converter<float>::format(0.1f)), 0.1f);
}

TEST(SettingsConvert, StringsAreTakenWhole) {
  EXPECT_EQ(parse_ok<std::string>("Big Level"), "Big Level");
  EXPECT_EQ(parse_ok<std::string>("  edges  "), "  edges  ");
  EXPECT_EQ(parse_ok<std::string>(""), "");
}

TEST(SettingsConvert, UserTypesPlugIn) {
  static_assert(Convertible<Rgb>);
  EXPECT_EQ(type_name_of<Rgb>(), "rgb");
  EXPECT_EQ(type_name_of<int>(), "int32");
  EXPECT_EQ(type_name_of<unsigned short>(), "uint16");
  Rgb c = parse_ok<Rgb>("#ff8000");
  EXPECT_EQ(c, (Rgb{255, 128, 0}));
  EXPECT_EQ(Converter<Rgb>::format(c), "#ff8000");
  EXPECT_EQ(parse_error<Rgb>("#ff80"), ErrorCode::kParse);
}

}  // namespace
}  // namespace keel::settings
