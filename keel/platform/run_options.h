// The platform's own command-line options (what settings do not cover): headless runs, frame
// count, screenshots, a Chrome trace.
//
//   --headless               offscreen video driver even with a display
//   --software               SDL's software renderer
//   --frames N               stop after N frames (0: run until the window closes)
//   --screenshot-every K     write frame_NNNNN.png every K frames (K > 0; needs --out)
//   --out DIR                folder for screenshots (created)
//   --trace FILE             write the profiler's Chrome trace at exit
//
// parse_run_options takes settings' leftover arguments (ArgsResult::rest) and returns the ones
// it does not know in `rest`.
#pragma once

#include "keel/core/error.h"
#include "keel/core/types.h"

#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace keel::platform {

struct RunOptions {
  bool headless = false;
  bool software = false;
  u64 frames = 0;
  u64 screenshot_every = 0;
  std::filesystem::path out;
  std::filesystem::path trace;
  std::vector<std::string> rest;

  // Whether frame `frame` (0-based) is one to capture: frames K-1, 2K-1, ... (the K-th, ...).
  bool screenshot_due(u64 frame) const {
    return screenshot_every != 0 && (frame + 1) % screenshot_every == 0;
  }
  // out/frame_00042.png for frame 42.
  std::filesystem::path screenshot_path(u64 frame) const;
};

Result<RunOptions> parse_run_options(std::span<const std::string> args);

}  // namespace keel::platform
