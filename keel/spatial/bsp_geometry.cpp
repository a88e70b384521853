#include "keel/spatial/bsp_geometry.h"

#include <algorithm>

namespace keel::spatial {
namespace {

// The exact tests run in double: the tree and the brute-force reference call the same functions,
// and double keeps split pieces' seams from opening.
struct D3 {
  double x = 0, y = 0, z = 0;
};
D3 d3(Vec3 v) { return {v.x, v.y, v.z}; }
D3 sub(D3 a, D3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
D3 add(D3 a, D3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
D3 mul(D3 a, double s) { return {a.x * s, a.y * s, a.z * s}; }
double ddot(D3 a, D3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
D3 dcross(D3 a, D3 b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

// Smallest root in [0, 1] of a t^2 + 2 b t + c = 0 when entering (c > 0 means outside at t = 0).
std::optional<double> entering_root(double a, double b, double c) {
  if (a <= 1e-18) return std::nullopt;
  const double disc = b * b - a * c;
  if (disc < 0) return std::nullopt;
  const double t = (-b - std::sqrt(disc)) / a;
  if (t < 0 || t > 1) return std::nullopt;
  return t;
}

bool inside_triangle(D3 p, D3 a, D3 b, D3 c, D3 n) {
  const double e0 = ddot(dcross(sub(b, a), sub(p, a)), n);
  const double e1 = ddot(dcross(sub(c, b), sub(p, b)), n);
  const double e2 = ddot(dcross(sub(a, c), sub(p, c)), n);
  return (e0 >= 0 && e1 >= 0 && e2 >= 0) || (e0 <= 0 && e1 <= 0 && e2 <= 0);
}

}  // namespace

std::optional<Plane> plane_of(const Triangle& tri) {
  const Vec3 n = cross(tri.v[1] - tri.v[0], tri.v[2] - tri.v[0]);
  const float len = length(n);
  if (!(len > 1e-12f) || !std::isfinite(len)) return std::nullopt;
  const Vec3 unit = n * (1.0f / len);
  return Plane{unit, dot(unit, tri.centroid())};
}

Side classify(const Triangle& tri, Vec3 tri_normal, const Plane& plane, float epsilon) {
  bool front = false;
  bool back = false;
  for (const Vec3& v : tri.v) {
    const float d = plane.distance(v);
    front |= d > epsilon;
    back |= d < -epsilon;
  }
  if (front && back) return Side::kSpanning;
  if (front) return Side::kFront;
  if (back) return Side::kBack;
  return dot(tri_normal, plane.normal) >= 0 ? Side::kCoplanarSame : Side::kCoplanarOpposite;
}

SplitResult split(const Triangle& tri, const Plane& plane, float epsilon) {
  // Sutherland-Hodgman on one triangle: vertices on the plane go to both polygons, each crossing
  // edge adds its crossing point to both. A polygon has 3 or 4 corners; fans make 1 or 2 pieces.
  std::array<Vec3, 4> front_poly{};
  std::array<Vec3, 4> back_poly{};
  u32 nf = 0;
  u32 nb = 0;
  std::array<float, 3> d{};
  for (u32 i = 0; i < 3; ++i) d[i] = plane.distance(tri.v[i]);
  for (u32 i = 0; i < 3; ++i) {
    const u32 j = (i + 1) % 3;
    const int si = d[i] > epsilon ? 1 : (d[i] < -epsilon ? -1 : 0);
    const int sj = d[j] > epsilon ? 1 : (d[j] < -epsilon ? -1 : 0);
    if (si >= 0 && nf < 4) front_poly[nf++] = tri.v[i];
    if (si <= 0 && nb < 4) back_poly[nb++] = tri.v[i];
    if (si * sj < 0) {
      const Vec3 p = lerp(tri.v[i], tri.v[j], d[i] / (d[i] - d[j]));
      if (nf < 4) front_poly[nf++] = p;
      if (nb < 4) back_poly[nb++] = p;
    }
  }
  SplitResult out;
  for (u32 k = 2; k < nf && out.front_count < 2; ++k) {
    out.front[out.front_count++] = Triangle{{front_poly[0], front_poly[k - 1], front_poly[k]}};
  }
  for (u32 k = 2; k < nb && out.back_count < 2; ++k) {
    out.back[out.back_count++] = Triangle{{back_poly[0], back_poly[k - 1], back_poly[k]}};
  }
  return out;
}

std::optional<float> segment_triangle(Vec3 a, Vec3 b, const Triangle& tri) {
  // Moller-Trumbore, two-sided.
  const D3 o = d3(a);
  const D3 dir = sub(d3(b), o);
  const D3 v0 = d3(tri.v[0]);
  const D3 e1 = sub(d3(tri.v[1]), v0);
  const D3 e2 = sub(d3(tri.v[2]), v0);
  const D3 p = dcross(dir, e2);
  const double det = ddot(e1, p);
  if (std::abs(det) < 1e-20) return std::nullopt;
  const double inv = 1.0 / det;
  const D3 s = sub(o, v0);
  const double u = ddot(s, p) * inv;
  if (u < 0 || u > 1) return std::nullopt;
  const D3 q = dcross(s, e1);
  const double v = ddot(dir, q) * inv;
  if (v < 0 || u + v > 1) return std::nullopt;
  const double t = ddot(e2, q) * inv;
  if (t < 0 || t > 1) return std::nullopt;
  return static_cast<float>(t);
}

Vec3 closest_point(const Triangle& tri, Vec3 p) {
  const Vec3 a = tri.v[0], b = tri.v[1], c = tri.v[2];
  const Vec3 ab = b - a, ac = c - a, ap = p - a;
  const float d1 = dot(ab, ap), d2 = dot(ac, ap);
  if (d1 <= 0 && d2 <= 0) return a;
  const Vec3 bp = p - b;
  const float d3v = dot(ab, bp), d4 = dot(ac, bp);
  if (d3v >= 0 && d4 <= d3v) return b;
  const float vc = d1 * d4 - d3v * d2;
  if (vc <= 0 && d1 >= 0 && d3v <= 0) return a + ab * (d1 / (d1 - d3v));
  const Vec3 cp = p - c;
  const float d5 = dot(ab, cp), d6 = dot(ac, cp);
  if (d6 >= 0 && d5 <= d6) return c;
  const float vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) return a + ac * (d2 / (d2 - d6));
  const float va = d3v * d6 - d5 * d4;
  if (va <= 0 && (d4 - d3v) >= 0 && (d5 - d6) >= 0) {
    return b + (c - b) * ((d4 - d3v) / ((d4 - d3v) + (d5 - d6)));
  }
  const float denom = va + vb + vc;
  if (!(std::abs(denom) > 0)) return a;
  const float v = vb / denom, w = vc / denom;
  return a + ab * v + ac * w;
}

std::optional<float> sphere_sweep_triangle(Vec3 a, Vec3 b, float radius, const Triangle& tri) {
  const Vec3 start_gap = a - closest_point(tri, a);
  if (dot(start_gap, start_gap) <= radius * radius) return 0.0f;
  const D3 o = d3(a);
  const D3 v = sub(d3(b), o);
  const double r = radius;
  const std::array<D3, 3> p{d3(tri.v[0]), d3(tri.v[1]), d3(tri.v[2])};
  std::optional<double> best;
  auto keep = [&best](std::optional<double> t) {
    if (t && (!best || *t < *best)) best = t;
  };
  // The face: the centre reaches distance r from the plane inside the triangle.
  D3 n = dcross(sub(p[1], p[0]), sub(p[2], p[0]));
  const double nlen = std::sqrt(ddot(n, n));
  if (nlen > 1e-20) {
    n = mul(n, 1.0 / nlen);
    const double dist0 = ddot(n, sub(o, p[0]));
    const double speed = ddot(n, v);
    const double side = dist0 >= 0 ? 1.0 : -1.0;
    if (speed * side < 0) {
      const double t = (side * r - dist0) / speed;
      if (t >= 0 && t <= 1) {
        const D3 contact = sub(add(o, mul(v, t)), mul(n, side * r));
        if (inside_triangle(contact, p[0], p[1], p[2], n)) keep(t);
      }
    }
  }
  // The edges (cylinders, within the edge) and the corners (spheres).
  const double vv = ddot(v, v);
  for (u32 i = 0; i < 3; ++i) {
    const D3 e = sub(p[(i + 1) % 3], p[i]);
    const D3 m = sub(o, p[i]);
    const double ee = ddot(e, e);
    const double me = ddot(m, e);
    const double ve = ddot(v, e);
    if (const auto t = entering_root(vv * ee - ve * ve, ee * ddot(m, v) - me * ve,
                                     ee * (ddot(m, m) - r * r) - me * me)) {
      const double s = (me + *t * ve) / ee;
      if (s >= 0 && s <= 1) keep(t);
    }
    keep(entering_root(vv, ddot(m, v), ddot(m, m) - r * r));
  }
  if (!best) return std::nullopt;
  return static_cast<float>(*best);
}

std::optional<BruteHit> brute_segment(std::span<const Triangle> tris, Vec3 a, Vec3 b) {
  std::optional<BruteHit> best;
  for (u32 i = 0; i < tris.size(); ++i) {
    const auto t = segment_triangle(a, b, tris[i]);
    if (t && (!best || *t < best->t)) best = BruteHit{*t, i};
  }
  return best;
}

std::optional<BruteHit> brute_sphere(std::span<const Triangle> tris, Vec3 a, Vec3 b, float radius) {
  std::optional<BruteHit> best;
  for (u32 i = 0; i < tris.size(); ++i) {
    const auto t = sphere_sweep_triangle(a, b, radius, tris[i]);
    if (t && (!best || *t < best->t)) best = BruteHit{*t, i};
  }
  return best;
}

}  // namespace keel::spatial
