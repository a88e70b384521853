// Options shared by every interpolator kind (designated initializers read well at call sites):
//   tweens.tween(alpha, 0.5f, 1.0f, 0.0f, {.ease = Ease::kOutQuad, .on_complete = hide});
#pragma once

#include "keel/core/hash.h"
#include "keel/core/types.h"
#include "keel/tween/easing.h"

#include <functional>

namespace keel::tween {

inline constexpr s32 kForever = -1;

struct TweenOptions {
  // Curve applied to progress (time-based kinds; ignored by oscillators, timers and groups).
  Ease ease = Ease::kLinear;
  // Seconds before the first play starts; the target is not written until then.
  f32 delay = 0.0f;
  // Plays in total (>= 1), or kForever. Time past the end of one play carries into the next.
  s32 loops = 1;
  // Every other play runs backwards in time (there and back). Not for groups.
  bool ping_pong = false;
  // Optional id for TweenSystem::find / kill_id; zero means none. Ids need not be unique.
  StringId id{};
  // Created paused (resume() starts it).
  bool paused = false;
  // Called once when the interpolator or group ends by itself after its last play (never when
  // killed). It runs inside TweenSystem::update, after the frame's pass, and may start, kill,
  // pause or reset any tween, this system's included.
  std::function<void()> on_complete{};
};

}  // namespace keel::tween
