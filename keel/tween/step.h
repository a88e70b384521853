// A step of a sequence or parallel group: an interpolator (or wait, call, nested group) described
// now and started when the group reaches it. Make steps with the helpers in steps.h.
#pragma once

#include "keel/core/types.h"
#include "keel/tween/handle.h"

#include <functional>
#include <utility>
#include <vector>

namespace keel::tween {

class TweenSystem;

namespace detail {
// How a group starts one of its steps.
struct Spawn {
  TweenHandle parent{};  // the group
  f32 carry = 0.0f;      // seconds already elapsed (the previous step's overshoot)
  bool paused = false;   // the group is paused: start paused
};
}  // namespace detail

class Step {
 public:
  // Starts the step; returns its handle, or a null handle for a step that completes at once
  // (a call).
  using Start = std::function<TweenHandle(TweenSystem&, const detail::Spawn&)>;

  // `targets`: the addresses the step (and any steps nested in it) will write, so that
  // TweenSystem::kill_targets_in can cancel a group before it reaches a step on a dead object.
  Step(Start start, std::vector<const void*> targets)
      : start_(std::move(start)), targets_(std::move(targets)) {}

  TweenHandle start(TweenSystem& system, const detail::Spawn& spawn) const {
    return start_(system, spawn);
  }
  const std::vector<const void*>& targets() const { return targets_; }

 private:
  Start start_;
  std::vector<const void*> targets_;
};

}  // namespace keel::tween
