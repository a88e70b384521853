// A counter of discrete events, for triggers fed by an event source rather than a variable:
// the platform layer raises a Signal per key press (from its event loop), and a trigger made
// with TriggerSystem::on_signal fires on the next tick, so a press and release that both
// happen between two frames are never lost the way polling a "key down" flag would lose them.
#pragma once

#include "keel/core/types.h"

namespace keel::tween {

class Signal {
 public:
  void raise() { ++count_; }
  // Raises since creation; a trigger compares it with the count it saw on its previous tick.
  u64 count() const { return count_; }

 private:
  u64 count_ = 0;
};

}  // namespace keel::tween
