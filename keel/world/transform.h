// keel::world::Transform: where an entity is and how it moves, in world units (the one
// component that physics writes, steering and particles read, and the platform draws).
#pragma once

#include "keel/core/types.h"
#include "keel/world/entity.h"

namespace keel::world {

struct Transform {
  Vec2 position;
  f32 angle = 0;             // radians, counter-clockwise from the x axis
  Vec2 velocity;             // world units per second
  f32 angular_velocity = 0;  // radians per second
};

}  // namespace keel::world
