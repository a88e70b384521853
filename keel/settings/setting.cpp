#include "keel/settings/setting.h"

#include "keel/settings/value_text.h"

#include "keel/core/assert.h"

namespace keel::settings {
namespace {

std::string as_file_value(const BaseDator& dator, const std::string& text) {
  // A list's text is already in file form; a single value may need quotes.
  return dator.has_multiple_values() ? text : format_single_value(text);
}

}  // namespace

Setting::Setting(std::string name, std::unique_ptr<BaseDator> dator, std::string help)
    : name_(std::move(name)), help_(std::move(help)), dator_(std::move(dator)) {
  KEEL_ASSERT(dator_ != nullptr, "setting '{}' has no dator", name_);
  default_text_ = dator_->to_text();
}

std::string Setting::file_value() const { return as_file_value(*dator_, dator_->to_text()); }
std::string Setting::file_default() const { return as_file_value(*dator_, default_text_); }

Setting& Setting::set_help(std::string_view help) {
  help_ = help;
  return *this;
}

Setting& Setting::on_change(ChangeCallback callback) {
  callbacks_.push_back(std::move(callback));
  return *this;
}

}  // namespace keel::settings
