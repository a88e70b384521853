// The window, its SDL_Renderer and frame pacing; headless runs on SDL's offscreen driver.
//
//   keel::settings::StandardSettings standard;  add_standard_settings(settings, standard);
//   settings.load(files, args);                                  // width=1024 +fullscreen -vsync
//   WindowOptions options = window_options(standard, "Voidfarer");
//   options.headless = run.headless;                             // --headless (run_options.h)
//   Result<std::unique_ptr<Window>> window = Window::open(options);
//   ... draw through Renderer(window->sdl_renderer()) ...
//   (*window)->present();  pacer.wait();
//   write_png("frame.png", *(*window)->screenshot());
//
// Headless (options.headless, or no DISPLAY and no WAYLAND_DISPLAY): SDL's "offscreen" video
// driver, whose OpenGL renderer (Mesa llvmpipe) draws the same pixels as a real window on the
// same machine; options.software picks SDL's software renderer instead (headless: on the
// "dummy" driver, which loads no GL library).
#pragma once

#include "keel/core/error.h"
#include "keel/core/types.h"
#include "keel/platform/image.h"
#include "keel/settings/standard.h"

#include <SDL2/SDL.h>

#include <chrono>
#include <memory>
#include <string>

namespace keel::platform {

struct WindowOptions {
  std::string title = "Keel";
  s32 width = 1280;
  s32 height = 720;
  bool fullscreen = false;
  bool vsync = true;
  bool headless = false;  // offscreen driver (also chosen when there is no display)
  bool software = false;  // SDL's software renderer instead of the accelerated one
};

// Size, full-screen and vsync from the engine's standard settings.
WindowOptions window_options(const settings::StandardSettings& standard,
                             std::string title = "Keel");

// True when neither DISPLAY nor WAYLAND_DISPLAY is set (a headless run is the only choice).
bool no_display();

class Window {
 public:
  // Errors: a size outside 1..16384, or SDL refused (its message). SDL's video subsystem is
  // initialised per window (reference-counted by SDL).
  static Result<std::unique_ptr<Window>> open(const WindowOptions& options);
  ~Window();
  Window(const Window&) = delete;
  Window& operator=(const Window&) = delete;

  SDL_Window* sdl_window() const { return window_; }
  SDL_Renderer* sdl_renderer() const { return renderer_; }
  s32 width() const { return width_; }
  s32 height() const { return height_; }
  bool headless() const { return headless_; }
  std::string video_driver() const;   // "x11", "offscreen", ...
  std::string renderer_name() const;  // "opengl", "software", ...

  void present() { SDL_RenderPresent(renderer_); }
  // The current back buffer as RGBA8 (call before present()).
  Result<Image> screenshot() const;

 private:
  Window() = default;
  SDL_Window* window_ = nullptr;
  SDL_Renderer* renderer_ = nullptr;
  s32 width_ = 0;
  s32 height_ = 0;
  bool headless_ = false;
};

// Fixed-rate pacing when vsync is off (or headless at a chosen rate): wait() sleeps until the
// next tick of `hz`; a rate of 0 never waits (as fast as possible, the headless default).
class FramePacer {
 public:
  explicit FramePacer(f64 hz = 60);
  void wait();
  u64 frames() const { return frames_; }

 private:
  std::chrono::steady_clock::duration period_{};
  std::chrono::steady_clock::time_point next_{};
  u64 frames_ = 0;
};

}  // namespace keel::platform
