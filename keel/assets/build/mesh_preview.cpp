// A mesh's triangles coloured by strip (or by draw for triangle lists), front orthographic view
// (x right, y up, looking down -z), through a small z-buffered rasteriser with flat shading.
#include "keel/assets/build/preview.h"
#include "keel/assets/build/strip.h"
#include "keel/assets/mesh.h"

#include <algorithm>
#include <cmath>

namespace keel::assets {

namespace {

constexpr u32 kSize = 512;
constexpr float kMargin = 16;

using P3 = std::array<float, 3>;

struct Canvas {
  Picture picture;
  std::vector<float> depth;
};

std::array<u8, 3> palette(u32 i) {
  // Golden-ratio hues: neighbouring strips get clearly different colours.
  const float h = std::fmod(static_cast<float>(i) * 0.618034f, 1.0f) * 6.0f;
  const float x = 1.0f - std::fabs(std::fmod(h, 2.0f) - 1.0f);
  std::array<float, 3> rgb{};
  switch (static_cast<int>(h)) {
    case 0: rgb = {1, x, 0}; break;
    case 1: rgb = {x, 1, 0}; break;
    case 2: rgb = {0, 1, x}; break;
    case 3: rgb = {0, x, 1}; break;
    case 4: rgb = {x, 0, 1}; break;
    default: rgb = {1, 0, x}; break;
  }
  return {static_cast<u8>(60 + 195 * rgb[0]), static_cast<u8>(60 + 195 * rgb[1]),
          static_cast<u8>(60 + 195 * rgb[2])};
}

void fill(Canvas& c, const std::array<P3, 3>& p, std::array<u8, 3> colour) {
  const float area =
      (p[1][0] - p[0][0]) * (p[2][1] - p[0][1]) - (p[2][0] - p[0][0]) * (p[1][1] - p[0][1]);
  if (std::fabs(area) < 1e-12f) return;
  const int x0 = std::max(0, static_cast<int>(std::floor(std::min({p[0][0], p[1][0], p[2][0]}))));
  const int x1 =
      std::min<int>(kSize - 1, static_cast<int>(std::ceil(std::max({p[0][0], p[1][0], p[2][0]}))));
  const int y0 = std::max(0, static_cast<int>(std::floor(std::min({p[0][1], p[1][1], p[2][1]}))));
  const int y1 =
      std::min<int>(kSize - 1, static_cast<int>(std::ceil(std::max({p[0][1], p[1][1], p[2][1]}))));
  for (int y = y0; y <= y1; ++y) {
    for (int x = x0; x <= x1; ++x) {
      const float px = static_cast<float>(x) + 0.5f, py = static_cast<float>(y) + 0.5f;
      std::array<float, 3> w{};
      for (u32 i = 0; i < 3; ++i) {
        const P3& a = p[(i + 1) % 3];
        const P3& b = p[(i + 2) % 3];
        w[i] = ((b[0] - a[0]) * (py - a[1]) - (b[1] - a[1]) * (px - a[0])) / area;
      }
      if (w[0] < 0 || w[1] < 0 || w[2] < 0) continue;
      const float z = w[0] * p[0][2] + w[1] * p[1][2] + w[2] * p[2][2];
      const usize at = static_cast<usize>(y) * kSize + static_cast<usize>(x);
      if (z < c.depth[at]) continue;
      c.depth[at] = z;
      // Darker near the triangle's edges, so triangles of one strip stay visible.
      const float edge = std::min({w[0], w[1], w[2]}) < 0.04f ? 0.7f : 1.0f;
      for (u32 k = 0; k < 3; ++k)
        c.picture.rgba[at * 4 + k] = static_cast<u8>(static_cast<float>(colour[k]) * edge);
      c.picture.rgba[at * 4 + 3] = 255;
    }
  }
}

std::array<u8, 3> shaded(std::array<u8, 3> colour, const std::array<P3, 3>& world) {
  const P3 u{world[1][0] - world[0][0], world[1][1] - world[0][1], world[1][2] - world[0][2]};
  const P3 v{world[2][0] - world[0][0], world[2][1] - world[0][1], world[2][2] - world[0][2]};
  const P3 n{u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
  const float len = std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
  const float light = len > 0 ? 0.45f + 0.55f * std::fabs(n[2] / len) : 1.0f;
  return {static_cast<u8>(colour[0] * light), static_cast<u8>(colour[1] * light),
          static_cast<u8>(colour[2] * light)};
}

// Triangles of a draw with the strip number each belongs to (a strip ends at degenerates).
void draw_triangles(const SubMesh& sub, const MeshDraw& d, u32& strip_number,
                    std::vector<std::pair<std::array<u32, 3>, u32>>& out) {
  std::vector<u32> run;
  for (u32 i = d.first_index; i < d.first_index + d.index_count; ++i) run.push_back(sub.index(i));
  if (sub.primitive == Primitive::kTriangleList) {
    for (usize i = 0; i + 2 < run.size(); i += 3)
      out.push_back({{run[i], run[i + 1], run[i + 2]}, strip_number});
    ++strip_number;
    return;
  }
  // Degenerates from a swap repeat one index once (..., q, q, r, ...); a stitch repeats at least
  // two (..., a, a, b, b, ...): only a stitch starts a new strip colour.
  const std::vector<Triangle> tris = decode_strip(run);
  bool in_strip = false;
  u32 repeats = 0;
  for (usize k = 0; k < tris.size(); ++k) {
    if (is_degenerate(tris[k])) {
      if (run[k + 1] == run[k + 2]) ++repeats;
      continue;
    }
    if (in_strip && repeats >= 2) ++strip_number;
    repeats = 0;
    in_strip = true;
    out.push_back({tris[k], strip_number});
  }
  if (in_strip) ++strip_number;
}

}  // namespace

Result<Picture> picture_of_mesh(const pack::PackFile& pack, std::string_view name) {
  const pack::PackItem* item = pack.find_item(name);
  if (item == nullptr) return fail(ErrorCode::kNotFound, "no asset '{}' in {}", name, pack.label());
  Result<ByteBuffer> bytes = pack.read_chunk(item->name_hash, item->primary);
  if (!bytes) return Unexpected(bytes.error());
  Result<Mesh> mesh = Mesh::parse(*bytes);
  if (!mesh)
    return fail(ErrorCode::kCorrupt, "'{}' is not a mesh: {}", name, mesh.error().to_string());
  struct Tri {
    std::array<P3, 3> p;
    u32 strip;
  };
  std::vector<Tri> tris;
  u32 strip_number = 0;
  P3 lo{1e30f, 1e30f, 1e30f}, hi{-1e30f, -1e30f, -1e30f};
  for (const SubMesh& sub : mesh->submeshes()) {
    std::vector<std::pair<std::array<u32, 3>, u32>> list;
    for (const MeshDraw& d : sub.draws) draw_triangles(sub, d, strip_number, list);
    for (const auto& [t, s] : list) {
      Tri tri{{}, s};
      for (u32 k = 0; k < 3; ++k) {
        const std::array<float, 4> p = sub.read(VertexSemantic::kPosition, t[k]);
        tri.p[k] = {p[0], p[1], p[2]};
        for (u32 a = 0; a < 3; ++a) {
          lo[a] = std::min(lo[a], p[a]);
          hi[a] = std::max(hi[a], p[a]);
        }
      }
      tris.push_back(tri);
    }
  }
  Canvas c;
  c.picture.width = kSize;
  c.picture.height = kSize;
  c.picture.rgba.assign(static_cast<usize>(kSize) * kSize * 4, 0);
  for (usize i = 0; i < c.picture.rgba.size(); i += 4) {
    c.picture.rgba[i] = c.picture.rgba[i + 1] = c.picture.rgba[i + 2] = 32;
    c.picture.rgba[i + 3] = 255;
  }
  c.depth.assign(static_cast<usize>(kSize) * kSize, -1e30f);
  const float extent = std::max({hi[0] - lo[0], hi[1] - lo[1], 1e-6f});
  const float scale = (static_cast<float>(kSize) - 2 * kMargin) / extent;
  const float cx = (lo[0] + hi[0]) * 0.5f, cy = (lo[1] + hi[1]) * 0.5f;
  for (const Tri& t : tris) {
    std::array<P3, 3> screen{};
    for (u32 k = 0; k < 3; ++k) {
      screen[k] = {static_cast<float>(kSize) * 0.5f + (t.p[k][0] - cx) * scale,
                   static_cast<float>(kSize) * 0.5f - (t.p[k][1] - cy) * scale, t.p[k][2]};
    }
    fill(c, screen, shaded(palette(t.strip), t.p));
  }
  return std::move(c.picture);
}

}  // namespace keel::assets
