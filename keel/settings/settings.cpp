// The registry and the semantics of one expression. Files, the command line, writing back and
// listing are in settings_io.cpp.
#include "keel/settings/settings.h"

#include "keel/settings/convert.h"
#include "keel/settings/detail/syntax.h"
#include "keel/settings/value_text.h"

#include <algorithm>
#include <array>

namespace keel::settings {
namespace {

char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

// Optimal-string-alignment distance (edits plus adjacent swaps), ignoring ASCII case.
usize edit_distance(std::string_view a, std::string_view b) {
  std::vector<usize> prev2(b.size() + 1), prev(b.size() + 1), cur(b.size() + 1);
  for (usize j = 0; j <= b.size(); ++j) prev[j] = j;
  for (usize i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (usize j = 1; j <= b.size(); ++j) {
      const usize cost = lower(a[i - 1]) == lower(b[j - 1]) ? 0 : 1;
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost});
      if (i > 1 && j > 1 && lower(a[i - 1]) == lower(b[j - 2]) &&
          lower(a[i - 2]) == lower(b[j - 1])) {
        cur[j] = std::min(cur[j], prev2[j - 2] + 1);
      }
    }
    std::swap(prev2, prev);
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

}  // namespace

bool detail::NameLess::operator()(std::string_view a, std::string_view b) const {
  return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end(),
                                      [](char x, char y) { return lower(x) < lower(y); });
}

Settings::~Settings() = default;
Settings::Settings(Settings&&) noexcept = default;
Settings& Settings::operator=(Settings&&) noexcept = default;

namespace {

// Stands in for a null dator (a programmer error, asserted): holds nothing, refuses every value.
class MissingDator final : public BaseDator {
 public:
  bool contains(std::string_view) const override { return false; }
  std::string to_text() const override { return {}; }
  bool has_multiple_values() const override { return false; }
  bool is_flag() const override { return false; }
  std::string type_name() const override { return "none"; }
  Status check_value(std::string_view) const override { return refuse(); }
  Status assign_values(std::span<const std::string_view>) override { return refuse(); }
  Status add_values(std::span<const std::string_view>) override { return refuse(); }
  Status remove_values(std::span<const std::string_view>) override { return refuse(); }

 private:
  static Status refuse() {
    return fail(ErrorCode::kInvalidArgument, "this setting was registered without a variable");
  }
};

}  // namespace

Setting& Settings::add_dator(std::string_view name, std::unique_ptr<BaseDator> dator,
                             std::string_view help) {
  KEEL_ASSERT(is_valid_setting_name(name), "invalid setting name '{}'", name);
  KEEL_ASSERT(dator != nullptr, "setting '{}' registered with a null dator", name);
  if (dator == nullptr) dator = std::make_unique<MissingDator>();
  auto setting = std::make_unique<Setting>(std::string(name), std::move(dator), std::string(help));
  Setting& ref = *setting;
  if (auto it = index_.find(name); it != index_.end()) {
    KEEL_ASSERT(false, "setting '{}' is already registered", name);
    settings_[it->second] = std::move(setting);  // release builds: the later registration wins
    return ref;
  }
  index_.emplace(std::string(name), settings_.size());
  settings_.push_back(std::move(setting));
  return ref;
}

Setting* Settings::find(std::string_view name) {
  auto it = index_.find(name);
  return it == index_.end() ? nullptr : settings_[it->second].get();
}

const Setting* Settings::find(std::string_view name) const {
  auto it = index_.find(name);
  return it == index_.end() ? nullptr : settings_[it->second].get();
}

std::vector<std::string_view> Settings::names() const {
  std::vector<std::string_view> out;
  out.reserve(settings_.size());
  for (const auto& s : settings_) out.push_back(s->name());
  return out;
}

std::string Settings::suggestion_for(std::string_view name) const {
  constexpr usize kMaxDistance = 2;
  if (name.size() > 64) return {};
  const Setting* best = nullptr;
  usize best_distance = kMaxDistance + 1;
  for (const auto& s : settings_) {
    const usize la = name.size();
    const usize lb = s->name().size();
    if ((la > lb ? la - lb : lb - la) > kMaxDistance) continue;
    const usize d = edit_distance(name, s->name());
    if (d < best_distance && d < name.size()) {
      best = s.get();
      best_distance = d;
    }
  }
  return best ? fmt::format(" (did you mean '{}'?)", best->name()) : std::string();
}

Result<std::string> Settings::get(std::string_view name) const {
  const Setting* s = find(name);
  if (s == nullptr) {
    return fail(ErrorCode::kNotFound, "unknown setting '{}'{}", detail::excerpt(name),
                suggestion_for(name));
  }
  return s->value_text();
}

Status Settings::set(std::string_view name, std::string_view value) {
  Setting* s = find(name);
  if (s == nullptr) {
    return fail(ErrorCode::kNotFound, "unknown setting '{}'{}", detail::excerpt(name),
                suggestion_for(name));
  }
  SettingExpression e;
  e.name = s->name();
  e.has_value = true;
  e.value = trim(value);
  e.value_offset = e.value.empty() ? 0 : static_cast<usize>(e.value.data() - value.data());
  return apply_parsed(*s, e, Place{});
}

Status Settings::apply(std::string_view expression) {
  return apply_expression(expression, Place{});
}

namespace {

// An error at `offset` bytes into the expression; an error that already carries a column
// (relative to the text it came from) is moved by that much further.
Unexpected located(std::string_view source, u32 line, u32 column, usize offset, const Error& error,
                   std::string message) {
  const u32 inner = error.where().column > 0 ? error.where().column - 1 : 0;
  return Unexpected(Error(
      error.code(), std::move(message),
      SourceLocation::text(std::string(source), line, column + static_cast<u32>(offset) + inner)));
}

}  // namespace

Status Settings::apply_expression(std::string_view text, const Place& place) {
  auto e = parse_expression(text);
  if (!e) return located(place.source, place.line, place.column, 0, e.error(), e.error().message());
  Setting* s = find(e->name);
  if (s == nullptr) {
    const Error unknown(ErrorCode::kNotFound, "");
    return located(
        place.source, place.line, place.column, e->name_offset, unknown,
        fmt::format("unknown setting '{}'{}", detail::excerpt(e->name), suggestion_for(e->name)));
  }
  return apply_parsed(*s, *e, place);
}

Status Settings::apply_parsed(Setting& setting, const SettingExpression& e, const Place& place) {
  BaseDator& dator = setting.dator();
  auto error_at = [&](usize offset, const Error& error) {
    return located(place.source, place.line, place.column, offset, error,
                   fmt::format("setting '{}': {}", setting.name(), error.message()));
  };

  if (!e.has_value) {
    if (!dator.is_flag()) {
      const Error needs_value(ErrorCode::kInvalidArgument, "");
      return located(place.source, place.line, place.column, e.name_offset, needs_value,
                     dator.has_multiple_values()
                         ? fmt::format("list setting '{0}' needs values: {0}=a;b, +{0}=c or -{0}=a",
                                       setting.name())
                         : fmt::format("setting '{0}' is not a flag and needs a value: {0}=...",
                                       setting.name()));
    }
    const std::string_view flag = e.bias == '-' ? "0" : "1";
    if (auto s = change(setting, [&] { return dator.assign_values({&flag, 1}); }); !s) {
      return error_at(e.name_offset, s.error());
    }
    return ok();
  }

  if (dator.has_multiple_values()) {
    auto pieces = parse_list_value(e.value);
    if (!pieces) return error_at(e.value_offset, pieces.error());
    std::vector<std::string_view> values;
    values.reserve(pieces->size());
    for (const ValuePiece& piece : *pieces) {
      // Check each new value first so an error points at the value itself. Values to remove
      // are not checked: removing a value a check would now reject is allowed.
      if (e.bias != '-') {
        if (auto s = dator.check_value(piece.text); !s) {
          return error_at(e.value_offset + piece.offset, s.error());
        }
      }
      values.push_back(piece.text);
    }
    const std::span<const std::string_view> span(values);
    auto status = change(setting, [&] {
      if (e.bias == '+') return dator.add_values(span);
      if (e.bias == '-') return dator.remove_values(span);
      return dator.assign_values(span);
    });
    if (!status) return error_at(e.value_offset, status.error());
    return ok();
  }

  // A single value with a bias is ambiguous (`-physics=1`: off, or 1?): refused. The seed
  // ignored the bias.
  if (e.bias != 0) {
    const Error ambiguous(ErrorCode::kInvalidArgument, "");
    return located(place.source, place.line, place.column, 0, ambiguous,
                   fmt::format("setting '{0}' holds one value; '{1}' with a value is for list "
                               "settings: write {0}={2}",
                               setting.name(), e.bias, detail::excerpt(e.value)));
  }
  auto value = parse_single_value(e.value);
  if (!value) return error_at(e.value_offset, value.error());
  const std::string_view text = *value;
  if (auto s = change(setting, [&] { return dator.assign_values({&text, 1}); }); !s) {
    return error_at(e.value_offset, s.error());
  }
  return ok();
}

Status Settings::change(Setting& setting, auto&& operation) {
  // The value texts are only needed by callbacks (a long list costs a full render each time).
  if (setting.callbacks_.empty() && callbacks_.empty()) return operation();
  std::string before = setting.dator().to_text();
  if (auto s = operation(); !s) return s;
  std::string after = setting.dator().to_text();
  if (after == before) return ok();
  // Copies: a callback may register further callbacks.
  if (!setting.callbacks_.empty()) {
    const std::vector<ChangeCallback> own = setting.callbacks_;
    for (const ChangeCallback& callback : own) callback(setting, before, after);
  }
  if (!callbacks_.empty()) {
    const std::vector<ChangeCallback> all = callbacks_;
    for (const ChangeCallback& callback : all) callback(setting, before, after);
  }
  return ok();
}

Status Settings::reset(std::string_view name) {
  Setting* s = find(name);
  if (s == nullptr)
    return fail(ErrorCode::kNotFound, "unknown setting '{}'", detail::excerpt(name));
  auto status = change(*s, [s] { return s->dator().assign(s->default_text()); });
  if (!status) {
    return fail(status.error().code(), "setting '{}': {}", s->name(), status.error().message());
  }
  return ok();
}

std::vector<Error> Settings::reset_all() {
  std::vector<Error> errors;
  for (usize i = 0; i < settings_.size(); ++i) {
    if (auto s = reset(settings_[i]->name()); !s) errors.push_back(std::move(s.error()));
  }
  return errors;
}

}  // namespace keel::settings
