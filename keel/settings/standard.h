// The engine's standard settings (Enginuity part III's CreateStandardSettings), registered by one
// call, with defaults, ranges and help texts:
//
//   name        type    default  range / values                      help
//   width       int32   1280     320 .. 7680                         window width in pixels
//   height      int32   720      200 .. 4320                         window height in pixels
//   fullscreen  bool    false                                        start in full-screen mode
//   vsync       bool    true                                         wait for the display refresh
//   volume      float   0.8      0 .. 1                              master audio volume
//   log_level   level   info     trace debug info warn error off     minimum level of the log
//   profiler    bool    true                                         per-frame profiler on/off
//
//   keel::settings::StandardSettings standard;            // must outlive the registry
//   keel::settings::Settings settings;
//   if (auto added = add_standard_settings(settings, standard); !added) { ... }  // name clash
//   settings.load(files, args);                           // +fullscreen width=1024 log_level=debug
//   apply_log_level(standard);                            // the log follows log_level
//
// The variables hold the values; the game applies the window, audio and profiler ones where it
// creates those systems (the settings module sits below them). log_level comes with a helper.
#pragma once

#include "keel/core/error.h"
#include "keel/core/log.h"
#include "keel/core/types.h"
#include "keel/settings/convert.h"
#include "keel/settings/settings.h"

#include <string>
#include <string_view>

namespace keel::settings {

// Log levels as setting values: "trace", "debug", "info", "warn" (or "warning"), "error", "off".
template <>
struct Converter<log::Level> {
  static constexpr std::string_view kTypeName = "level";
  static Result<log::Level> parse(std::string_view text);
  static std::string format(const log::Level& value);
};

struct StandardSettings {
  s32 width = 1280;
  s32 height = 720;
  bool fullscreen = false;
  bool vsync = true;
  f32 volume = 0.8f;
  log::Level log_level = log::Level::kInfo;
  bool profiler = true;
};

// The names add_standard_settings registers, in registration order.
inline constexpr std::string_view kStandardSettingNames[] = {
    "width", "height", "fullscreen", "vsync", "volume", "log_level", "profiler"};

// Registers the standard settings bound to `values` (whose current values become the defaults, so
// a game may change them first). Fails with kAlreadyExists, registering nothing, when a standard
// name is already registered.
Status add_standard_settings(Settings& settings, StandardSettings& values);

// Sets every channel of `logger` to values.log_level.
void apply_log_level(const StandardSettings& values, log::Logger& logger = log::default_logger());

}  // namespace keel::settings
