#include "keel/platform/run_options.h"

#include <fmt/format.h>

#include <charconv>

namespace keel::platform {

std::filesystem::path RunOptions::screenshot_path(u64 frame) const {
  return out / fmt::format("frame_{:05}.png", frame);
}

Result<RunOptions> parse_run_options(std::span<const std::string> args) {
  RunOptions options;
  const auto number = [&](usize& i, std::string_view name, u64& to) -> Status {
    if (i + 1 >= args.size()) return fail(ErrorCode::kInvalidArgument, "{} needs a number", name);
    const std::string& text = args[++i];
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), to);
    if (ec != std::errc{} || end != text.data() + text.size()) {
      return fail(ErrorCode::kInvalidArgument, "{}: `{}` is not a number", name, text);
    }
    return {};
  };
  for (usize i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    Status s;
    if (a == "--headless") {
      options.headless = true;
    } else if (a == "--software") {
      options.software = true;
    } else if (a == "--frames") {
      s = number(i, a, options.frames);
    } else if (a == "--screenshot-every") {
      s = number(i, a, options.screenshot_every);
    } else if (a == "--out" || a == "--trace") {
      if (i + 1 >= args.size()) return fail(ErrorCode::kInvalidArgument, "{} needs a path", a);
      (a == "--out" ? options.out : options.trace) = args[++i];
    } else {
      options.rest.push_back(a);
    }
    if (!s) return std::unexpected(s.error());
  }
  if (options.screenshot_every != 0 && options.out.empty()) {
    return fail(ErrorCode::kInvalidArgument, "--screenshot-every needs --out DIR");
  }
  return options;
}

}  // namespace keel::platform
