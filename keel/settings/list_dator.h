// ListDator: a dator bound to a container of values (std::vector<T> by default; std::list<T> or
// any sequence container with push_back/erase works too).
//
//   std::vector<std::string> maps;
//   keel::settings::ListDator<std::string> dator(maps);
//   dator.assign("a;b");    // maps == [a, b]        (= replaces the list with the given values)
//   dator.add("c");         // maps == [a, b, c]     (+= appends)
//   dator.remove("a");      // maps == [b, c]        (-= removes every equal value)
//   dator.contains("b");    // true
//   dator.to_text();        // "b;c"
//
// The text forms take `;`-separated lists with `"quoted"` values (value_text.h). Changes are
// all-or-nothing: if any value fails to convert or is rejected by a check, the list is unchanged.
#pragma once

#include "keel/settings/dator.h"
#include "keel/settings/value_text.h"

#include <algorithm>
#include <concepts>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace keel::settings {

template <Convertible T, typename Container = std::vector<T>>
requires std::equality_comparable<T> && std::same_as<typename Container::value_type, T>
class ListDator final : public BaseDator {
 public:
  using value_type = T;
  using container_type = Container;
  // A check on the whole list a change would produce (e.g. a maximum length).
  using ListValidator = std::function<std::string(const Container& values)>;

  explicit ListDator(Container& values) : values_(values) {}

  Container& values() const { return values_; }

  // Checks on each new value (assign and add).
  void add_check(Validator<T> check) { checks_.add_check(std::move(check)); }
  void add_range(T min, T max) requires std::totally_ordered<T> {
    checks_.add_range(std::move(min), std::move(max));
  }
  // Checks on the resulting list (assign, add and remove).
  void add_list_check(ListValidator check) { list_checks_.push_back(std::move(check)); }

  Status assign(std::string_view text) override {
    return with_list(text,
                     [this](std::span<const std::string_view> v) { return assign_values(v); });
  }
  Status add(std::string_view text) override {
    return with_list(text, [this](std::span<const std::string_view> v) { return add_values(v); });
  }
  Status remove(std::string_view text) override {
    return with_list(text,
                     [this](std::span<const std::string_view> v) { return remove_values(v); });
  }
  bool contains(std::string_view text) const override {
    auto pieces = parse_list_value(text);
    if (!pieces || pieces->empty()) return false;
    for (const ValuePiece& piece : *pieces) {
      Result<T> v = Converter<T>::parse(piece.text);
      if (!v || std::find(values_.begin(), values_.end(), *v) == values_.end()) return false;
    }
    return true;
  }

  std::string to_text() const override {
    std::string out;
    bool first = true;
    for (const T& v : values_) {
      append_list_element(out, Converter<T>::format(v), first);
      first = false;
    }
    return out;
  }
  bool has_multiple_values() const override { return true; }
  bool is_flag() const override { return false; }
  std::string type_name() const override { return "list<" + std::string(type_name_of<T>()) + ">"; }

  Status check_value(std::string_view value) const override {
    Result<T> v = checks_.convert(value);
    if (!v) return Unexpected(std::move(v.error()));
    return ok();
  }
  Status assign_values(std::span<const std::string_view> values) override {
    Result<Container> fresh = convert_all(values);
    if (!fresh) return Unexpected(std::move(fresh.error()));
    if (auto s = run_list_checks(*fresh); !s) return s;
    values_ = std::move(*fresh);
    return ok();
  }
  Status add_values(std::span<const std::string_view> values) override {
    Result<Container> added = convert_all(values);
    if (!added) return Unexpected(std::move(added.error()));
    if (list_checks_.empty()) {
      for (T& v : *added) values_.push_back(std::move(v));
      return ok();
    }
    Container candidate = values_;
    for (T& v : *added) candidate.push_back(std::move(v));
    if (auto s = run_list_checks(candidate); !s) return s;
    values_ = std::move(candidate);
    return ok();
  }
  Status remove_values(std::span<const std::string_view> values) override {
    // Values to remove are converted but not checked: removing an out-of-range value is fine.
    std::vector<T> gone;
    gone.reserve(values.size());
    for (std::string_view text : values) {
      Result<T> v = Converter<T>::parse(text);
      if (!v) return Unexpected(std::move(v.error()));
      gone.push_back(std::move(*v));
    }
    auto doomed = [&gone](const T& v) {
      return std::find(gone.begin(), gone.end(), v) != gone.end();
    };
    if (list_checks_.empty()) {
      erase_matching(values_, doomed);
      return ok();
    }
    Container candidate = values_;
    erase_matching(candidate, doomed);
    if (auto s = run_list_checks(candidate); !s) return s;
    values_ = std::move(candidate);
    return ok();
  }

 private:
  template <typename Op>
  Status with_list(std::string_view text, Op op) {
    auto pieces = parse_list_value(text);
    if (!pieces) return Unexpected(std::move(pieces.error()));
    std::vector<std::string_view> views;
    views.reserve(pieces->size());
    for (const ValuePiece& piece : *pieces) views.push_back(piece.text);
    return op(std::span<const std::string_view>(views));
  }

  template <typename Pred>
  static void erase_matching(Container& c, Pred pred) {
    c.erase(std::remove_if(c.begin(), c.end(), pred), c.end());
  }

  Result<Container> convert_all(std::span<const std::string_view> texts) const {
    Container out;
    for (std::string_view text : texts) {
      Result<T> v = checks_.convert(text);
      if (!v) return Unexpected(std::move(v.error()));
      out.push_back(std::move(*v));
    }
    return out;
  }

  Status run_list_checks(const Container& candidate) const {
    for (const ListValidator& check : list_checks_) {
      std::string reason = check(candidate);
      if (!reason.empty()) return Unexpected(Error(ErrorCode::kInvalidArgument, std::move(reason)));
    }
    return ok();
  }

  Container& values_;
  detail::ValueChecks<T> checks_;
  std::vector<ListValidator> list_checks_;
};

}  // namespace keel::settings
