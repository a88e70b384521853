// Draws a Scene headless with keel/platform's Renderer and writes PNG screenshots: ships as
// circles in their Sprite colour with a heading line, bullets as short lines along their
// velocity, particles from the pools' spans, a HUD line in the pack's bitmap font.
#pragma once

#include "scene.h"

#include "keel/platform/renderer.h"
#include "keel/platform/window.h"

#include <filesystem>
#include <memory>

namespace keel::scene {

class SceneView {
 public:
  // An offscreen window and renderer, the font sans_small (+ sans_small_atlas) of the pack.
  static Result<std::unique_ptr<SceneView>> open(const Scene& scene);
  SceneView(const SceneView&) = delete;
  SceneView& operator=(const SceneView&) = delete;

  // Draws the scene's current frame and writes it to `path` (PNG).
  Status shoot(const Scene& scene, const std::filesystem::path& path);

 private:
  SceneView() = default;
  void draw_world(const Scene& scene);
  void draw_hud(const Scene& scene);

  std::unique_ptr<platform::Window> window_;
  std::unique_ptr<platform::Renderer> renderer_;
  platform::FontId font_;
};

}  // namespace keel::scene
