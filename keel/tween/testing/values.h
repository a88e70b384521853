// Test helper (not installed): small value types with `+` and scalar `*`, as a game would have.
#pragma once

#include "keel/core/types.h"

#include <ostream>

namespace keel::tween::testing {

struct Vec2 {
  f32 x = 0.0f;
  f32 y = 0.0f;
  friend Vec2 operator+(Vec2 a, Vec2 b) { return {a.x + b.x, a.y + b.y}; }
  friend Vec2 operator*(Vec2 a, f32 s) { return {a.x * s, a.y * s}; }
  friend bool operator==(Vec2, Vec2) = default;
  friend std::ostream& operator<<(std::ostream& os, Vec2 v) {
    return os << "(" << v.x << ", " << v.y << ")";
  }
};

struct Vec3 {
  f32 x = 0.0f;
  f32 y = 0.0f;
  f32 z = 0.0f;
  friend Vec3 operator+(Vec3 a, Vec3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
  friend Vec3 operator*(Vec3 a, f32 s) { return {a.x * s, a.y * s, a.z * s}; }
  friend bool operator==(Vec3, Vec3) = default;
  friend std::ostream& operator<<(std::ostream& os, Vec3 v) {
    return os << "(" << v.x << ", " << v.y << ", " << v.z << ")";
  }
};

struct Color {
  f32 r = 0.0f;
  f32 g = 0.0f;
  f32 b = 0.0f;
  f32 a = 1.0f;
  friend Color operator+(Color p, Color q) { return {p.r + q.r, p.g + q.g, p.b + q.b, p.a + q.a}; }
  friend Color operator*(Color c, f32 s) { return {c.r * s, c.g * s, c.b * s, c.a * s}; }
  friend bool operator==(Color, Color) = default;
  friend std::ostream& operator<<(std::ostream& os, Color c) {
    return os << "rgba(" << c.r << ", " << c.g << ", " << c.b << ", " << c.a << ")";
  }
};

}  // namespace keel::tween::testing
