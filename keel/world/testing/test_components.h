// Plain components and a helper shared by the world's unit tests (not installed).
#pragma once

#include "keel/core/types.h"

namespace keel::world::fixtures {

// A copy of the component, or a default one when it is missing (no null dereference).
template <typename C>
C deref(const C* c) {
  return c != nullptr ? *c : C{};
}

struct Position {
  f32 x = 0, y = 0;
};
struct Velocity {
  f32 x = 0, y = 0;
};

}  // namespace keel::world::fixtures
