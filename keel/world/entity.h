// keel::world::Entity: a generational id (core/slot_map.h's Handle) naming one entity of a
// World. A default-constructed Entity is null; an id whose entity has ended reports dead and
// never reaches the entity that reuses its slot.
#pragma once

#include "keel/core/slot_map.h"
#include "keel/spatial/vec2.h"

namespace keel::world {

struct EntityTag;
using Entity = Handle<EntityTag>;

using spatial::Vec2;  // the world's vector type (spatial/vec2.h)

}  // namespace keel::world
