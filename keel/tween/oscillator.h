// The sine-wave interpolator: not time-based (it never ends by itself), it drives its target with
//   value(t) = center + amplitude * sin(2*pi*frequency*t + phase)
// until killed. Any Tweenable type: amplitude and center are values of the target's type.
#pragma once

#include "keel/core/types.h"
#include "keel/tween/value.h"

namespace keel::tween {

template <Tweenable T>
struct Oscillation {
  T amplitude{};
  f32 frequency = 1.0f;  // cycles per second (>= 0)
  f32 phase = 0.0f;      // radians
  T center{};
};

}  // namespace keel::tween
