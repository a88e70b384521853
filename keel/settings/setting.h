// One registered setting: a name, help text, the default value and a dator bound to the
// program's variable. Settings are created by Settings::add (settings.h).
#pragma once

#include "keel/settings/dator.h"

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace keel::settings {

class Setting;

// Called after a successful change that altered the value, with the value text before and after
// (BaseDator::to_text form).
using ChangeCallback = std::function<void(const Setting& setting, std::string_view old_text,
                                          std::string_view new_text)>;

class Setting {
 public:
  Setting(std::string name, std::unique_ptr<BaseDator> dator, std::string help);
  Setting(const Setting&) = delete;
  Setting& operator=(const Setting&) = delete;

  const std::string& name() const { return name_; }  // as registered (lookups ignore case)
  const std::string& help() const { return help_; }
  // The value when the setting was registered, in to_text form; reset() restores it.
  const std::string& default_text() const { return default_text_; }
  std::string value_text() const { return dator_->to_text(); }
  // The value as it is written after `name=` in a settings file (quoted where needed).
  std::string file_value() const;
  std::string file_default() const;
  bool is_default() const { return value_text() == default_text_; }

  BaseDator& dator() { return *dator_; }
  const BaseDator& dator() const { return *dator_; }

  Setting& set_help(std::string_view help);
  Setting& on_change(ChangeCallback callback);

 private:
  friend class Settings;

  std::string name_;
  std::string help_;
  std::string default_text_;
  std::unique_ptr<BaseDator> dator_;
  std::vector<ChangeCallback> callbacks_;
};

// Returned by Settings::add to configure a new setting in one expression:
//   settings.add("width", width, "Window width in pixels").range(320, 7680).on_change(...);
// D is Dator<T> or ListDator<T, Container>; range/check apply to each value.
template <typename D>
class SettingBuilder {
 public:
  using value_type = typename D::value_type;

  SettingBuilder(Setting& setting, D& dator) : setting_(setting), dator_(dator) {}

  SettingBuilder& help(std::string_view text) {
    setting_.set_help(text);
    return *this;
  }
  SettingBuilder& range(value_type min, value_type max) requires std::totally_ordered<value_type> {
    dator_.add_range(std::move(min), std::move(max));
    return *this;
  }
  // A predicate returning "" to accept a value or the reason to reject it.
  SettingBuilder& check(Validator<value_type> check) {
    dator_.add_check(std::move(check));
    return *this;
  }
  // Lists only: a predicate on the whole list a change would produce.
  template <typename Dx = D>
  SettingBuilder& check_list(typename Dx::ListValidator check) {
    dator_.add_list_check(std::move(check));
    return *this;
  }
  SettingBuilder& on_change(ChangeCallback callback) {
    setting_.on_change(std::move(callback));
    return *this;
  }

  Setting& setting() const { return setting_; }
  D& dator() const { return dator_; }
  operator Setting&() const { return setting_; }  // NOLINT(google-explicit-constructor)

 private:
  Setting& setting_;
  D& dator_;
};

}  // namespace keel::settings
