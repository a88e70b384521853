#include "keel/platform/overlay.h"

#include "keel/core/build_stamp.h"

#include <SDL2/SDL.h>

namespace keel::platform {

void ProfilerOverlay::handle(std::span<const InputEvent> events) {
  for (const InputEvent& e : events) {
    if (e.device != Device::kKey || !e.down) continue;
    const auto rows = view_.rows();
    switch (static_cast<SDL_Scancode>(e.code)) {
      case SDL_SCANCODE_F1: visible_ = !visible_; break;
      case SDL_SCANCODE_UP:
        if (selected_ > 0) --selected_;
        break;
      case SDL_SCANCODE_DOWN:
        if (selected_ + 1 < rows.size()) ++selected_;
        break;
      case SDL_SCANCODE_RIGHT:
      case SDL_SCANCODE_RETURN:
        if (selected_ < rows.size()) view_.expand(rows[selected_].node);
        break;
      case SDL_SCANCODE_LEFT:
        if (selected_ < rows.size()) view_.collapse(rows[selected_].node);
        break;
      default: break;
    }
  }
}

std::vector<std::string> ProfilerOverlay::lines() const {
  std::vector<std::string> out{build_stamp().to_string()};
  const std::string text = view_.render();
  usize row = 0;
  for (usize begin = 0; begin < text.size();) {
    usize end = text.find('\n', begin);
    if (end == std::string::npos) end = text.size();
    out.push_back((row == selected_ ? "> " : "  ") + text.substr(begin, end - begin));
    begin = end + 1;
    ++row;
  }
  return out;
}

void ProfilerOverlay::draw(Renderer& renderer, FontId font, spatial::Vec2 top_left, f32 line_height,
                           Color color) const {
  if (!visible_) return;
  spatial::Vec2 pen = top_left;
  for (const std::string& line : lines()) {
    renderer.text(font, line, pen, color);
    pen.y += line_height;
  }
}

}  // namespace keel::platform
