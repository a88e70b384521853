// Steps for TweenSystem::sequence and TweenSystem::parallel:
//
// clang-format off
//   using namespace keel::tween;
//   tweens.sequence({
//       steps::tween(x, 0.5f, 0.0f, 10.0f, {.ease = Ease::kOutQuad}),
//       steps::wait(0.25f),
//       steps::parallel({steps::tween(alpha, 1.0f, 1.0f, 0.0f),
//                        steps::cubic(y, 1.0f, 0, 4, 6, 0)}),
//       steps::call([&] { sound.play(); }),
//   }, {.loops = 3, .on_complete = [&] { done = true; }});
// clang-format on
//
// A step's options work as for a lone tween (its on_complete runs when that step ends; its id
// lets kill_id skip it: the group then goes on with the next step). Time carries over exactly:
// when a step ends part-way through a frame, the next one starts with the rest of that frame.
// Oscillators never end, so they are not steps.
#pragma once

#include "keel/tween/step.h"
#include "keel/tween/tween_system.h"

#include <functional>
#include <memory>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

namespace keel::tween {

namespace detail {
struct StepAccess {
  template <Tweenable T>
  static TweenHandle tween(TweenSystem& s, T& target, f32 duration, const T& from, const T& to,
                           const TweenOptions& options, const Spawn& spawn) {
    return s.spawn_tween<T>(target, duration, from, to, options, spawn);
  }
  template <Tweenable T>
  static TweenHandle curve(TweenSystem& s, T& target, f32 duration, std::span<const T> controls,
                           const TweenOptions& options, const Spawn& spawn) {
    return s.spawn_curve<T>(target, duration, controls, options, spawn);
  }
  static TweenHandle timer(TweenSystem& s, f32 seconds, const Spawn& spawn) {
    return s.spawn_timer(seconds, {}, spawn);
  }
  static TweenHandle group(TweenSystem& s, const std::shared_ptr<const std::vector<Step>>& steps,
                           bool sequence, const TweenOptions& options, const Spawn& spawn) {
    return s.spawn_group(steps, sequence, options, spawn);
  }
};

std::vector<const void*> targets_of(const std::vector<Step>& steps);
}  // namespace detail

namespace steps {

template <Tweenable T>
Step tween(T& target, f32 duration, std::type_identity_t<T> from, std::type_identity_t<T> to,
           TweenOptions options = {}) {
  return Step(
      [&target, duration, from = std::move(from), to = std::move(to), options = std::move(options)](
          TweenSystem& s, const detail::Spawn& spawn) {
        return detail::StepAccess::tween<T>(s, target, duration, from, to, options, spawn);
      },
      {&target});
}

// Any number of control values (the Bernstein blend): quadratic with 3, cubic with 4.
template <Tweenable T>
Step bernstein(T& target, f32 duration, std::vector<T> controls, TweenOptions options = {}) {
  KEEL_ASSERT(!controls.empty(), "a curve step needs control values");
  return Step(
      [&target, duration, controls = std::move(controls), options = std::move(options)](
          TweenSystem& s, const detail::Spawn& spawn) {
        return detail::StepAccess::curve<T>(s, target, duration, std::span<const T>(controls),
                                            options, spawn);
      },
      {&target});
}
template <Tweenable T>
Step quadratic(T& target, f32 duration, std::type_identity_t<T> start, std::type_identity_t<T> mid,
               std::type_identity_t<T> end, TweenOptions options = {}) {
  return bernstein<T>(target, duration, {std::move(start), std::move(mid), std::move(end)},
                      std::move(options));
}
template <Tweenable T>
Step cubic(T& target, f32 duration, std::type_identity_t<T> start, std::type_identity_t<T> mid1,
           std::type_identity_t<T> mid2, std::type_identity_t<T> end, TweenOptions options = {}) {
  return bernstein<T>(target, duration,
                      {std::move(start), std::move(mid1), std::move(mid2), std::move(end)},
                      std::move(options));
}

// Does nothing for `seconds`.
Step wait(f32 seconds);
// Calls fn and goes straight on (same frame, same carried time). fn may start or kill tweens,
// the group itself included.
Step call(std::function<void()> fn);
// Nested groups.
Step sequence(std::vector<Step> steps, TweenOptions options = {});
Step parallel(std::vector<Step> steps, TweenOptions options = {});

}  // namespace steps
}  // namespace keel::tween
