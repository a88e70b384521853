// The settings registry: named settings bound to program variables, set from expressions,
// settings files and the command line, written back atomically.
//
//   keel::settings::Settings settings;
//   settings.add("width", width, "Window width in pixels").range(320, 7680);
//   settings.add("fullscreen", fullscreen, "Start in full-screen mode");
//   settings.add("maps", maps, "Map rotation");                  // std::vector / std::list
//   auto result = settings.load(std::array{fs::path("game.cfg")}, args);  // files, then args
//   for (const keel::Error& e : result.errors) log(e.to_string());  // "game.cfg:3:1: error: ..."
//   settings.write_file("game.cfg");
//
// Expression syntax `[+|-]name[=value[;value...]]`:
//   name=v       assign (a list is replaced by the given values: maps=a;b -> [a, b])
//   +name=v;w    list: append;  -name=v  list: remove every equal value
//                single values ignore the bias and assign (as the seed's text says)
//   +flag / flag set a bool or integer flag to 1 (true);  -flag sets it to 0
// Names match case-insensitively; blanks around names and `=` are ignored; values keep their inner
// spaces; `"quoted"` values may hold `;`, `#`, edge spaces and escapes (value_text.h).
// Settings files: one expression per line; blank lines and lines whose first non-blank character
// is `#` are skipped; a `#` after a value is part of the value. Errors never stop a file: each bad
// line is reported with file:line:column and the next line is applied.
#pragma once

#include "keel/settings/dator.h"
#include "keel/settings/list_dator.h"
#include "keel/settings/setting.h"

#include "keel/core/assert.h"
#include "keel/core/error.h"
#include "keel/core/types.h"

#include <filesystem>
#include <list>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace keel::settings {

struct SettingExpression;

// What apply_args and load return: the arguments that were not settings (untouched, in order)
// and every error met.
struct ArgsResult {
  std::vector<std::string_view> rest;
  std::vector<Error> errors;
};

// argv[1..argc) as views, for apply_args.
std::vector<std::string_view> args_from_main(int argc, const char* const* argv);

namespace detail {
template <typename T>
struct IsListContainer : std::false_type {};
template <typename T, typename A>
struct IsListContainer<std::vector<T, A>> : std::true_type {};
template <typename T, typename A>
struct IsListContainer<std::list<T, A>> : std::true_type {};

// ASCII case-insensitive ordering, usable with string_view keys (no allocation on lookup).
struct NameLess {
  using is_transparent = void;
  bool operator()(std::string_view a, std::string_view b) const;
};
}  // namespace detail

// The source name used in command-line errors: "<command line>:<argument number>:<column>".
inline constexpr std::string_view kCommandLineSource = "<command line>";

class Settings {
 public:
  Settings() = default;
  ~Settings();
  Settings(const Settings&) = delete;
  Settings& operator=(const Settings&) = delete;
  Settings(Settings&&) noexcept;
  Settings& operator=(Settings&&) noexcept;

  // Registers `variable` (which must outlive the registry) under `name`. std::vector<T> and
  // std::list<T> become list settings; anything else needs a Converter<T>. The current value
  // becomes the default. A duplicate or malformed name is a programmer error (KEEL_ASSERT; in
  // release builds a duplicate replaces the earlier setting).
  template <typename T>
  auto add(std::string_view name, T& variable, std::string_view help = {}) {
    if constexpr (detail::IsListContainer<T>::value) {
      using D = ListDator<typename T::value_type, T>;
      auto dator = std::make_unique<D>(variable);
      D& ref = *dator;
      Setting& setting = add_dator(name, std::move(dator), help);
      return SettingBuilder<D>(setting, ref);
    } else {
      static_assert(Convertible<T>,
                    "no conversion for this type: specialise keel::settings::Converter<T>");
      auto dator = std::make_unique<Dator<T>>(variable);
      Dator<T>& ref = *dator;
      Setting& setting = add_dator(name, std::move(dator), help);
      return SettingBuilder<Dator<T>>(setting, ref);
    }
  }
  Setting& add_dator(std::string_view name, std::unique_ptr<BaseDator> dator,
                     std::string_view help = {});

  // Lookups never create entries.
  bool contains(std::string_view name) const { return find(name) != nullptr; }
  Setting* find(std::string_view name);
  const Setting* find(std::string_view name) const;
  usize size() const { return settings_.size(); }
  std::vector<std::string_view> names() const;  // in registration order

  // The value in BaseDator::to_text form (lists: "a;b").
  Result<std::string> get(std::string_view name) const;
  // Assigns `value`, written as after `name=` in a settings file (quotes and lists read).
  Status set(std::string_view name, std::string_view value);
  // One expression `[+|-]name[=value]`. Errors carry the column within `expression`.
  Status apply(std::string_view expression);

  // Settings-file text; `source` names it in errors. Returns every error (empty: all applied).
  std::vector<Error> apply_text(std::string_view text, std::string_view source);
  std::vector<Error> apply_file(const std::filesystem::path& path);
  // Command-line arguments, one expression each. An argument is a setting when it has `=` and a
  // valid name before it (`x=5`, `+maps=a`), or is `+name`/`-name` for a registered setting.
  // Everything else (`--help`, `-v`, `level.map`, and all arguments from a `--` on) is returned
  // untouched in `rest` for the program's own option parser. Errors name "<command line>" with the
  // argument number (1-based within `args`) as the line.
  ArgsResult apply_args(std::span<const std::string_view> args);
  // The usual start-up order: each file in turn, then the command line, so the command line
  // wins. A missing file is reported as a kNotFound error (ignore it if the file is optional).
  ArgsResult load(std::span<const std::filesystem::path> files,
                  std::span<const std::string_view> args);

  Status reset(std::string_view name);  // back to the default
  std::vector<Error> reset_all();

  // Every setting as a settings file, help as `#` comments; applying it restores every value.
  std::string to_file_text() const;
  Status write_file(const std::filesystem::path& path) const;  // atomic (keel::write_file_atomic)
  // A table: name, type, value, default, help (first line).
  std::string list() const;

  // Called after any setting changes (after the setting's own callbacks).
  void on_change(ChangeCallback callback) { callbacks_.push_back(std::move(callback)); }

 private:
  // Where an expression came from, for error locations: source name, line (argument number on
  // the command line), and the 1-based column of the expression's first character.
  struct Place {
    std::string_view source;
    u32 line = 0;
    u32 column = 1;
  };

  Status apply_expression(std::string_view text, const Place& place);
  Status apply_parsed(Setting& setting, const SettingExpression& e, const Place& place);
  Status change(Setting& setting, auto&& operation);
  std::string suggestion_for(std::string_view name) const;

  std::vector<std::unique_ptr<Setting>> settings_;        // registration order
  std::map<std::string, usize, detail::NameLess> index_;  // name -> position in settings_
  std::vector<ChangeCallback> callbacks_;
};

}  // namespace keel::settings
