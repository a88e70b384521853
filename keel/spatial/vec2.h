// keel::spatial::Vec2: the engine's one 2-D vector (f32), with the arithmetic the spatial queries,
// the world (steering, particles, physics) and the platform's renderer share.
#pragma once

#include "keel/core/types.h"

#include <cmath>

namespace keel::spatial {

struct Vec2 {
  f32 x = 0;
  f32 y = 0;

  constexpr Vec2& operator+=(Vec2 o) {
    x += o.x;
    y += o.y;
    return *this;
  }
  constexpr Vec2& operator-=(Vec2 o) {
    x -= o.x;
    y -= o.y;
    return *this;
  }
  constexpr Vec2& operator*=(f32 s) {
    x *= s;
    y *= s;
    return *this;
  }
  friend constexpr bool operator==(Vec2, Vec2) = default;
};

constexpr Vec2 operator+(Vec2 a, Vec2 b) { return {a.x + b.x, a.y + b.y}; }
constexpr Vec2 operator-(Vec2 a, Vec2 b) { return {a.x - b.x, a.y - b.y}; }
constexpr Vec2 operator-(Vec2 a) { return {-a.x, -a.y}; }
constexpr Vec2 operator*(Vec2 a, f32 s) { return {a.x * s, a.y * s}; }
constexpr Vec2 operator*(f32 s, Vec2 a) { return {a.x * s, a.y * s}; }
constexpr Vec2 operator/(Vec2 a, f32 s) { return {a.x / s, a.y / s}; }

constexpr f32 dot(Vec2 a, Vec2 b) { return a.x * b.x + a.y * b.y; }
// The z of the 3-D cross product: > 0 when b is counter-clockwise of a.
constexpr f32 cross(Vec2 a, Vec2 b) { return a.x * b.y - a.y * b.x; }
constexpr f32 length_squared(Vec2 a) { return dot(a, a); }
inline f32 length(Vec2 a) { return std::sqrt(dot(a, a)); }
constexpr f32 distance_squared(Vec2 a, Vec2 b) { return length_squared(a - b); }
inline f32 distance(Vec2 a, Vec2 b) { return length(a - b); }
// a / |a|, or the zero vector for a (near-)zero a: never NaN.
inline Vec2 normalized(Vec2 a) {
  const f32 len = length(a);
  return len > 1e-20f ? a / len : Vec2{};
}
// a with its length clamped to at most max_length (>= 0).
inline Vec2 clamp_length(Vec2 a, f32 max_length) {
  const f32 len_sq = length_squared(a);
  if (len_sq <= max_length * max_length || len_sq == 0) return a;
  return a * (max_length / std::sqrt(len_sq));
}
// a turned 90 degrees counter-clockwise.
constexpr Vec2 perp(Vec2 a) { return {-a.y, a.x}; }
// a turned by `radians` counter-clockwise.
inline Vec2 rotated(Vec2 a, f32 radians) {
  const f32 c = std::cos(radians);
  const f32 s = std::sin(radians);
  return {a.x * c - a.y * s, a.x * s + a.y * c};
}
// The unit vector at `radians` from the x axis, and the angle of a vector (atan2, in (-pi, pi]).
inline Vec2 from_angle(f32 radians) { return {std::cos(radians), std::sin(radians)}; }
inline f32 angle_of(Vec2 a) { return std::atan2(a.y, a.x); }

}  // namespace keel::spatial
