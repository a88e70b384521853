// What can be interpolated, and the interpolation formulas (Bernstein / binomial blends).
//
// Any type with `a + b` and `a * f32` works: floats, doubles, 2-D/3-D vectors, colours.
// With b = progress in [0, 1] and a = 1 - b, n control values P0..P(n-1) blend as
//   sum over r of C(n-1, r) * a^(n-1-r) * b^r * Pr
// which for n = 2, 3, 4 is the seed's linear, quadratic and cubic interpolator:
//   P0*a + P1*b,   P0*a^2 + P1*2ab + P2*b^2,   P0*a^3 + P1*3a^2b + P2*3ab^2 + P3*b^3.
// At b = 0 the result is exactly P0 and at b = 1 exactly P(n-1) (the other weights are 0).
#pragma once

#include "keel/core/assert.h"
#include "keel/core/types.h"

#include <cmath>
#include <concepts>
#include <span>

namespace keel::tween {

// Default-constructible and copyable too (rows store control values by value).
template <typename T>
concept Tweenable = std::copyable<T> && std::default_initializable<T> &&
    requires(const T& x, const T& y, f32 s) {
  { x + y } -> std::convertible_to<T>;
  { x* s } -> std::convertible_to<T>;
};

// clamp(x, 0, 1), with NaN (0/0 from a zero-length tween) mapping to 1: a tween with no duration
// is at its end.
inline f32 clamp01(f32 x) {
  x = x < 1.0f ? x : 1.0f;
  return x > 0.0f ? x : (x == x ? 0.0f : 1.0f);
}

template <Tweenable T>
inline T lerp(const T& p0, const T& p1, f32 b) {
  return static_cast<T>(static_cast<T>(p0 * (1.0f - b)) + static_cast<T>(p1 * b));
}

// The Bernstein blend of `controls` (at least one) at progress b in [0, 1].
template <Tweenable T>
T bernstein(std::span<const T> controls, f32 b) {
  KEEL_ASSERT(!controls.empty(), "bernstein() needs at least one control value");
  const f32 a = 1.0f - b;
  switch (controls.size()) {
    case 1: return controls[0];
    case 2: return lerp(controls[0], controls[1], b);
    case 3:
      return static_cast<T>(static_cast<T>(static_cast<T>(controls[0] * (a * a)) +
                                           static_cast<T>(controls[1] * (2.0f * a * b))) +
                            static_cast<T>(controls[2] * (b * b)));
    case 4:
      return static_cast<T>(
          static_cast<T>(static_cast<T>(static_cast<T>(controls[0] * (a * a * a)) +
                                        static_cast<T>(controls[1] * (3.0f * a * a * b))) +
                         static_cast<T>(controls[2] * (3.0f * a * b * b))) +
          static_cast<T>(controls[3] * (b * b * b)));
    default: break;
  }
  // General degree n - 1: weights C(n-1, r) a^(n-1-r) b^r. The binomial coefficient is built up
  // term by term in f64 (exact integers for any practical degree).
  const usize degree = controls.size() - 1;
  f64 binomial = 1.0;  // C(degree, r)
  T sum = static_cast<T>(controls[0] * std::pow(a, static_cast<f32>(degree)));
  for (usize r = 1; r <= degree; ++r) {
    binomial = binomial * static_cast<f64>(degree - r + 1) / static_cast<f64>(r);
    const f32 w = static_cast<f32>(binomial) * std::pow(a, static_cast<f32>(degree - r)) *
                  std::pow(b, static_cast<f32>(r));
    sum = static_cast<T>(sum + static_cast<T>(controls[r] * w));
  }
  return sum;
}

}  // namespace keel::tween
