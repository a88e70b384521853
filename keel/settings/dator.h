// Dators: objects bound to a variable that read and write it as text.
//
// BaseDator is the type-erased interface the settings registry works with. Dator<T> binds one
// variable (by reference: the dator must not outlive it). Every change is all-or-nothing: a value
// that does not convert, fails a check or overflows is reported and the variable keeps its value.
//
//   int width = 800;
//   keel::settings::Dator<int> dator(width);
//   dator.assign("1024");         // width == 1024
//   dator.assign("12x");          // error, width still 1024
//   dator.add("16");              // width == 1040 (the type's own +=)
//   dator.contains("1040");       // true: for a single value, "contains" means "equals"
#pragma once

#include "keel/settings/convert.h"

#include "keel/core/error.h"
#include "keel/core/types.h"

#include <concepts>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace keel::settings {

class BaseDator {
 public:
  virtual ~BaseDator() = default;
  BaseDator(const BaseDator&) = delete;
  BaseDator& operator=(const BaseDator&) = delete;

  // The seed's =, +=, -= and ==. For a single value the text is the value itself; a list dator
  // reads its text as a `;`-separated list (value_text.h), so assign(to_text()) round-trips.
  virtual Status assign(std::string_view text) { return assign_values({&text, 1}); }
  virtual Status add(std::string_view text) { return add_values({&text, 1}); }
  virtual Status remove(std::string_view text) { return remove_values({&text, 1}); }
  // Single value: equals. List: holds every value in `text`. False when `text` does not convert.
  virtual bool contains(std::string_view text) const = 0;

  // Single value: the value's text. List: the values joined with ';' (quoted where needed).
  virtual std::string to_text() const = 0;
  virtual bool has_multiple_values() const = 0;
  // Flags (bool and integer settings) accept `+name` (1) and `-name` (0).
  virtual bool is_flag() const = 0;
  virtual std::string type_name() const = 0;

  // Whether one (unquoted) value would be accepted: conversion plus per-value checks.
  virtual Status check_value(std::string_view value) const = 0;
  // Several unquoted values at once, all-or-nothing. A single-value dator takes exactly one.
  virtual Status assign_values(std::span<const std::string_view> values) = 0;
  virtual Status add_values(std::span<const std::string_view> values) = 0;
  virtual Status remove_values(std::span<const std::string_view> values) = 0;

 protected:
  BaseDator() = default;
};

// A check on a candidate value: returns an empty string to accept it, or the reason to reject it.
template <typename T>
using Validator = std::function<std::string(const T& value)>;

namespace detail {

template <typename T>
concept Addable = !std::same_as<T, bool> && requires(T & a, const T& b) {
  a += b;
};
template <typename T>
concept Subtractable = !std::same_as<T, bool> && requires(T & a, const T& b) {
  a -= b;
};

// Per-value checks shared by Dator and ListDator.
template <typename T>
class ValueChecks {
 public:
  void add_check(Validator<T> check) {
    checks_.push_back([check = std::move(check)](const T& value) -> Status {
      std::string reason = check(value);
      if (reason.empty()) return ok();
      return Unexpected(Error(ErrorCode::kInvalidArgument, std::move(reason)));
    });
  }
  void add_range(T min, T max) requires std::totally_ordered<T> {
    checks_.push_back([min = std::move(min), max = std::move(max)](const T& value) -> Status {
      if (!(value < min) && !(max < value)) return ok();
      return fail(ErrorCode::kOutOfRange, "{} is out of range [{}, {}]",
                  Converter<T>::format(value), Converter<T>::format(min),
                  Converter<T>::format(max));
    });
  }
  Status run(const T& value) const {
    for (const auto& check : checks_) {
      if (auto s = check(value); !s) return s;
    }
    return ok();
  }
  Result<T> convert(std::string_view text) const {
    Result<T> value = Converter<T>::parse(text);
    if (!value) return value;
    if (auto s = run(*value); !s) return Unexpected(std::move(s.error()));
    return value;
  }

 private:
  std::vector<std::function<Status(const T&)>> checks_;
};

// a += b / a -= b with overflow checks for integers.
template <typename T>
Status checked_add(T& a, const T& b) {
  if constexpr (SettingInteger<T>) {
    if (__builtin_add_overflow(a, b, &a)) {
      return fail(ErrorCode::kOutOfRange, "the sum is out of range for {}", type_name_of<T>());
    }
  } else {
    a += b;
  }
  return ok();
}
template <typename T>
Status checked_subtract(T& a, const T& b) {
  if constexpr (SettingInteger<T>) {
    if (__builtin_sub_overflow(a, b, &a)) {
      return fail(ErrorCode::kOutOfRange, "the difference is out of range for {}",
                  type_name_of<T>());
    }
  } else {
    a -= b;
  }
  return ok();
}

inline Unexpected not_one_value(usize count) {
  return fail(ErrorCode::kInvalidArgument, "expected one value, got {}", count);
}

}  // namespace detail

template <Convertible T>
class Dator final : public BaseDator {
 public:
  using value_type = T;

  explicit Dator(T& target) : target_(target) {}

  T& target() const { return target_; }

  // Checks run on every new value; the first that fails rejects the change.
  void add_check(Validator<T> check) { checks_.add_check(std::move(check)); }
  void add_range(T min, T max) requires std::totally_ordered<T> {
    checks_.add_range(std::move(min), std::move(max));
  }

  bool contains(std::string_view text) const override {
    Result<T> value = Converter<T>::parse(text);
    if (!value) return false;
    if constexpr (std::equality_comparable<T>) {
      return *value == target_;
    } else {
      return Converter<T>::format(*value) == to_text();
    }
  }
  std::string to_text() const override { return Converter<T>::format(target_); }
  bool has_multiple_values() const override { return false; }
  // Only bool settings are flags (`+name`, `-name`, `name`): a bare `+frames` on a count was
  // accepted as 1 before (issue 15), which nobody means.
  bool is_flag() const override { return std::same_as<T, bool>; }
  std::string type_name() const override { return std::string(type_name_of<T>()); }

  Status check_value(std::string_view value) const override {
    Result<T> v = checks_.convert(value);
    if (!v) return Unexpected(std::move(v.error()));
    return ok();
  }
  Status assign_values(std::span<const std::string_view> values) override {
    if (values.size() != 1) return detail::not_one_value(values.size());
    Result<T> v = checks_.convert(values[0]);
    if (!v) return Unexpected(std::move(v.error()));
    target_ = std::move(*v);
    return ok();
  }
  Status add_values(std::span<const std::string_view> values) override {
    if constexpr (detail::Addable<T>) {
      return combine(values, [](T& a, const T& b) { return detail::checked_add(a, b); });
    } else {
      return fail(ErrorCode::kUnsupported, "cannot add to a {} value", type_name_of<T>());
    }
  }
  Status remove_values(std::span<const std::string_view> values) override {
    if constexpr (detail::Subtractable<T>) {
      return combine(values, [](T& a, const T& b) { return detail::checked_subtract(a, b); });
    } else {
      return fail(ErrorCode::kUnsupported, "cannot subtract from a {} value", type_name_of<T>());
    }
  }

 private:
  template <typename Op>
  Status combine(std::span<const std::string_view> values, Op op) {
    if (values.size() != 1) return detail::not_one_value(values.size());
    Result<T> operand = Converter<T>::parse(values[0]);
    if (!operand) return Unexpected(std::move(operand.error()));
    T candidate = target_;
    if (auto s = op(candidate, *operand); !s) return s;
    if (auto s = checks_.run(candidate); !s) return s;
    target_ = std::move(candidate);
    return ok();
  }

  T& target_;
  detail::ValueChecks<T> checks_;
};

}  // namespace keel::settings
