// Voidfarer's presentation: draws a Sim through keel/platform's Renderer between the caller's
// begin_frame() and end_frame(): the camera on the player, ships, bullets, particles and the HUD
// (hull, score, wave) in the pack's bitmap font.
//
//   auto view = *View::create(renderer, sim);
//   renderer.begin_frame({8, 8, 16, 255});
//   view->draw(sim);
//   renderer.end_frame();
#pragma once

#include "sim.h"

#include "keel/platform/renderer.h"

#include <memory>

namespace keel::voidfarer {

class View {
 public:
  static constexpr s32 kWidth = 1280;
  static constexpr s32 kHeight = 720;

  // Registers the pack's textures and fonts with `renderer` (which must outlive the view).
  static Result<std::unique_ptr<View>> create(platform::Renderer& renderer, const Sim& sim);
  View(const View&) = delete;
  View& operator=(const View&) = delete;

  // Sets the camera on the player and draws the world and the HUD.
  void draw(const Sim& sim);
  // The HUD's font, for the program's own text (pause, overlay).
  platform::FontId font() const { return font_; }

 private:
  explicit View(platform::Renderer& renderer) : renderer_(renderer) {}
  void draw_world(const Sim& sim);
  void draw_hud(const Sim& sim);

  platform::Renderer& renderer_;
  platform::FontId font_;
};

}  // namespace keel::voidfarer
