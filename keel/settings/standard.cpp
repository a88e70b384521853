#include "keel/settings/standard.h"

#include <fmt/format.h>

namespace keel::settings {

Result<log::Level> Converter<log::Level>::parse(std::string_view text) {
  if (const std::optional<log::Level> level = log::parse_level(text)) return *level;
  return fail(ErrorCode::kParse, "'{}' is not a log level (trace, debug, info, warn, error or off)",
              detail::excerpt(text));
}

std::string Converter<log::Level>::format(const log::Level& value) {
  return std::string(log::to_string(value));
}

Status add_standard_settings(Settings& settings, StandardSettings& values) {
  for (const std::string_view name : kStandardSettingNames) {
    if (settings.contains(name)) {
      return fail(ErrorCode::kAlreadyExists,
                  "standard setting '{}' is already registered; no standard setting was added",
                  name);
    }
  }
  settings.add("width", values.width, "Window width in pixels").range(320, 7680);
  settings.add("height", values.height, "Window height in pixels").range(200, 4320);
  settings.add("fullscreen", values.fullscreen, "Start in full-screen mode");
  settings.add("vsync", values.vsync, "Wait for the display's refresh before showing a frame");
  settings.add("volume", values.volume, "Master audio volume, 0 (silent) to 1 (full)")
      .range(0.0f, 1.0f);
  settings.add("log_level", values.log_level,
               "Minimum level of log messages: trace, debug, info, warn, error or off");
  settings.add("profiler", values.profiler, "Per-frame profiler (reports and trace) on or off");
  return {};
}

void apply_log_level(const StandardSettings& values, log::Logger& logger) {
  logger.set_all_levels(values.log_level);
}

}  // namespace keel::settings
