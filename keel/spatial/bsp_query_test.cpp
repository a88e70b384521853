// BSP checks C2-15 ... C2-18 (sort, point and sphere collision, multiroot), every query against
// brute force on random scenes; the packed form and the entry points.
#include "keel/spatial/bsp.h"
#include "keel/spatial/testing/bsp_scenes.h"

#include <gtest/gtest.h>

#include <cstring>
#include <random>

namespace keel::spatial {
namespace {

// The wall (x of its plane) of each face, in order, with repeats of one wall collapsed.
std::vector<float> wall_order(const BspTree& tree, const std::vector<u32>& faces) {
  std::vector<float> walls;
  for (const u32 f : faces) {
    const float x = tree.faces[f].tri.v[0].x;
    if (walls.empty() || walls.back() != x) walls.push_back(x);
  }
  return walls;
}

TEST(Bsp, C2_15_FrontToBackSort) {
  const BspTree tree = build_bsp(testing::three_walls());
  const BspView view = tree.view();
  std::vector<u32> order;
  BspQueryStats stats;
  view.sort({0, 0, 0}, BspOrder::kFrontToBack, order, &stats);
  EXPECT_EQ(wall_order(tree, order), (std::vector<float>{1, 2, 3}));
  EXPECT_EQ(order.size(), 6u);
  EXPECT_EQ(stats.nodes_visited, tree.nodes.size());  // each node exactly once
  order.clear();
  view.sort({4, 0, 0}, BspOrder::kFrontToBack, order);
  EXPECT_EQ(wall_order(tree, order), (std::vector<float>{3, 2, 1}));
  order.clear();
  view.sort({0, 0, 0}, BspOrder::kBackToFront, order);
  EXPECT_EQ(wall_order(tree, order), (std::vector<float>{3, 2, 1}));
  order.clear();
  view.sort({4, 0, 0}, BspOrder::kBackToFront, order);
  EXPECT_EQ(wall_order(tree, order), (std::vector<float>{1, 2, 3}));
}

TEST(Bsp, C2_15_SortAgreesWithBruteForceDepth) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> eye_pos(-12, 12);
  for (u32 scene = 0; scene < 2; ++scene) {
    const BspTree tree = build_bsp(testing::random_scene(120, 8, 2.5f, 100 + scene));
    const BspView view = tree.view();
    std::vector<Triangle> tris;
    for (const BspFace& f : tree.faces) tris.push_back(f.tri);
    for (u32 e = 0; e < 4; ++e) {
      const Vec3 eye{eye_pos(rng), eye_pos(rng), eye_pos(rng)};
      std::vector<u32> order;
      BspQueryStats stats;
      view.sort(eye, BspOrder::kFrontToBack, order, &stats);
      ASSERT_EQ(order.size(), tree.faces.size());
      EXPECT_EQ(stats.nodes_visited, tree.nodes.size());
      std::vector<u32> position(order.size());
      for (u32 i = 0; i < order.size(); ++i) position[order[i]] = i;
      // Rays from the eye through each face: a face hit nearer must come earlier in the list.
      for (u32 a = 0; a < tris.size(); ++a) {
        const Vec3 far = eye + (tris[a].centroid() - eye) * 2.0f;
        const auto ta = segment_triangle(eye, far, tris[a]);
        if (!ta) continue;
        for (u32 b = 0; b < tris.size(); ++b) {
          if (b == a) continue;
          const auto tb = segment_triangle(eye, far, tris[b]);
          if (tb && *tb < *ta - 1e-4f) {
            EXPECT_LT(position[b], position[a]) << "scene " << scene;
          }
        }
      }
    }
  }
}

TEST(Bsp, C2_16_PointCollisionWalls) {
  const BspTree tree = build_bsp(testing::three_walls());
  const BspView view = tree.view();
  auto hit = view.segment({0, 0, 0}, {4, 0, 0});
  ASSERT_TRUE(hit);
  EXPECT_FLOAT_EQ(hit->t, 0.25f);
  EXPECT_EQ(hit->point, (Vec3{1, 0, 0}));
  hit = view.segment({4, 0, 0}, {0, 0, 0});
  ASSERT_TRUE(hit);
  EXPECT_FLOAT_EQ(tree.faces[hit->face].tri.v[0].x, 3.0f);
  BspQueryStats stats;
  EXPECT_FALSE(view.segment({0.2f, 0, 0}, {0.8f, 0, 0}, &stats));
  EXPECT_EQ(stats.faces_tested, 0u);
  EXPECT_FALSE(view.segment({0, 50, 0}, {4, 50, 0}));
}

void compare_segments(const BspView& view, const std::vector<Triangle>& tris, u32 seed,
                      float extent) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> pos(-extent, extent);
  u32 hits = 0;
  for (u32 q = 0; q < 400; ++q) {
    const Vec3 a{pos(rng), pos(rng), pos(rng)};
    const Vec3 b{pos(rng), pos(rng), pos(rng)};
    const auto hit = view.segment(a, b);
    const auto ref = brute_segment(tris, a, b);
    ASSERT_EQ(hit.has_value(), ref.has_value()) << "query " << q;
    if (!hit) continue;
    ++hits;
    EXPECT_NEAR(hit->t, ref->t, 1e-5f) << "query " << q;
  }
  EXPECT_GT(hits, 20u);
}

TEST(Bsp, C2_16_PointCollisionEqualsBruteForce) {
  for (u32 seed = 0; seed < 4; ++seed) {
    const auto scene = testing::random_scene(300, 10, 2, seed);
    const BspTree tree = build_bsp(scene);
    compare_segments(tree.view(), testing::triangles_of(scene), seed + 50, 11);
  }
}

TEST(Bsp, C2_17_SphereCollisionWalls) {
  const BspTree tree = build_bsp(testing::three_walls());
  const auto hit = tree.view().sphere({0, 0, 0}, {4, 0, 0}, 0.5f);
  ASSERT_TRUE(hit);
  EXPECT_FLOAT_EQ(hit->t, 0.125f);
  EXPECT_NEAR(hit->point.x, 0.5f, 1e-6f);
}

TEST(Bsp, C2_17_AreaOfUncertainty) {
  // Root plane x = 0 (a small wall far up in y). The sphere (r = 1) moves along z with its centre
  // at x = 0.5: it straddles the root plane the whole way. The front face (z = 3) is found first
  // but the back face (z = 2, x <= -0.2) is touched earlier by the part of the sphere behind.
  std::vector<BspInputFace> faces;
  faces.push_back({Triangle{{Vec3{0, 5, -1}, Vec3{0, 10, -1}, Vec3{0, 5, 1}}}, false, 0});
  faces.push_back({Triangle{{Vec3{0.2f, -5, 3}, Vec3{5, -5, 3}, Vec3{0.2f, 5, 3}}}, false, 1});
  faces.push_back({Triangle{{Vec3{-5, -5, 2}, Vec3{-0.2f, -5, 2}, Vec3{-0.2f, 5, 2}}}, false, 2});
  const BspTree tree = build_bsp(faces);
  ASSERT_EQ(tree.faces[tree.nodes[0].first_face].source, 0u);
  const Vec3 a{0.5f, 0, 0}, b{0.5f, 0, 6};
  const auto tris = testing::triangles_of(faces);
  const auto front_only = sphere_sweep_triangle(a, b, 1, tris[1]);
  const auto ref = brute_sphere(tris, a, b, 1);
  ASSERT_TRUE(front_only && ref);
  EXPECT_LT(ref->t, *front_only);
  EXPECT_EQ(ref->index, 2u);
  const auto hit = tree.view().sphere(a, b, 1);
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->source, 2u);
  EXPECT_NEAR(hit->t, (2 - std::sqrt(1 - 0.49f)) / 6, 1e-5f);
}

void compare_spheres(const BspView& view, const std::vector<Triangle>& tris, u32 seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> pos(-11, 11);
  std::uniform_real_distribution<float> rad(0.05f, 2.0f);
  u32 hits = 0;
  for (u32 q = 0; q < 300; ++q) {
    const Vec3 a{pos(rng), pos(rng), pos(rng)};
    const Vec3 b{pos(rng), pos(rng), pos(rng)};
    const float r = rad(rng);
    const auto hit = view.sphere(a, b, r);
    const auto ref = brute_sphere(tris, a, b, r);
    ASSERT_EQ(hit.has_value(), ref.has_value()) << "query " << q;
    if (!hit) continue;
    ++hits;
    EXPECT_NEAR(hit->t, ref->t, 1e-4f) << "query " << q;
  }
  EXPECT_GT(hits, 20u);
}

TEST(Bsp, C2_17_SphereCollisionEqualsBruteForce) {
  for (u32 seed = 0; seed < 3; ++seed) {
    const auto scene = testing::random_scene(200, 10, 2, 20 + seed);
    compare_spheres(build_bsp(scene).view(), testing::triangles_of(scene), seed + 70);
  }
}

TEST(Bsp, C2_18_MultirootNeverSplits) {
  const auto scene = testing::random_scene(300, 10, 2.5f, 33);
  BspBuildOptions options;
  options.multiroot = true;
  const BspTree tree = build_bsp(scene, options);
  EXPECT_EQ(tree.stats.splits, 0u);
  EXPECT_EQ(tree.faces.size(), scene.size());  // no new triangles
  EXPECT_GT(tree.stats.secondary_trees, 0u);
  std::vector<u32> seen(scene.size(), 0);
  for (const BspFace& f : tree.faces) ++seen[f.source];
  for (const u32 s : seen) EXPECT_EQ(s, 1u);
  // Every secondary tree holds exactly the faces its node would have split.
  for (const BspNode& node : tree.nodes) {
    if (node.secondary == kBspNone) continue;
    std::vector<u32> todo{node.secondary};
    while (!todo.empty()) {
      const BspNode& m = tree.nodes[todo.back()];
      todo.pop_back();
      for (u32 k = 0; k < m.face_count; ++k) {
        const BspFace& f = tree.faces[m.first_face + k];
        EXPECT_EQ(classify(f.tri, f.plane.normal, node.plane, 1e-4f), Side::kSpanning);
      }
      for (const u32 c : {m.front, m.back, m.secondary}) {
        if (c != kBspNone) todo.push_back(c);
      }
    }
  }
  const auto tris = testing::triangles_of(scene);
  compare_segments(tree.view(), tris, 90, 11);
  compare_spheres(tree.view(), tris, 91);
}

TEST(Bsp, PackedTreeLoadsInPlace) {
  const auto scene = testing::random_scene(150, 10, 2, 3);
  const BspTree tree = build_bsp(scene);
  const ByteBuffer bytes = pack_bsp(tree.view());
  const Result<BspView> loaded = BspView::load(bytes, "scene");
  ASSERT_TRUE(loaded) << loaded.error().to_string();
  EXPECT_EQ(loaded->nodes().size(), tree.nodes.size());
  EXPECT_EQ(static_cast<const void*>(loaded->nodes().data()),
            static_cast<const void*>(bytes.data() + 20));  // a view, no copy
  compare_segments(*loaded, testing::triangles_of(scene), 4, 11);
}

TEST(Bsp, PackedTreeErrorsAreLocated) {
  const BspTree tree = build_bsp(testing::three_walls());
  ByteBuffer bytes = pack_bsp(tree.view());
  ByteBuffer bad = bytes;
  bad[0] = std::byte{'X'};
  auto r = BspView::load(bad, "walls");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().where().file, "walls");
  bad = bytes;
  bad.pop_back();
  EXPECT_FALSE(BspView::load(bad));
  // A child pointing back up the tree (a cycle) is refused at that node's offset.
  bad = bytes;
  const u32 zero = 0;
  std::memcpy(bad.data() + 20 + 16, &zero, 4);
  r = BspView::load(bad, "walls");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().where().offset, 36u);
  EXPECT_FALSE(BspView::load(ByteSpan(bytes).subspan(1)));  // misaligned / truncated
}

TEST(EntryPoints, BspEmptyAndDegenerateInput) {
  const BspTree empty = build_bsp({});
  EXPECT_TRUE(empty.view().empty());
  EXPECT_FALSE(empty.view().segment({0, 0, 0}, {1, 1, 1}));
  EXPECT_FALSE(empty.view().sphere({0, 0, 0}, {1, 1, 1}, 1));
  std::vector<u32> order;
  empty.view().sort({0, 0, 0}, BspOrder::kFrontToBack, order);
  EXPECT_TRUE(order.empty());
  const auto packed = pack_bsp(empty.view());
  EXPECT_TRUE(BspView::load(packed));
  EXPECT_FALSE(BspView::load({}));
  // Degenerate faces are dropped; a zero or negative radius is a point.
  std::vector<BspInputFace> faces = testing::three_walls();
  faces.push_back({Triangle{{Vec3{1, 1, 1}, Vec3{1, 1, 1}, Vec3{2, 2, 2}}}, false, 99});
  const BspTree tree = build_bsp(faces);
  EXPECT_EQ(tree.stats.dropped_faces, 1u);
  const auto hit = tree.view().sphere({0, 0, 0}, {4, 0, 0}, -1);
  ASSERT_TRUE(hit);
  EXPECT_FLOAT_EQ(hit->t, 0.25f);
  // Only dummies: no tree.
  std::vector<BspInputFace> dummies;
  testing::add_quad(dummies, {0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, true);
  EXPECT_TRUE(build_bsp(dummies).nodes.empty());
}

}  // namespace
}  // namespace keel::spatial
