#include "keel/assets/build/mesh_source.h"

#include <gtest/gtest.h>

namespace keel::assets {
namespace {

constexpr std::string_view kCrate = R"(
Mesh("Crate")
{
    Skeleton(2)
    {
        Bone("root")  { Position(0,0,0); Rotation(0,0,0,1); }
        Bone("lid")   { Parent("root"); Position(0,1,0); Rotation(0,0,0,1); }
    }
    Materials(1)
    {
        Material("wood")
        {
            FillMode("solid"); Edges("none"); Winding("counterclockwise"); Culling("back");
            Property("diffuse") { Amount(100); Texture(0,"crate.tga"); }
        }
    }
    Vertices(3)
    {
        Vertex(0, 0,0,0) { Normal(0,0,1); TexCoord(0,0,0); Bone("root",1.0); }
        Vertex(1, 1,0,0) { Normal(0,0,1); TexCoord(0,1,0); Bone("root",1.0); }
        Vertex(2, 0,1,0) { Normal(0,0,1); TexCoord(0,0,1); Bone("lid",0.5); Bone("root",0.5); }
    }
    Triangles(1)
    {
        Triangle("wood", 0, 1, 2) { Normal(0,0,1); }
    }
}
)";

std::string replaced(std::string_view text, std::string_view from, std::string_view to) {
  std::string s(text);
  const usize at = s.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) s.replace(at, from.size(), to);
  return s;
}

std::string first_error(std::string text) {
  Result<MeshSource> mesh = parse_mesh_source(std::move(text), "crate.mesh");
  return mesh ? std::string() : mesh.error().message();
}

TEST(MeshCheck, C19_TheFormatParses) {
  Result<MeshSource> mesh = parse_mesh_source(std::string(kCrate), "crate.mesh");
  ASSERT_TRUE(mesh) << mesh.error().message();
  EXPECT_EQ(mesh->name, "Crate");
  ASSERT_EQ(mesh->bones.size(), 2u);
  EXPECT_EQ(mesh->bones[1].parent, "root");
  EXPECT_EQ(mesh->bones[1].parent_index, 0);
  EXPECT_EQ(mesh->materials.size(), 1u);
  ASSERT_EQ(mesh->vertices.size(), 3u);
  EXPECT_EQ(mesh->triangles.size(), 1u);
  EXPECT_EQ(mesh->vertices[2].bones.size(), 2u);
  EXPECT_EQ(mesh->vertices[2].bones[0].bone_index, 1);
  EXPECT_EQ(mesh->materials[0].property("diffuse")->texture, "crate.tga");
  // An empty block is a legitimate mesh.
  EXPECT_TRUE(parse_mesh_source("Mesh(\"empty\") {}", "e.mesh"));
}

TEST(MeshCheck, C19_CountSequenceAndParentErrors) {
  const std::string two_of_three = replaced(
      kCrate,
      R"(Vertex(2, 0,1,0) { Normal(0,0,1); TexCoord(0,0,1); Bone("lid",0.5); Bone("root",0.5); })",
      "");
  EXPECT_NE(first_error(two_of_three).find("declares 3 vertices"), std::string::npos)
      << first_error(two_of_three);
  const std::string out_of_order =
      replaced(replaced(kCrate, "Vertex(0,", "Vertex(9,"), "Vertex(1,", "Vertex(0,");
  EXPECT_NE(first_error(out_of_order).find("out of sequence"), std::string::npos);
  const std::string missing_parent = replaced(kCrate, R"(Parent("root"))", R"(Parent("base"))");
  EXPECT_NE(first_error(missing_parent).find("does not define"), std::string::npos);
  // Errors are located.
  Result<MeshSource> mesh = parse_mesh_source(missing_parent, "crate.mesh");
  ASSERT_FALSE(mesh);
  EXPECT_EQ(mesh.error().where().line, 7u);
}

TEST(MeshCheck, C20_BumpDataComesComplete) {
  const std::string ok =
      replaced(kCrate, "Vertex(0, 0,0,0) { Normal(0,0,1);",
               "Vertex(0, 0,0,0) { Normal(0,0,1); Tangent(1,0,0); BiNormal(0,1,0);");
  EXPECT_EQ(first_error(ok), "");
  const std::string no_binormal = replaced(kCrate, "Vertex(0, 0,0,0) { Normal(0,0,1);",
                                           "Vertex(0, 0,0,0) { Normal(0,0,1); Tangent(1,0,0);");
  EXPECT_NE(first_error(no_binormal).find("without a BiNormal"), std::string::npos);
  const std::string no_normal = replaced(kCrate, "Vertex(0, 0,0,0) { Normal(0,0,1);",
                                         "Vertex(0, 0,0,0) { Tangent(1,0,0); BiNormal(0,1,0);");
  EXPECT_NE(first_error(no_normal).find("without a Normal"), std::string::npos);
  const std::string no_tangent = replaced(kCrate, "Vertex(0, 0,0,0) { Normal(0,0,1);",
                                          "Vertex(0, 0,0,0) { Normal(0,0,1); BiNormal(0,1,0);");
  EXPECT_NE(first_error(no_tangent).find("without a Tangent"), std::string::npos);
}

TEST(MeshCheck, C21_MaterialDefaults) {
  Result<MeshSource> mesh = parse_mesh_source(
      R"(Mesh("m") { Materials(3) { Material("a") {} Material("b") { Culling("none"); }
         Material("c") { Culling("all"); } } })",
      "m.mesh");
  ASSERT_TRUE(mesh) << mesh.error().message();
  const SourceMaterial& a = mesh->materials[0];
  EXPECT_EQ(a.fill, FillMode::kSolid);
  EXPECT_EQ(a.edges, EdgeMode::kNone);
  EXPECT_EQ(a.winding, Winding::kCounterClockwise);
  EXPECT_EQ(a.culling, Culling::kBack);
  EXPECT_FALSE(a.double_sided());
  EXPECT_TRUE(a.drawn());
  EXPECT_TRUE(mesh->materials[1].double_sided());
  EXPECT_FALSE(mesh->materials[2].drawn());
  EXPECT_NE(first_error(R"(Mesh("m") { Materials(1) { Material("a") { Culling("sideways"); } } })")
                .find("back, front, none, all"),
            std::string::npos);
}

TEST(MeshSource, WriterRoundTrips) {
  Result<MeshSource> mesh = parse_mesh_source(std::string(kCrate), "crate.mesh");
  ASSERT_TRUE(mesh);
  const std::string written = write_mesh_source(*mesh);
  Result<MeshSource> again = parse_mesh_source(written, "again.mesh");
  ASSERT_TRUE(again) << again.error().message() << "\n" << written;
  EXPECT_EQ(write_mesh_source(*again), written);
  EXPECT_EQ(again->vertices[2].bones[1].weight, 0.5f);
}

TEST(EntryPoints, MeshSourceBadInput) {
  EXPECT_FALSE(parse_mesh_source("", "x.mesh"));
  EXPECT_FALSE(parse_mesh_source("Mesh(", "x.mesh"));
  EXPECT_FALSE(parse_mesh_source("Mesh(\"a\") {} Mesh(\"b\") {}", "x.mesh"));
  EXPECT_FALSE(parse_mesh_source("Mesh(\"a\") { Vertices(-1) {} }", "x.mesh"));
  EXPECT_FALSE(parse_mesh_source(
      "Mesh(\"a\") { Vertices(1) { Vertex(0,0,0,0); } Triangles(1) { Triangle(\"m\",0,0,0); } }",
      "x.mesh"));
  EXPECT_FALSE(
      parse_mesh_source("Mesh(\"a\") { Skeleton(2) { Bone(\"a\") { Parent(\"b\"); } Bone(\"b\") { "
                        "Parent(\"a\"); } } }",
                        "x.mesh"));
}

}  // namespace
}  // namespace keel::assets
