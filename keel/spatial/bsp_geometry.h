// Geometry of the BSP trees (Golden Rules ch. 2.7): vectors, planes, triangles, the five-way
// classification of a triangle against a plane, splitting a spanning triangle into 2 or 3, and the
// exact segment- and moving-sphere-versus-triangle tests that both the tree queries and their
// brute-force references use.
#pragma once

#include "keel/core/types.h"

#include <array>
#include <cmath>
#include <optional>
#include <span>

namespace keel::spatial {

struct Vec3 {
  float x = 0, y = 0, z = 0;

  friend Vec3 operator+(Vec3 a, Vec3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
  friend Vec3 operator-(Vec3 a, Vec3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
  friend Vec3 operator*(Vec3 a, float s) { return {a.x * s, a.y * s, a.z * s}; }
  friend Vec3 operator*(float s, Vec3 a) { return a * s; }
  friend bool operator==(Vec3 a, Vec3 b) = default;
};

inline float dot(Vec3 a, Vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
inline Vec3 cross(Vec3 a, Vec3 b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
inline float length(Vec3 a) { return std::sqrt(dot(a, a)); }
inline Vec3 lerp(Vec3 a, Vec3 b, float t) { return a + (b - a) * t; }

// The points p with dot(normal, p) == d; `normal` is unit length. Positive distance is in front.
struct Plane {
  Vec3 normal;
  float d = 0;

  float distance(Vec3 p) const { return dot(normal, p) - d; }
};

struct Triangle {
  std::array<Vec3, 3> v;

  Vec3 centroid() const { return (v[0] + v[1] + v[2]) * (1.0f / 3.0f); }
  float area() const { return 0.5f * length(cross(v[1] - v[0], v[2] - v[0])); }
};

// The plane of a triangle (counter-clockwise winding faces the normal); nullopt when degenerate.
std::optional<Plane> plane_of(const Triangle& tri);

// The five outcomes of classifying a triangle against a plane (book, ch. 2.7).
enum class Side : u8 {
  kFront,             // every vertex in front or on the plane, at least one in front
  kBack,              // every vertex behind or on the plane, at least one behind
  kSpanning,          // vertices on both sides: the plane splits it
  kCoplanarSame,      // on the plane, facing the way of the normal
  kCoplanarOpposite,  // on the plane, facing the other way
};

// Vertices within `epsilon` of the plane count as on it. `tri_normal` is the triangle's own unit
// normal (only read for the coplanar facing).
Side classify(const Triangle& tri, Vec3 tri_normal, const Plane& plane, float epsilon);

// Splits a spanning triangle: 2 triangles when the plane passes through a vertex, 3 otherwise.
// Winding is preserved. Returns the number of pieces written to `front` and `back` each.
struct SplitResult {
  std::array<Triangle, 2> front;
  std::array<Triangle, 2> back;
  u32 front_count = 0;
  u32 back_count = 0;
};
SplitResult split(const Triangle& tri, const Plane& plane, float epsilon);

// First contact of the segment a + t(b - a), t in [0, 1], with the (two-sided) triangle.
std::optional<float> segment_triangle(Vec3 a, Vec3 b, const Triangle& tri);

// First contact of a sphere of radius r whose centre moves from a to b, t in [0, 1], with the
// triangle (faces, edges and corners); 0 when it touches the triangle at the start.
std::optional<float> sphere_sweep_triangle(Vec3 a, Vec3 b, float radius, const Triangle& tri);

// The point of the triangle closest to p (Ericson, Real-Time Collision Detection 5.1.5).
Vec3 closest_point(const Triangle& tri, Vec3 p);

// The earliest hit over all triangles by brute force: the reference for the tree queries.
struct BruteHit {
  float t = 0;
  u32 index = 0;  // into the triangle span
};
std::optional<BruteHit> brute_segment(std::span<const Triangle> tris, Vec3 a, Vec3 b);
std::optional<BruteHit> brute_sphere(std::span<const Triangle> tris, Vec3 a, Vec3 b, float radius);

}  // namespace keel::spatial
