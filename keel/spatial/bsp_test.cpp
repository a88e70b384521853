// BSP checks C2-10 ... C2-14 (heuristic, counting, classification, splitting, dummies).
#include "keel/spatial/bsp.h"
#include "keel/spatial/testing/bsp_scenes.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>

namespace keel::spatial {
namespace {

using testing::add_quad;

constexpr Vec3 kX{1, 0, 0};
constexpr Vec3 kY{0, 1, 0};
constexpr Vec3 kZ{0, 0, 1};

TEST(Bsp, C2_10_HeuristicTerms) {
  EXPECT_DOUBLE_EQ(h_balance(5, 5), 1.0);
  EXPECT_DOUBLE_EQ(h_balance(2, 8), 0.64);
  EXPECT_DOUBLE_EQ(h_balance(0, 10), 0.0);
  EXPECT_DOUBLE_EQ(h_coplanar(3, 10), 0.3);
  EXPECT_DOUBLE_EQ(h_split(2, 10), 0.8);
  EXPECT_DOUBLE_EQ(h_regular(kX, &kY, &kZ), 1.0);
  EXPECT_DOUBLE_EQ(h_regular(kX, &kX, &kX), 0.25);
  EXPECT_DOUBLE_EQ(h_regular(kX, &kX, &kY), 0.5);
  const float s = std::sqrt(0.5f);
  const Vec3 diagonal{s, s, 0};
  EXPECT_NEAR(h_regular(kX, &diagonal, &kZ), (2 - std::sqrt(0.5)) * 2 / 4, 1e-6);
  EXPECT_NEAR(h_regular(kX, &diagonal, &kZ), 0.64645, 1e-5);
  // A missing parent or grandparent counts as perpendicular.
  EXPECT_DOUBLE_EQ(h_regular(kX, nullptr, nullptr), 1.0);

  const BspHeuristic book;
  EXPECT_NEAR(book.combine(0.64, 0.3, 0.8, 1.0), 0.3407872, 1e-12);
  // Weights and exponents are parameters: exponent 0 or weight 0 switches a term off.
  BspHeuristic tuned;
  tuned.split.exponent = 1;
  EXPECT_NEAR(tuned.combine(0.64, 0.3, 0.8, 1.0), 0.64 * 1.3 * 0.8, 1e-12);
  tuned.balance.weight = 0;
  EXPECT_NEAR(tuned.combine(0.0, 0.3, 0.8, 1.0), 1.3 * 0.8, 1e-12);
  tuned.coplanar.weight = 2;
  EXPECT_NEAR(tuned.combine(0.0, 0.3, 0.8, 1.0), 1.6 * 0.8, 1e-12);
}

TEST(Bsp, C2_11_TreeCount) {
  EXPECT_EQ(bsp_tree_count(12), 479001600u);
  EXPECT_EQ(bsp_tree_count(1), 1u);
  EXPECT_EQ(bsp_tree_count(100), ~u64{0});  // saturates
}

TEST(Bsp, C2_12_ClassificationFiveOutcomes) {
  const Plane plane{kX, 0};
  const Triangle front{{Vec3{1, 0, 0}, Vec3{2, 1, 0}, Vec3{0, 0, 1}}};  // one vertex on it
  const Triangle back{{Vec3{-1, 0, 0}, Vec3{-2, 1, 0}, Vec3{-1, 0, 1}}};
  const Triangle span{{Vec3{-1, 0, 0}, Vec3{1, 1, 0}, Vec3{1, 0, 1}}};
  const Triangle on{{Vec3{0, 0, 0}, Vec3{0, 1, 0}, Vec3{0, 0, 1}}};
  const Vec3 on_normal = plane_of(on)->normal;
  EXPECT_EQ(classify(front, plane_of(front)->normal, plane, 1e-4f), Side::kFront);
  EXPECT_EQ(classify(back, plane_of(back)->normal, plane, 1e-4f), Side::kBack);
  EXPECT_EQ(classify(span, plane_of(span)->normal, plane, 1e-4f), Side::kSpanning);
  EXPECT_EQ(classify(on, on_normal, plane, 1e-4f), Side::kCoplanarSame);
  const Triangle flipped{{on.v[0], on.v[2], on.v[1]}};
  EXPECT_EQ(classify(flipped, plane_of(flipped)->normal, plane, 1e-4f), Side::kCoplanarOpposite);

  // Both coplanar kinds are stored at the node with the face that gave the plane.
  std::vector<BspInputFace> faces{{on, false, 0}, {flipped, false, 1}, {front, false, 2}};
  faces.push_back({Triangle{{Vec3{0, 5, 5}, Vec3{0, 6, 5}, Vec3{0, 5, 6}}}, false, 3});
  const BspTree tree = build_bsp(faces);
  ASSERT_FALSE(tree.nodes.empty());
  const BspNode& root = tree.nodes[0];
  std::set<u32> at_root;
  for (u32 i = 0; i < root.face_count; ++i) at_root.insert(tree.faces[root.first_face + i].source);
  EXPECT_EQ(at_root, (std::set<u32>{0, 1, 3}));
}

double total_area(const SplitResult& r) {
  double sum = 0;
  for (u32 i = 0; i < r.front_count; ++i) sum += r.front[i].area();
  for (u32 i = 0; i < r.back_count; ++i) sum += r.back[i].area();
  return sum;
}

void expect_routed(const SplitResult& r, const Plane& plane, Vec3 normal) {
  for (u32 i = 0; i < r.front_count; ++i) {
    EXPECT_EQ(classify(r.front[i], normal, plane, 1e-4f), Side::kFront);
    EXPECT_GT(dot(plane_of(r.front[i])->normal, normal), 0.999f);  // winding kept
  }
  for (u32 i = 0; i < r.back_count; ++i) {
    EXPECT_EQ(classify(r.back[i], normal, plane, 1e-4f), Side::kBack);
    EXPECT_GT(dot(plane_of(r.back[i])->normal, normal), 0.999f);
  }
}

TEST(Bsp, C2_13_SplitIntoTwoOrThree) {
  const Plane plane{kX, 0};
  const Triangle through_vertex{{Vec3{0, 0, 0}, Vec3{1, 1, 0}, Vec3{-1, 1, 0}}};
  const SplitResult two = split(through_vertex, plane, 1e-4f);
  EXPECT_EQ(two.front_count + two.back_count, 2u);
  EXPECT_EQ(two.front_count, 1u);
  EXPECT_NEAR(total_area(two), through_vertex.area(), 1e-5);
  expect_routed(two, plane, plane_of(through_vertex)->normal);

  const Triangle general{{Vec3{-1, 0, 0}, Vec3{2, 0, 0}, Vec3{2, 3, 0}}};
  const SplitResult three = split(general, plane, 1e-4f);
  EXPECT_EQ(three.front_count + three.back_count, 3u);
  EXPECT_NEAR(total_area(three), general.area(), 1e-5);
  expect_routed(three, plane, plane_of(general)->normal);

  // Random triangles against random planes: no piece crosses, the area is kept.
  const auto scene = testing::random_scene(500, 5, 3, 7);
  u32 spanning = 0;
  for (u32 i = 0; i + 1 < scene.size(); ++i) {
    const Plane p = *plane_of(scene[i + 1].tri);
    const Triangle& tri = scene[i].tri;
    const auto own = plane_of(tri);
    if (!own || classify(tri, own->normal, p, 1e-4f) != Side::kSpanning) continue;
    ++spanning;
    const SplitResult r = split(tri, p, 1e-4f);
    EXPECT_GE(r.front_count + r.back_count, 2u);
    EXPECT_NEAR(total_area(r), tri.area(), 1e-3 * (1 + tri.area()));
    for (u32 k = 0; k < r.front_count; ++k) {
      for (const Vec3& v : r.front[k].v) EXPECT_GE(p.distance(v), -1e-4f);
    }
    for (u32 k = 0; k < r.back_count; ++k) {
      for (const Vec3& v : r.back[k].v) EXPECT_LE(p.distance(v), 1e-4f);
    }
  }
  EXPECT_GT(spanning, 20u);

  // In a tree, the pieces are routed to the side they lie on: every face of a front subtree is
  // in front of (or on) the node's plane.
  const BspTree tree = build_bsp(testing::random_scene(200, 5, 2, 11));
  EXPECT_GT(tree.stats.splits, 0u);
  std::vector<u32> owner_of_face(tree.faces.size(), kBspNone);
  for (u32 n = 0; n < tree.nodes.size(); ++n) {
    for (u32 k = 0; k < tree.nodes[n].face_count; ++k)
      owner_of_face[tree.nodes[n].first_face + k] = n;
  }
  for (u32 n = 0; n < tree.nodes.size(); ++n) {
    std::vector<std::pair<u32, bool>> todo;
    if (tree.nodes[n].front != kBspNone) todo.push_back({tree.nodes[n].front, true});
    if (tree.nodes[n].back != kBspNone) todo.push_back({tree.nodes[n].back, false});
    while (!todo.empty()) {
      const auto [m, front] = todo.back();
      todo.pop_back();
      const BspNode& node = tree.nodes[m];
      for (u32 k = 0; k < node.face_count; ++k) {
        for (const Vec3& v : tree.faces[node.first_face + k].tri.v) {
          const float d = tree.nodes[n].plane.distance(v);
          if (front) {
            EXPECT_GE(d, -2e-4f);
          } else {
            EXPECT_LE(d, 2e-4f);
          }
        }
      }
      if (node.front != kBspNone) todo.push_back({node.front, front});
      if (node.back != kBspNone) todo.push_back({node.back, front});
    }
  }
}

u32 plane_groups(const std::vector<BspInputFace>& faces) {
  std::vector<Plane> planes;
  for (const auto& f : faces) {
    const Plane p = *plane_of(f.tri);
    const bool seen = std::any_of(planes.begin(), planes.end(), [&](const Plane& q) {
      return dot(p.normal, q.normal) > 0.9999f && std::abs(p.d - q.d) < 1e-4f;
    });
    if (!seen) planes.push_back(p);
  }
  return static_cast<u32>(planes.size());
}

TEST(Bsp, C2_14_ConvexMeshIsAListWithoutDummies) {
  for (const auto& mesh : {testing::box({-1, -1, -1}, {1, 1, 1}), testing::uv_sphere(12, 6, 1)}) {
    const BspTree tree = build_bsp(mesh);
    const u32 groups = plane_groups(mesh);
    EXPECT_EQ(tree.stats.depth, groups);
    EXPECT_EQ(tree.nodes.size(), groups);
    EXPECT_EQ(tree.stats.splits, 0u);
    for (const BspNode& n : tree.nodes) EXPECT_EQ(n.front, kBspNone);  // everything behind
  }
}

TEST(Bsp, C2_14_DummiesBecomeTopPlanes) {
  auto mesh = testing::uv_sphere(16, 8, 1);
  const u32 real = static_cast<u32>(mesh.size());
  const BspTree plain = build_bsp(mesh);
  // Two orthogonal dummy quads through the centre: x = 0 and z = 0.
  add_quad(mesh, {0, -2, -2}, {0, 2, -2}, {0, 2, 2}, {0, -2, 2}, true);
  add_quad(mesh, {-2, -2, 0}, {-2, 2, 0}, {2, 2, 0}, {2, -2, 0}, true);
  const BspTree tree = build_bsp(mesh);
  EXPECT_EQ(tree.stats.dummy_faces, 4u);
  ASSERT_GE(tree.nodes.size(), 3u);
  const BspNode& root = tree.nodes[0];
  EXPECT_NEAR(std::abs(root.plane.normal.x), 1.0f, 1e-6f);
  EXPECT_EQ(root.face_count, 0u);
  for (const u32 child : {root.front, root.back}) {
    ASSERT_NE(child, kBspNone);
    EXPECT_NEAR(std::abs(tree.nodes[child].plane.normal.z), 1.0f, 1e-6f);
    EXPECT_EQ(tree.nodes[child].face_count, 0u);
  }
  EXPECT_LT(tree.stats.depth, plain.stats.depth);
  for (const BspFace& f : tree.faces) EXPECT_LT(f.source, real);  // no dummy in any face list
  // Dummies are not counted as splits; the sphere faces they cross are.
  u32 crossing = 0;
  for (u32 i = 0; i < real; ++i) {
    const auto& f = mesh[i];
    const Vec3 n = plane_of(f.tri)->normal;
    crossing += classify(f.tri, n, {kX, 0}, 1e-4f) == Side::kSpanning ? 1 : 0;
  }
  EXPECT_GE(tree.stats.splits, crossing);
  EXPECT_EQ(plain.stats.splits, 0u);
  // The pieces cover the sphere: the queries still equal brute force.
  const auto tris = testing::triangles_of(mesh);
  for (float y = -0.9f; y < 0.9f; y += 0.3f) {
    const auto hit = tree.view().segment({0.05f, y, 0.07f}, {3, y, 2});
    const auto ref = brute_segment(tris, {0.05f, y, 0.07f}, {3, y, 2});
    ASSERT_EQ(hit.has_value(), ref.has_value());
    if (hit) {
      EXPECT_NEAR(hit->t, ref->t, 1e-5f);
    }
  }
}

}  // namespace
}  // namespace keel::spatial
