// Mesh("name", "file") end to end: command file -> intermediate -> data file -> Mesh::parse, and
// the importers on the sample files in data/assets/meshes.
#include "keel/assets/build/asset_handlers.h"
#include "keel/assets/build/mesh_import.h"
#include "keel/assets/build/preview.h"
#include "keel/assets/mesh.h"
#include "keel/core/file.h"
#include "keel/pack/pack_file.h"
#include "keel/pipeline/builder.h"
#include "keel/pipeline/testing/test_project.h"

#include <gtest/gtest.h>

namespace keel::assets {
namespace {

namespace fs = std::filesystem;

std::string sample(std::string_view file) {
  Result<std::string> text =
      read_file(fs::path(KEEL_SOURCE_DIR) / "data/assets/meshes" / std::string(file));
  EXPECT_TRUE(text) << file;
  return text ? *text : std::string();
}

class MeshHandler : public ::testing::Test {
 protected:
  MeshHandler()
      : files_(fs::path(KEEL_TEST_TMPDIR) / "mesh_handler" /
               ::testing::UnitTest::GetInstance()->current_test_info()->name()) {
    files_.write("project.kproj",
                 "Platform(\"PC\");\nIncludePath(\"src\");\nDataFile(\"main.kcmd\");\n");
    for (std::string_view f : {"knot.obj", "knot.mtl", "sphere.gltf", "crate.mesh"}) {
      files_.write(fmt::format("src/meshes/{}", f), sample(f));
    }
    register_asset_handlers(handlers_);
  }

  bool build(std::string_view commands) {
    files_.write("main.kcmd", commands);
    text::Diagnostics diag;
    project_ = pipeline::load_project(files_.path("project.kproj"), diag);
    EXPECT_TRUE(project_) << diag.render();
    pipeline::testing::RecordingObserver observer;
    pipeline::Builder builder(*project_, handlers_, {}, &observer);
    Result<pipeline::DataFileReport> r = builder.build("PC", "main.kcmd");
    messages_ = observer.messages;
    return r && r->failed == 0;
  }

  Result<pack::PackFile> pack() const {
    return pack::PackFile::open(files_.path("build/image/PC/main.kpk"));
  }

  pipeline::testing::TestProject files_;
  pipeline::HandlerRegistry handlers_;
  std::optional<pipeline::Project> project_;
  std::string messages_;
};

TEST_F(MeshHandler, BuildsEverySourceKindAndEveryFaceMode) {
  ASSERT_TRUE(build(R"(
    Mesh("knot", "meshes/knot.obj");
    Mesh("knot_book", "meshes/knot.obj") { Faces("book"); Cache("fifo", 16); }
    Mesh("sphere", "meshes/sphere.gltf") { Faces("list"); }
    Mesh("crate", "meshes/crate.mesh") { Faces("book"); StripLimit(64, 0); Compress("off"); }
  )")) << messages_;
  Result<pack::PackFile> p = pack();
  ASSERT_TRUE(p) << p.error().to_string();
  for (std::string_view name : {"knot", "knot_book", "sphere", "crate"}) {
    const pack::PackItem* item = p->find_item(name);
    ASSERT_NE(item, nullptr) << name;
    Result<ByteBuffer> bytes = p->read_chunk(item->name_hash, item->primary);
    ASSERT_TRUE(bytes);
    Result<Mesh> mesh = Mesh::parse(*bytes);
    ASSERT_TRUE(mesh) << name << ": " << mesh.error().to_string();
    EXPECT_FALSE(mesh->submeshes().empty()) << name;
    Result<Picture> picture = picture_of_mesh(*p, name);
    ASSERT_TRUE(picture) << picture.error().to_string();
    EXPECT_GT(picture->width, 0u);
    // For people: the picture beside the test's files (PNG once write_png is available).
    (void)write_png(*picture, files_.path(fmt::format("{}.png", name)));
    files_.write(fmt::format("{}.rgba", name),
                 std::string_view(reinterpret_cast<const char*>(picture->rgba.data()),
                                  picture->rgba.size()));
    if (name == "crate") {
      EXPECT_EQ(mesh->submeshes().size(), 2u);  // plain and bump-mapped
      EXPECT_EQ(mesh->bones().size(), 2u);
    }
  }
}

TEST_F(MeshHandler, ReportsLocatedErrors) {
  EXPECT_FALSE(build("Mesh(\"a\", \"meshes/missing.obj\");\n"));
  EXPECT_NE(messages_.find("main.kcmd:1"), std::string::npos) << messages_;
  EXPECT_FALSE(build("Mesh(\"a\", \"meshes/knot.obj\") { Faces(\"zigzag\"); }\n"));
  EXPECT_NE(messages_.find("meshopt, book, list"), std::string::npos) << messages_;
  files_.write("src/meshes/bad.mesh", "Mesh(\"bad\") { Vertices(2) { Vertex(0, 0, 0, 0); } }\n");
  EXPECT_FALSE(build("Mesh(\"a\", \"meshes/bad.mesh\");\n"));
  EXPECT_NE(messages_.find("bad.mesh:1"), std::string::npos) << messages_;
}

TEST(MeshImport, ObjAndGltfSamples) {
  Result<MeshSource> knot = import_obj(sample("knot.obj"), sample("knot.mtl"), "knot");
  ASSERT_TRUE(knot) << knot.error().message();
  EXPECT_EQ(knot->triangles.size(), 96u * 8 * 2);
  EXPECT_EQ(knot->vertices.size(), 96u * 8);
  ASSERT_EQ(knot->materials.size(), 1u);
  EXPECT_EQ(knot->materials[0].name, "brass");
  EXPECT_NE(knot->materials[0].property("specular"), nullptr);
  EXPECT_TRUE(knot->vertices[0].normal.has_value());
  const std::string sphere_text = sample("sphere.gltf");
  Result<MeshSource> sphere = import_gltf(as_bytes(sphere_text), "", "sphere");
  ASSERT_TRUE(sphere) << sphere.error().message();
  EXPECT_EQ(sphere->vertices.size(), 13u * 25);
  EXPECT_EQ(sphere->triangles.size(), 12u * 24 * 2 - 2 * 24);
  EXPECT_EQ(sphere->materials[0].name, "globe");
  // Imported meshes survive the intermediate format's writer and parser.
  EXPECT_TRUE(parse_mesh_source(write_mesh_source(*sphere), "sphere.mesh"));
  EXPECT_TRUE(parse_mesh_source(write_mesh_source(*knot), "knot.mesh"));
}

TEST(EntryPoints, MeshImportBadInput) {
  EXPECT_FALSE(import_obj("f 1 2 3\n", "", "x"));
  EXPECT_FALSE(import_gltf(as_bytes(std::string_view("{")), "", "x"));
  EXPECT_FALSE(import_gltf({}, "", "x"));
  Result<MeshSource> empty = import_obj("", "", "x");
  ASSERT_TRUE(empty);
  EXPECT_TRUE(empty->triangles.empty());
}

}  // namespace
}  // namespace keel::assets
