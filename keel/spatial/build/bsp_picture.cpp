#include "keel/spatial/build/bsp_picture.h"

#include <stb/stb_image_write.h>

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <vector>

namespace keel::spatial {
namespace {

struct P2 {
  float x = 0, z = 0;
};

struct Line {
  P2 a, b;
  std::array<u8, 3> rgb{};
  float width = 1;
};

struct Scene {
  std::vector<Line> lines;
  float min_x = 0, min_z = 0, max_x = 1, max_z = 1;
};

using Polygon = std::vector<P2>;

// Keeps the part of `poly` where nx * x + nz * z - c >= 0 (sign = +1) or <= 0 (sign = -1).
Polygon clip(const Polygon& poly, float nx, float nz, float c, float sign) {
  Polygon out;
  for (std::size_t i = 0; i < poly.size(); ++i) {
    const P2 p = poly[i];
    const P2 q = poly[(i + 1) % poly.size()];
    const float dp = sign * (nx * p.x + nz * p.z - c);
    const float dq = sign * (nx * q.x + nz * q.z - c);
    if (dp >= 0) out.push_back(p);
    if ((dp >= 0) != (dq >= 0)) {
      const float t = dp / (dp - dq);
      out.push_back({p.x + (q.x - p.x) * t, p.z + (q.z - p.z) * t});
    }
  }
  return out;
}

std::array<u8, 3> depth_colour(u32 depth) {
  const float t = std::min(1.0f, static_cast<float>(depth) / 8.0f);
  return {static_cast<u8>(220 * (1 - t) + 20 * t), static_cast<u8>(60 + 60 * t),
          static_cast<u8>(40 * (1 - t) + 220 * t)};
}

void add_faces(Scene& scene, const BspView& tree, const BspPictureOptions& options) {
  for (const BspFace& f : tree.faces()) {
    if (!options.slice) {
      for (u32 k = 0; k < 3; ++k) {
        const Vec3 a = f.tri.v[k], b = f.tri.v[(k + 1) % 3];
        scene.lines.push_back({{a.x, a.z}, {b.x, b.z}, {150, 150, 150}, 1});
      }
      continue;
    }
    std::vector<P2> cut;
    for (u32 k = 0; k < 3; ++k) {
      const Vec3 a = f.tri.v[k], b = f.tri.v[(k + 1) % 3];
      const float da = a.y - options.height, db = b.y - options.height;
      if ((da < 0) != (db < 0)) {
        const Vec3 p = lerp(a, b, da / (da - db));
        cut.push_back({p.x, p.z});
      }
    }
    if (cut.size() == 2) scene.lines.push_back({cut[0], cut[1], {0, 0, 0}, 2});
  }
}

void add_planes(Scene& scene, const BspView& tree, float height) {
  struct Item {
    u32 node;
    u32 depth;
    Polygon cell;
  };
  std::vector<Item> todo;
  todo.push_back({0, 0,
                  Polygon{{scene.min_x, scene.min_z},
                          {scene.max_x, scene.min_z},
                          {scene.max_x, scene.max_z},
                          {scene.min_x, scene.max_z}}});
  while (!todo.empty() && !tree.empty()) {
    Item item = std::move(todo.back());
    todo.pop_back();
    const BspNode& n = tree.nodes()[item.node];
    const Vec3 nn = n.plane.normal;
    const bool vertical = std::abs(nn.y) < 0.999f;
    Polygon front = item.cell, back = item.cell;
    if (vertical && item.cell.size() >= 3) {
      const float c = n.plane.d - nn.y * height;
      front = clip(item.cell, nn.x, nn.z, c, 1);
      back = clip(item.cell, nn.x, nn.z, c, -1);
      // The splitting line within the cell: the points of the cell's outline on the line.
      std::vector<P2> on;
      for (const P2& p : front) {
        if (std::abs(nn.x * p.x + nn.z * p.z - c) < 1e-4f * (1 + std::abs(c))) on.push_back(p);
      }
      if (on.size() >= 2) {
        scene.lines.push_back({on.front(), on.back(), depth_colour(item.depth), 2});
      }
    }
    if (n.front != kBspNone) todo.push_back({n.front, item.depth + 1, std::move(front)});
    if (n.back != kBspNone) todo.push_back({n.back, item.depth + 1, std::move(back)});
  }
}

Scene make_scene(const BspView& tree, const BspPictureOptions& options) {
  Scene scene;
  float lo_x = std::numeric_limits<float>::max(), lo_z = lo_x;
  float hi_x = -lo_x, hi_z = -lo_x;
  for (const BspFace& f : tree.faces()) {
    for (const Vec3& v : f.tri.v) {
      lo_x = std::min(lo_x, v.x), hi_x = std::max(hi_x, v.x);
      lo_z = std::min(lo_z, v.z), hi_z = std::max(hi_z, v.z);
    }
  }
  if (lo_x > hi_x) lo_x = lo_z = -1, hi_x = hi_z = 1;
  const float pad = 0.05f * std::max({hi_x - lo_x, hi_z - lo_z, 1e-3f});
  scene.min_x = lo_x - pad, scene.max_x = hi_x + pad;
  scene.min_z = lo_z - pad, scene.max_z = hi_z + pad;
  add_planes(scene, tree, options.height);
  add_faces(scene, tree, options);  // on top of the planes they lie in
  return scene;
}

struct Frame {
  float scale;
  u32 width, height;
  float min_x, max_z;
  // World (x, z) to picture coordinates: +x right, +z up.
  P2 map(P2 p) const { return {(p.x - min_x) * scale, (max_z - p.z) * scale}; }
};

Frame frame_of(const Scene& s, u32 size) {
  const float w = s.max_x - s.min_x, h = s.max_z - s.min_z;
  const float scale = static_cast<float>(std::max(size, 16u)) / std::max(w, h);
  return {scale, std::max(1u, static_cast<u32>(std::ceil(w * scale))),
          std::max(1u, static_cast<u32>(std::ceil(h * scale))), s.min_x, s.max_z};
}

void write_to_buffer(void* context, void* data, int size) {
  auto* out = static_cast<ByteBuffer*>(context);
  const auto* bytes = static_cast<const std::byte*>(data);
  out->insert(out->end(), bytes, bytes + size);
}

}  // namespace

std::string bsp_svg(const BspView& tree, const BspPictureOptions& options) {
  const Scene scene = make_scene(tree, options);
  const Frame f = frame_of(scene, options.size);
  std::string svg = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\">\n"
      "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n",
      f.width, f.height);
  for (const Line& l : scene.lines) {
    const P2 a = f.map(l.a), b = f.map(l.b);
    svg += fmt::format(
        "<line x1=\"{:.2f}\" y1=\"{:.2f}\" x2=\"{:.2f}\" y2=\"{:.2f}\" stroke=\"rgb({},{},{})\" "
        "stroke-width=\"{}\"/>\n",
        a.x, a.z, b.x, b.z, l.rgb[0], l.rgb[1], l.rgb[2], l.width);
  }
  svg += "</svg>\n";
  return svg;
}

ByteBuffer bsp_png(const BspView& tree, const BspPictureOptions& options) {
  const Scene scene = make_scene(tree, options);
  const Frame f = frame_of(scene, options.size);
  std::vector<u8> pixels(std::size_t{f.width} * f.height * 3, 255);
  auto plot = [&](int x, int y, const std::array<u8, 3>& rgb) {
    if (x < 0 || y < 0 || x >= static_cast<int>(f.width) || y >= static_cast<int>(f.height)) {
      return;
    }
    std::copy(rgb.begin(), rgb.end(), pixels.begin() + (std::size_t{f.width} * y + x) * 3);
  };
  for (const Line& l : scene.lines) {
    const P2 a = f.map(l.a), b = f.map(l.b);
    const float steps = std::max({std::abs(b.x - a.x), std::abs(b.z - a.z), 1.0f});
    const int thick = l.width > 1 ? 1 : 0;
    for (float i = 0; i <= steps; i += 1) {
      const int x = static_cast<int>(a.x + (b.x - a.x) * i / steps);
      const int y = static_cast<int>(a.z + (b.z - a.z) * i / steps);
      for (int dx = 0; dx <= thick; ++dx) {
        for (int dy = 0; dy <= thick; ++dy) plot(x + dx, y + dy, l.rgb);
      }
    }
  }
  ByteBuffer png;
  const int ok = stbi_write_png_to_func(write_to_buffer, &png, static_cast<int>(f.width),
                                        static_cast<int>(f.height), 3, pixels.data(),
                                        static_cast<int>(f.width * 3));
  if (ok == 0) png.clear();
  return png;
}

}  // namespace keel::spatial
