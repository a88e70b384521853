// The OBJ input of the BSP builder and the pictures of a tree.
#include "keel/spatial/build/bsp_obj.h"
#include "keel/spatial/build/bsp_picture.h"
#include "keel/spatial/testing/bsp_scenes.h"

#include <gtest/gtest.h>

namespace keel::spatial {
namespace {

constexpr std::string_view kRoom = R"(# a wall quad and a dummy quad
v 0 0 0
v 4 0 0
v 4 2 0
v 0 2 0
v 2 0 -2
v 2 0 2
v 2 2 2
v 2 2 -2
g wall
f 1 2 3 4
g BSP_Dummy_centre
f 5 6 7 8
)";

TEST(BspObj, QuadsTriangulatedAndDummyGroupsMarked) {
  const auto faces = load_obj_faces(kRoom, "room.obj");
  ASSERT_TRUE(faces) << faces.error().to_string();
  ASSERT_EQ(faces->size(), 4u);
  EXPECT_FALSE((*faces)[0].dummy);
  EXPECT_FALSE((*faces)[1].dummy);
  EXPECT_TRUE((*faces)[2].dummy);
  EXPECT_TRUE((*faces)[3].dummy);
  EXPECT_EQ((*faces)[3].source, 3u);
  EXPECT_EQ((*faces)[0].tri.v[1], (Vec3{4, 0, 0}));
}

TEST(EntryPoints, BspObjBadInput) {
  const auto bad_index = load_obj_faces("v 0 0 0\nv 1 0 0\nf 1 2 9\n", "bad.obj");
  ASSERT_FALSE(bad_index);
  EXPECT_EQ(bad_index.error().where().file, "bad.obj");
  const auto empty = load_obj_faces("", "empty.obj");
  ASSERT_TRUE(empty);
  EXPECT_TRUE(empty->empty());
  // Pictures of an empty tree are still valid pictures.
  const BspTree none = build_bsp({});
  EXPECT_NE(bsp_svg(none.view()).find("<svg"), std::string::npos);
  EXPECT_FALSE(bsp_png(none.view()).empty());
}

TEST(BspPicture, SvgAndPngShowPlanesAndFaces) {
  const BspTree tree = build_bsp(testing::three_walls());
  const std::string svg = bsp_svg(tree.view(), {.slice = true, .height = 0, .size = 400});
  // The walls are vertical: every node plane is a line in the picture, the root's in red.
  EXPECT_NE(svg.find("stroke=\"rgb(220,60,40)\""), std::string::npos);  // the root's colour
  const ByteBuffer png = bsp_png(tree.view(), {.slice = false, .height = 0, .size = 200});
  ASSERT_GT(png.size(), 8u);
  EXPECT_EQ(static_cast<char>(png[1]), 'P');
  EXPECT_EQ(static_cast<char>(png[2]), 'N');
  EXPECT_EQ(static_cast<char>(png[3]), 'G');
}

}  // namespace
}  // namespace keel::spatial
