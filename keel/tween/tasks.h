// Kernel tasks that run a TweenSystem and a TriggerSystem every frame (the seed's interpolator
// updater and trigger task). Each task owns its system, so the system cannot be destroyed while
// the kernel still updates it:
//
//   auto tweens = kernel.create<keel::tween::TweenTask>();        // frame.dt drives the tweens
//   tweens->tweens().tween(alpha, 1.0f, 0.0f, 1.0f);
//   auto triggers = kernel.create<keel::tween::TriggerTask>();
//   triggers->triggers().less(health, 50, on_low_health);
//
// Suspending a task freezes everything in its system; stop() (removal, kernel shutdown) leaves
// the system's contents alone: a task removed and added again carries on where it was.
#pragma once

#include "keel/core/types.h"
#include "keel/kernel/frame.h"
#include "keel/kernel/task.h"
#include "keel/tween/trigger_system.h"
#include "keel/tween/tween_system.h"

#include <string>

namespace keel::tween {

class TweenTask final : public kernel::Task {
 public:
  explicit TweenTask(s32 priority = kDefaultPriority, std::string name = "tweens");
  // tweens().update(frame.dt): the frame's clamped delta time.
  void update(const kernel::Frame& frame) override;
  TweenSystem& tweens() { return tweens_; }
  const TweenSystem& tweens() const { return tweens_; }

 private:
  TweenSystem tweens_;
};

class TriggerTask final : public kernel::Task {
 public:
  explicit TriggerTask(s32 priority = kDefaultPriority, std::string name = "triggers");
  void update(const kernel::Frame& frame) override;
  TriggerSystem& triggers() { return triggers_; }
  const TriggerSystem& triggers() const { return triggers_; }

 private:
  TriggerSystem triggers_;
};

}  // namespace keel::tween
