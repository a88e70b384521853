#include "keel/platform/window.h"

#include <cstdlib>
#include <thread>

namespace keel::platform {

WindowOptions window_options(const settings::StandardSettings& standard, std::string title) {
  WindowOptions options;
  options.title = std::move(title);
  options.width = standard.width;
  options.height = standard.height;
  options.fullscreen = standard.fullscreen;
  options.vsync = standard.vsync;
  return options;
}

bool no_display() {
  const char* x11 = std::getenv("DISPLAY");
  const char* wayland = std::getenv("WAYLAND_DISPLAY");
  return (x11 == nullptr || *x11 == '\0') && (wayland == nullptr || *wayland == '\0');
}

Result<std::unique_ptr<Window>> Window::open(const WindowOptions& options) {
  if (options.width < 1 || options.height < 1 || options.width > 16384 || options.height > 16384) {
    return fail(ErrorCode::kInvalidArgument, "window size {}x{} outside 1..16384", options.width,
                options.height);
  }
  const bool headless = options.headless || no_display();
  if (SDL_WasInit(SDL_INIT_VIDEO) == 0) {
    // Headless: "offscreen" gets SDL's OpenGL renderer (Mesa llvmpipe, the pixels of a real
    // window); with the software renderer "dummy" suffices and loads no GL library at all.
    SDL_SetHint(SDL_HINT_VIDEODRIVER, !headless ? "" : (options.software ? "dummy" : "offscreen"));
  }
  if (SDL_InitSubSystem(SDL_INIT_VIDEO) != 0) {
    return fail(ErrorCode::kUnsupported, "SDL video: {}", SDL_GetError());
  }
  std::unique_ptr<Window> w(new Window());
  w->headless_ = headless;
  w->width_ = options.width;
  w->height_ = options.height;
  Uint32 flags = headless ? SDL_WINDOW_HIDDEN : SDL_WINDOW_SHOWN;
  if (options.fullscreen && !headless) flags |= SDL_WINDOW_FULLSCREEN_DESKTOP;
  w->window_ = SDL_CreateWindow(options.title.c_str(), SDL_WINDOWPOS_CENTERED,
                                SDL_WINDOWPOS_CENTERED, options.width, options.height, flags);
  if (w->window_ == nullptr) {
    SDL_QuitSubSystem(SDL_INIT_VIDEO);
    return fail(ErrorCode::kUnsupported, "SDL_CreateWindow: {}", SDL_GetError());
  }
  SDL_SetHint(SDL_HINT_RENDER_DRIVER, options.software ? "software" : "");
  SDL_SetHint(SDL_HINT_RENDER_VSYNC, options.vsync && !headless ? "1" : "0");
  Uint32 render_flags = options.software ? Uint32{SDL_RENDERER_SOFTWARE} : Uint32{0};
  if (options.vsync && !headless) render_flags |= SDL_RENDERER_PRESENTVSYNC;
  w->renderer_ = SDL_CreateRenderer(w->window_, -1, render_flags);
  if (w->renderer_ == nullptr) {
    const std::string why = SDL_GetError();
    return fail(ErrorCode::kUnsupported, "SDL_CreateRenderer: {}", why);  // ~Window cleans up
  }
  // Draw in the requested size even when full-screen picked another.
  SDL_RenderSetLogicalSize(w->renderer_, options.width, options.height);
  return w;
}

Window::~Window() {
  if (renderer_ != nullptr) SDL_DestroyRenderer(renderer_);
  if (window_ != nullptr) {
    SDL_DestroyWindow(window_);
    SDL_QuitSubSystem(SDL_INIT_VIDEO);
  }
}

std::string Window::video_driver() const {
  const char* name = SDL_GetCurrentVideoDriver();
  return name != nullptr ? name : "";
}

std::string Window::renderer_name() const {
  SDL_RendererInfo info{};
  if (renderer_ == nullptr || SDL_GetRendererInfo(renderer_, &info) != 0) return "";
  return info.name != nullptr ? info.name : "";
}

Result<Image> Window::screenshot() const {
  s32 w = 0;
  s32 h = 0;
  if (SDL_GetRendererOutputSize(renderer_, &w, &h) != 0 || w <= 0 || h <= 0) {
    return fail(ErrorCode::kUnsupported, "screenshot: {}", SDL_GetError());
  }
  Image image{static_cast<u32>(w), static_cast<u32>(h), {}};
  image.rgba.resize(static_cast<usize>(w) * h * 4);
  if (SDL_RenderReadPixels(renderer_, nullptr, SDL_PIXELFORMAT_ABGR8888, image.rgba.data(),
                           w * 4) != 0) {
    return fail(ErrorCode::kIo, "SDL_RenderReadPixels: {}", SDL_GetError());
  }
  return image;
}

FramePacer::FramePacer(f64 hz) {
  if (hz > 0) {
    period_ = std::chrono::duration_cast<std::chrono::steady_clock::duration>(
        std::chrono::duration<f64>(1.0 / hz));
  }
  next_ = std::chrono::steady_clock::now() + period_;
}

void FramePacer::wait() {
  ++frames_;
  if (period_.count() == 0) return;
  const auto now = std::chrono::steady_clock::now();
  if (now < next_) std::this_thread::sleep_until(next_);
  // A frame that ran late starts the next period now instead of racing to catch up.
  next_ = (now > next_ ? now : next_) + period_;
}

}  // namespace keel::platform
