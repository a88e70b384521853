// Easing curves: the standard set (Penner's functions as listed on easings.net) mapping progress
// t in [0, 1] to a blend weight. Every curve maps 0 to exactly 0 and 1 to exactly 1, so a tween
// always ends exactly on its end value; back and elastic overshoot in between by design.
//
//   f32 w = keel::tween::ease(Ease::kOutBack, 0.3f);       // runtime choice
//   f32 w = keel::tween::ease_at<Ease::kOutBack>(0.3f);    // compile-time choice (inlined)
//
// In / Out / InOut: Out(t) = 1 - In(1 - t) (the curve played backwards in time); InOut runs In over
// the first half and Out over the second. mirror(e) is the curve that plays e backwards in time
// (In <-> Out; linear and InOut curves are their own mirror), used by ping-pong loops.
#pragma once

#include "keel/core/types.h"

#include <cmath>
#include <numbers>
#include <string_view>

namespace keel::tween {

enum class Ease : u8 {
  kLinear,
  kInQuad,
  kOutQuad,
  kInOutQuad,
  kInCubic,
  kOutCubic,
  kInOutCubic,
  kInQuart,
  kOutQuart,
  kInOutQuart,
  kInQuint,
  kOutQuint,
  kInOutQuint,
  kInSine,
  kOutSine,
  kInOutSine,
  kInExpo,
  kOutExpo,
  kInOutExpo,
  kInCirc,
  kOutCirc,
  kInOutCirc,
  kInBack,
  kOutBack,
  kInOutBack,
  kInElastic,
  kOutElastic,
  kInOutElastic,
  kInBounce,
  kOutBounce,
  kInOutBounce,
};
inline constexpr usize kEaseCount = 31;

// "linear", "in_quad", "out_quad", "in_out_quad", ...
std::string_view ease_name(Ease e);
// The curve that plays `e` backwards in time: 1 - e(1 - t).
constexpr Ease mirror(Ease e) {
  if (e == Ease::kLinear) return e;
  const u8 v = static_cast<u8>(e);
  switch ((v - 1) % 3) {
    case 0: return static_cast<Ease>(v + 1);  // In -> Out
    case 1: return static_cast<Ease>(v - 1);  // Out -> In
    default: return e;                        // InOut
  }
}

namespace detail {

// The "In" curve of each family; Out and InOut are derived from it.
enum class Family : u8 {
  kQuad,
  kCubic,
  kQuart,
  kQuint,
  kSine,
  kExpo,
  kCirc,
  kBack,
  kElastic,
  kBounce
};

inline constexpr f32 kBack1 = 1.70158f;
inline constexpr f32 kBack3 = kBack1 + 1.0f;
inline constexpr f32 kBackInOut = kBack1 * 1.525f;
inline constexpr f32 kElastic = 2.0f * std::numbers::pi_v<f32> / 3.0f;
inline constexpr f32 kElasticInOut = 2.0f * std::numbers::pi_v<f32> / 4.5f;

inline f32 bounce_out(f32 t) {
  constexpr f32 n = 7.5625f;
  constexpr f32 d = 2.75f;
  if (t < 1.0f / d) return n * t * t;
  if (t < 2.0f / d) {
    t -= 1.5f / d;
    return n * t * t + 0.75f;
  }
  if (t < 2.5f / d) {
    t -= 2.25f / d;
    return n * t * t + 0.9375f;
  }
  t -= 2.625f / d;
  return n * t * t + 0.984375f;
}

template <Family F>
inline f32 in(f32 t) {
  if constexpr (F == Family::kQuad) {
    return t * t;
  } else if constexpr (F == Family::kCubic) {
    return t * t * t;
  } else if constexpr (F == Family::kQuart) {
    const f32 t2 = t * t;
    return t2 * t2;
  } else if constexpr (F == Family::kQuint) {
    const f32 t2 = t * t;
    return t2 * t2 * t;
  } else if constexpr (F == Family::kSine) {
    return 1.0f - std::cos(t * (std::numbers::pi_v<f32> / 2.0f));
  } else if constexpr (F == Family::kExpo) {
    return t <= 0.0f ? 0.0f : std::exp2(10.0f * t - 10.0f);
  } else if constexpr (F == Family::kCirc) {
    return 1.0f - std::sqrt(1.0f - t * t);
  } else if constexpr (F == Family::kBack) {
    return kBack3 * t * t * t - kBack1 * t * t;
  } else if constexpr (F == Family::kElastic) {
    return -std::exp2(10.0f * t - 10.0f) * std::sin((10.0f * t - 10.75f) * kElastic);
  } else {
    return 1.0f - bounce_out(1.0f - t);
  }
}

// Polynomials are exact at 0 and 1 by construction; the others are pinned there.
template <Family F>
inline constexpr bool kNeedsPinning =
    F != Family::kQuad&& F != Family::kCubic&& F != Family::kQuart&& F != Family::kQuint;

template <Family F>
inline f32 in_out(f32 t) {
  if constexpr (F == Family::kBack) {  // the standard set uses a larger overshoot here
    constexpr f32 c = kBackInOut;
    if (t < 0.5f) {
      const f32 u = 2.0f * t;
      return u * u * ((c + 1.0f) * u - c) / 2.0f;
    }
    const f32 u = 2.0f * t - 2.0f;
    return (u * u * ((c + 1.0f) * u + c) + 2.0f) / 2.0f;
  } else if constexpr (F == Family::kElastic) {  // and a longer period here
    const f32 amp = std::sin((20.0f * t - 11.125f) * kElasticInOut);
    if (t < 0.5f) return -(std::exp2(20.0f * t - 10.0f) * amp) / 2.0f;
    return std::exp2(-20.0f * t + 10.0f) * amp / 2.0f + 1.0f;
  } else {
    if (t < 0.5f) return in<F>(2.0f * t) / 2.0f;
    return 1.0f - in<F>(2.0f - 2.0f * t) / 2.0f;
  }
}

// kind: 0 In, 1 Out, 2 InOut.
template <Family F, int kKind>
inline f32 curve(f32 t) {
  if constexpr (kNeedsPinning<F>) {
    if (t <= 0.0f) return 0.0f;
    if (t >= 1.0f) return 1.0f;
  }
  if constexpr (kKind == 0) {
    return in<F>(t);
  } else if constexpr (kKind == 1) {
    return 1.0f - in<F>(1.0f - t);
  } else {
    return in_out<F>(t);
  }
}

}  // namespace detail

// The curve `E` at progress t (t is expected in [0, 1]). Inlined; no dispatch.
template <Ease E>
inline f32 ease_at(f32 t) {
  if constexpr (E == Ease::kLinear) {
    return t;
  } else {
    constexpr u8 v = static_cast<u8>(E) - 1;
    return detail::curve<static_cast<detail::Family>(v / 3), v % 3>(t);
  }
}

// The curve `e` at progress t (one indirect call through a table of the inlined curves).
f32 ease(Ease e, f32 t);

}  // namespace keel::tween
