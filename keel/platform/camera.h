// A 2-D camera: the world point at the centre of the viewport, a zoom (screen pixels per world
// unit) and a rotation (radians, counter-clockwise in world space). Screen space is pixels, y down.
//
//   keel::platform::Camera camera{.position = ship.position, .zoom = 2, .viewport = {1280, 720}};
//   spatial::Vec2 s = camera.world_to_screen(p);      // p at position -> viewport centre
//   spatial::Vec2 w = camera.screen_to_world(mouse);  // the inverse
#pragma once

#include "keel/core/types.h"
#include "keel/spatial/vec2.h"

namespace keel::platform {

struct Camera {
  spatial::Vec2 position{0, 0};
  f32 zoom = 1;
  f32 rotation = 0;
  spatial::Vec2 viewport{1280, 720};

  spatial::Vec2 world_to_screen(spatial::Vec2 world) const {
    return spatial::rotated(world - position, -rotation) * zoom + viewport * 0.5f;
  }
  // A zero zoom is treated as 1 (no division by zero).
  spatial::Vec2 screen_to_world(spatial::Vec2 screen) const {
    const f32 z = zoom == 0 ? 1.0f : zoom;
    return spatial::rotated((screen - viewport * 0.5f) / z, rotation) + position;
  }
};

}  // namespace keel::platform
