// What the player presses in one frame: the whole input of the simulation. A person's keys and
// pad (main.cpp maps Input actions to it), a replay file (one per frame) or the autopilot make
// one; Sim::step consumes it.
#pragma once

#include "keel/core/types.h"

namespace keel::voidfarer {

struct Controls {
  bool thrust = false;
  bool reverse = false;
  bool left = false;
  bool right = false;
  bool fire = false;

  // One byte per frame for replay files: bit 0 thrust, 1 reverse, 2 left, 3 right, 4 fire.
  u8 bits() const {
    return static_cast<u8>((thrust ? 1 : 0) | (reverse ? 2 : 0) | (left ? 4 : 0) | (right ? 8 : 0) |
                           (fire ? 16 : 0));
  }
  static Controls from_bits(u8 b) {
    return {.thrust = (b & 1) != 0,
            .reverse = (b & 2) != 0,
            .left = (b & 4) != 0,
            .right = (b & 8) != 0,
            .fire = (b & 16) != 0};
  }
  friend bool operator==(const Controls&, const Controls&) = default;
};

}  // namespace keel::voidfarer
