// Scenes for the BSP tests, the fuzz seed and the benchmark (not installed).
#pragma once

#include "keel/spatial/bsp.h"

#include <cmath>
#include <numbers>
#include <random>
#include <vector>

namespace keel::spatial::testing {

// Two triangles covering the quad a, b, c, d (counter-clockwise seen from the front).
inline void add_quad(std::vector<BspInputFace>& out, Vec3 a, Vec3 b, Vec3 c, Vec3 d,
                     bool dummy = false) {
  const u32 id = static_cast<u32>(out.size());
  out.push_back({Triangle{{a, b, c}}, dummy, id});
  out.push_back({Triangle{{a, c, d}}, dummy, id + 1});
}

// The walls x = 1, 2, 3 (normals +x) spanning y, z in [-10, 10] (checks C2-15, C2-16).
inline std::vector<BspInputFace> three_walls() {
  std::vector<BspInputFace> out;
  for (float x : {1.0f, 2.0f, 3.0f}) {
    add_quad(out, {x, -10, -10}, {x, 10, -10}, {x, 10, 10}, {x, -10, 10});
  }
  return out;
}

// An axis-aligned box with outward normals: 12 triangles in 6 planes.
inline std::vector<BspInputFace> box(Vec3 lo, Vec3 hi) {
  std::vector<BspInputFace> out;
  const Vec3 p[8] = {{lo.x, lo.y, lo.z}, {hi.x, lo.y, lo.z}, {hi.x, hi.y, lo.z},
                     {lo.x, hi.y, lo.z}, {lo.x, lo.y, hi.z}, {hi.x, lo.y, hi.z},
                     {hi.x, hi.y, hi.z}, {lo.x, hi.y, hi.z}};
  add_quad(out, p[0], p[3], p[2], p[1]);  // -z
  add_quad(out, p[4], p[5], p[6], p[7]);  // +z
  add_quad(out, p[0], p[1], p[5], p[4]);  // -y
  add_quad(out, p[3], p[7], p[6], p[2]);  // +y
  add_quad(out, p[0], p[4], p[7], p[3]);  // -x
  add_quad(out, p[1], p[2], p[6], p[5]);  // +x
  return out;
}

// A convex UV sphere: `slices` around, `stacks` from pole to pole, outward normals; caps are
// triangles, the other bands quads (two coplanar triangles each).
inline std::vector<BspInputFace> uv_sphere(u32 slices, u32 stacks, float radius) {
  std::vector<BspInputFace> out;
  auto at = [&](u32 i, u32 j) {
    const double theta = std::numbers::pi * j / stacks;
    const double phi = 2 * std::numbers::pi * i / slices;
    return Vec3{static_cast<float>(radius * std::sin(theta) * std::cos(phi)),
                static_cast<float>(radius * std::cos(theta)),
                static_cast<float>(radius * std::sin(theta) * std::sin(phi))};
  };
  for (u32 j = 0; j < stacks; ++j) {
    for (u32 i = 0; i < slices; ++i) {
      const Vec3 a = at(i, j), b = at(i + 1, j), c = at(i + 1, j + 1), d = at(i, j + 1);
      const u32 id = static_cast<u32>(out.size());
      if (j == 0) {
        out.push_back({Triangle{{a, c, d}}, false, id});
      } else if (j + 1 == stacks) {
        out.push_back({Triangle{{a, b, d}}, false, id});
      } else {
        out.push_back({Triangle{{a, b, c}}, false, id});
        out.push_back({Triangle{{a, c, d}}, false, id + 1});
      }
    }
  }
  return out;
}

// `count` random triangles of size about `size` in the cube [-extent, extent]^3.
inline std::vector<BspInputFace> random_scene(u32 count, float extent, float size, u32 seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> pos(-extent, extent);
  std::uniform_real_distribution<float> off(-size, size);
  std::vector<BspInputFace> out;
  out.reserve(count);
  for (u32 i = 0; i < count; ++i) {
    const Vec3 c{pos(rng), pos(rng), pos(rng)};
    Triangle tri;
    for (Vec3& v : tri.v) v = c + Vec3{off(rng), off(rng), off(rng)};
    out.push_back({tri, false, i});
  }
  return out;
}

inline std::vector<Triangle> triangles_of(const std::vector<BspInputFace>& faces) {
  std::vector<Triangle> out;
  for (const BspInputFace& f : faces) {
    if (!f.dummy) out.push_back(f.tri);
  }
  return out;
}

}  // namespace keel::spatial::testing
