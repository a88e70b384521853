// The profiler overlay: keel/profile's expandable tree view as text on screen, with the build
// stamp above it. Keys (InputEvents from any source): F1 shows/hides it, Up/Down move the
// selection, Right or Return expands the selected node, Left collapses it.
//
//   ProfilerOverlay overlay(keel::profile::this_thread());
//   overlay.handle(input_task.events());           // each frame
//   overlay.draw(renderer, font, {16, 40});        // after the scene, in screen space
#pragma once

#include "keel/core/types.h"
#include "keel/platform/input.h"
#include "keel/platform/renderer.h"
#include "keel/profile/profiler.h"
#include "keel/profile/tree_view.h"

#include <span>
#include <string>
#include <vector>

namespace keel::platform {

class ProfilerOverlay {
 public:
  explicit ProfilerOverlay(const profile::Profiler& profiler) : view_(profiler) {}

  void handle(std::span<const InputEvent> events);
  void set_visible(bool visible) { visible_ = visible; }
  bool visible() const { return visible_; }
  usize selected() const { return selected_; }

  // The lines draw() shows: the build stamp, then one per visible tree row ("> " marks the
  // selection; "+" a collapsed node with children, "-" an expanded one).
  std::vector<std::string> lines() const;
  // Draws lines() one line_height apart (nothing when hidden).
  void draw(Renderer& renderer, FontId font, spatial::Vec2 top_left, f32 line_height = 20,
            Color color = {255, 255, 160, 255}) const;

 private:
  profile::TreeView view_;
  usize selected_ = 0;
  bool visible_ = true;
};

}  // namespace keel::platform
