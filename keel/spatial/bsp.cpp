// The BSP queries (Golden Rules ch. 2.7.2) and the packed, load-ready form of a tree.
#include "keel/spatial/bsp.h"

#include "keel/spatial/detail/bsp_stack.h"

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

namespace keel::spatial {

static_assert(std::endian::native == std::endian::little, "the packed BSP layout is little-endian");
static_assert(std::is_trivially_copyable_v<BspNode> && sizeof(BspNode) == 36);
static_assert(std::is_trivially_copyable_v<BspFace> && sizeof(BspFace) == 56);
static_assert(alignof(BspNode) == 4 && alignof(BspFace) == 4);

namespace {

constexpr u32 kMagic = 0x5053424Bu;  // "KBSP"
constexpr u32 kVersion = 1;

struct Header {
  u32 magic = kMagic;
  u32 version = kVersion;
  u32 node_count = 0;
  u32 face_count = 0;
  float epsilon = 0;
};
static_assert(sizeof(Header) == 20);

bool finite(const Plane& p) {
  return std::isfinite(p.normal.x) && std::isfinite(p.normal.y) && std::isfinite(p.normal.z) &&
         std::isfinite(p.d);
}

bool finite(const BspFace& f) {
  for (const Vec3& v : f.tri.v) {
    if (!std::isfinite(v.x) || !std::isfinite(v.y) || !std::isfinite(v.z)) return false;
  }
  return finite(f.plane);
}

enum class Kind : u32 { kSubtree, kFaces };

struct Entry {
  u32 node;
  Kind kind;
  float gate;  // skip the entry once the best hit so far is earlier than this
};

// Where the motion a -> b, inflated by `margin` (epsilon, plus the radius for a sphere), meets
// a node's plane. Same side: only one child. Otherwise the near child first, then this node's
// faces and the far child, both only reachable from `gate` on (the area of uncertainty).
struct Crossing {
  bool one_side = false;
  bool near_front = true;
  float gate = 0;
};

Crossing cross_plane(const Plane& plane, Vec3 a, Vec3 b, float margin) {
  const float d0 = plane.distance(a);
  const float d1 = plane.distance(b);
  Crossing c;
  if (d0 > margin && d1 > margin) return {true, true, 0};
  if (d0 < -margin && d1 < -margin) return {true, false, 0};
  c.near_front = d0 > d1 || (d0 == d1 && d0 >= 0);
  const float n0 = c.near_front ? d0 : -d0;
  const float n1 = c.near_front ? d1 : -d1;
  if (n0 > margin) {
    c.gate = n0 > n1 ? (n0 - margin) / (n0 - n1) : std::numeric_limits<float>::infinity();
  }
  return c;
}

template <typename TestFace>
std::optional<BspHit> first_hit(std::span<const BspNode> nodes, std::span<const BspFace> faces,
                                Vec3 a, Vec3 b, float margin, BspQueryStats* stats,
                                TestFace&& test) {
  std::optional<BspHit> best;
  if (nodes.empty()) return best;
  BspQueryStats local;
  detail::BspStack<Entry> stack;
  stack.push({0, Kind::kSubtree, 0});
  while (!stack.empty()) {
    const Entry e = stack.pop();
    if (best && best->t < e.gate) continue;
    if (e.kind == Kind::kFaces) {
      const BspNode& n = nodes[e.node];
      for (u32 i = n.first_face; i < n.first_face + n.face_count; ++i) {
        ++local.faces_tested;
        const std::optional<float> t = test(faces[i].tri);
        if (t && (!best || *t < best->t)) best = BspHit{*t, lerp(a, b, *t), i, faces[i].source};
      }
      continue;
    }
    for (u32 node = e.node; node != kBspNone;) {
      ++local.nodes_visited;
      const BspNode& n = nodes[node];
      if (n.secondary != kBspNone) stack.push({n.secondary, Kind::kSubtree, 0});
      const Crossing c = cross_plane(n.plane, a, b, margin);
      if (c.one_side) {
        node = c.near_front ? n.front : n.back;
        continue;
      }
      const u32 far = c.near_front ? n.back : n.front;
      if (far != kBspNone) stack.push({far, Kind::kSubtree, c.gate});
      if (n.face_count != 0) stack.push({node, Kind::kFaces, c.gate});
      node = c.near_front ? n.front : n.back;
    }
  }
  if (stats) {
    stats->nodes_visited += local.nodes_visited;
    stats->faces_tested += local.faces_tested;
  }
  return best;
}

}  // namespace

void BspView::sort(Vec3 eye, BspOrder order, std::vector<u32>& out, BspQueryStats* stats) const {
  if (nodes_.empty()) return;
  detail::BspStack<Entry> stack;
  stack.push({0, Kind::kSubtree, 0});
  u32 visited = 0;
  while (!stack.empty()) {
    const Entry e = stack.pop();
    if (e.kind == Kind::kFaces) {
      const BspNode& n = nodes_[e.node];
      for (u32 i = 0; i < n.face_count; ++i) out.push_back(n.first_face + i);
      continue;
    }
    for (u32 node = e.node; node != kBspNone;) {
      ++visited;
      const BspNode& n = nodes_[node];
      const bool eye_front = n.plane.distance(eye) >= 0;
      const bool first_front = eye_front == (order == BspOrder::kFrontToBack);
      // Popped in reverse: the first side now, then this node's faces (and its secondary tree,
      // which a multiroot tree can only place approximately), then the other side.
      const u32 second = first_front ? n.back : n.front;
      if (second != kBspNone) stack.push({second, Kind::kSubtree, 0});
      if (n.secondary != kBspNone) stack.push({n.secondary, Kind::kSubtree, 0});
      stack.push({node, Kind::kFaces, 0});
      node = first_front ? n.front : n.back;
    }
  }
  if (stats) stats->nodes_visited += visited;
}

std::optional<BspHit> BspView::segment(Vec3 a, Vec3 b, BspQueryStats* stats) const {
  return first_hit(nodes_, faces_, a, b, epsilon_, stats,
                   [&](const Triangle& tri) { return segment_triangle(a, b, tri); });
}

std::optional<BspHit> BspView::sphere(Vec3 a, Vec3 b, float radius, BspQueryStats* stats) const {
  const float r = std::isfinite(radius) && radius > 0 ? radius : 0.0f;
  return first_hit(nodes_, faces_, a, b, epsilon_ + r, stats,
                   [&](const Triangle& tri) { return sphere_sweep_triangle(a, b, r, tri); });
}

ByteBuffer pack_bsp(const BspView& tree) {
  const Header header{kMagic, kVersion, static_cast<u32>(tree.nodes().size()),
                      static_cast<u32>(tree.faces().size()), tree.epsilon()};
  ByteBuffer out(sizeof(Header) + tree.nodes().size_bytes() + tree.faces().size_bytes());
  std::memcpy(out.data(), &header, sizeof(Header));
  if (!tree.nodes().empty()) {
    std::memcpy(out.data() + sizeof(Header), tree.nodes().data(), tree.nodes().size_bytes());
  }
  if (!tree.faces().empty()) {
    std::memcpy(out.data() + sizeof(Header) + tree.nodes().size_bytes(), tree.faces().data(),
                tree.faces().size_bytes());
  }
  return out;
}

Result<BspView> BspView::load(ByteSpan bytes, std::string_view name) {
  const std::string file(name);
  auto at = [&file](u64 offset) { return SourceLocation::bytes(file, offset); };
  if (bytes.size() < sizeof(Header)) {
    return fail_at(at(0), ErrorCode::kCorrupt, "a BSP tree needs a {}-byte header, got {} bytes",
                   sizeof(Header), bytes.size());
  }
  if (reinterpret_cast<std::uintptr_t>(bytes.data()) % alignof(BspNode) != 0) {
    return fail_at(at(0), ErrorCode::kOutOfRange, "a BSP tree must be {}-byte aligned in memory",
                   alignof(BspNode));
  }
  Header h;
  std::memcpy(&h, bytes.data(), sizeof(Header));
  if (h.magic != kMagic) return fail_at(at(0), ErrorCode::kCorrupt, "not a BSP tree (magic)");
  if (h.version != kVersion) {
    return fail_at(at(4), ErrorCode::kUnsupported, "BSP version {}, expected {}", h.version,
                   kVersion);
  }
  const u64 expected =
      sizeof(Header) + u64{h.node_count} * sizeof(BspNode) + u64{h.face_count} * sizeof(BspFace);
  if (expected != bytes.size()) {
    return fail_at(at(8), ErrorCode::kCorrupt,
                   "{} nodes and {} faces make {} bytes, the tree has {}", h.node_count,
                   h.face_count, expected, bytes.size());
  }
  if (!std::isfinite(h.epsilon) || h.epsilon < 0) {
    return fail_at(at(16), ErrorCode::kCorrupt, "bad epsilon {}", h.epsilon);
  }
  const auto* node_ptr = reinterpret_cast<const BspNode*>(bytes.data() + sizeof(Header));
  const std::span<const BspNode> nodes(node_ptr, h.node_count);
  const auto* face_ptr =
      reinterpret_cast<const BspFace*>(bytes.data() + sizeof(Header) + nodes.size_bytes());
  const std::span<const BspFace> faces(face_ptr, h.face_count);

  std::vector<u8> parents(nodes.size(), 0);
  for (u32 i = 0; i < nodes.size(); ++i) {
    const BspNode& n = nodes[i];
    const u64 offset = sizeof(Header) + u64{i} * sizeof(BspNode);
    if (!finite(n.plane)) return fail_at(at(offset), ErrorCode::kCorrupt, "node {}: plane", i);
    for (const u32 child : {n.front, n.back, n.secondary}) {
      if (child == kBspNone) continue;
      if (child <= i || child >= nodes.size()) {
        return fail_at(at(offset + 16), ErrorCode::kCorrupt,
                       "node {}: child {} must be after it and below {}", i, child, nodes.size());
      }
      if (parents[child]++ != 0) {
        return fail_at(at(offset + 16), ErrorCode::kCorrupt, "node {} has two parents", child);
      }
    }
    if (n.first_face > faces.size() || n.face_count > faces.size() - n.first_face) {
      return fail_at(at(offset + 28), ErrorCode::kCorrupt, "node {}: faces {}+{} of {}", i,
                     n.first_face, n.face_count, faces.size());
    }
  }
  for (u32 i = 1; i < nodes.size(); ++i) {
    if (parents[i] == 0) {
      return fail_at(at(sizeof(Header) + u64{i} * sizeof(BspNode)), ErrorCode::kCorrupt,
                     "node {} is not reachable from the root", i);
    }
  }
  for (u32 i = 0; i < faces.size(); ++i) {
    if (!finite(faces[i])) {
      return fail_at(at(sizeof(Header) + nodes.size_bytes() + u64{i} * sizeof(BspFace)),
                     ErrorCode::kCorrupt, "face {}: not finite", i);
    }
  }
  return BspView(nodes, faces, h.epsilon);
}

}  // namespace keel::spatial
