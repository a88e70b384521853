#include "keel/assets/build/mesh_process.h"

#include "keel/assets/build/mesh_compress.h"
#include "keel/core/file.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <random>

namespace keel::assets {
namespace {

SourceMaterial material(std::string name, std::vector<std::string> properties, s32 channel = -1) {
  SourceMaterial m;
  m.name = std::move(name);
  for (std::string& p : properties) {
    SourceProperty prop;
    prop.name = std::move(p);
    prop.texture_channel = channel;
    m.properties.push_back(prop);
  }
  return m;
}

// A quad grid of `n` x `n` cells with every vertex element filled in.
MeshSource full_mesh(u32 n, float extent, std::vector<SourceMaterial> materials) {
  MeshSource m;
  m.name = "grid";
  m.materials = std::move(materials);
  for (u32 y = 0; y <= n; ++y) {
    for (u32 x = 0; x <= n; ++x) {
      SourceVertex v;
      const float fx = static_cast<float>(x) / static_cast<float>(n);
      const float fy = static_cast<float>(y) / static_cast<float>(n);
      v.position = {fx * extent, fy * extent, 0.25f * extent * fx * fy};
      v.normal = Vec3{0, 0, 1};
      v.tangent = Vec3{1, 0, 0};
      v.binormal = Vec3{0, 1, 0};
      v.texcoords = {{0, fx, fy}, {1, fy, fx}};
      v.colors = {{"diffuse", {255 * fx, 128, 255 * fy, 255}}};
      m.vertices.push_back(v);
    }
  }
  for (u32 y = 0; y < n; ++y) {
    for (u32 x = 0; x < n; ++x) {
      const u32 a = y * (n + 1) + x, b = a + 1, c = a + n + 1, d = c + 1;
      const u32 mat = static_cast<u32>((x + y) % m.materials.size());
      m.triangles.push_back({mat, {a, b, c}, {}});
      m.triangles.push_back({mat, {b, d, c}, {}});
    }
  }
  return m;
}

const SubMesh& only_submesh(const Result<Mesh>& mesh) {
  EXPECT_TRUE(mesh) << mesh.error().message();
  EXPECT_EQ(mesh->submeshes().size(), 1u);
  return mesh->submeshes()[0];
}

TEST(MeshCheck, C22_NormalsPrunedWhenNothingIsLit) {
  MeshBuildOptions raw;
  raw.compress = false;
  const BuiltMesh lit = *process_mesh(full_mesh(4, 1, {material("m", {"diffuse"}, 0)}), raw);
  const BuiltMesh unlit = *process_mesh(full_mesh(4, 1, {material("m", {"emissive"}, 0)}), raw);
  EXPECT_NE(lit.submeshes[0].declaration.find(VertexSemantic::kNormal), nullptr);
  EXPECT_EQ(unlit.submeshes[0].declaration.find(VertexSemantic::kNormal), nullptr);
  EXPECT_EQ(
      lit.submeshes[0].declaration.vertex_size() - unlit.submeshes[0].declaration.vertex_size(),
      12u);
}

TEST(MeshCheck, C23_SubMeshSplitSavesTheBumpWaste) {
  MeshSource m;
  m.materials = {material("plain", {"diffuse"}), material("bumpy", {"diffuse", "bump"})};
  for (u32 i = 0; i < 10000; ++i) {
    SourceVertex v;
    v.position = {static_cast<float>(i % 100), static_cast<float>(i / 100), 0};
    v.normal = Vec3{0, 0, 1};
    if (i >= 9900) {
      v.tangent = Vec3{1, 0, 0};
      v.binormal = Vec3{0, 1, 0};
    }
    m.vertices.push_back(v);
  }
  for (u32 i = 0; i + 2 < 9900; ++i) m.triangles.push_back({0, {i, i + 1, i + 2}, {}});
  for (u32 i = 9900; i + 2 < 10000; ++i) m.triangles.push_back({1, {i, i + 1, i + 2}, {}});
  MeshBuildOptions raw;
  raw.compress = false;
  raw.faces = FaceMode::kList;
  const Result<BuiltMesh> built = process_mesh(m, raw);
  ASSERT_TRUE(built);
  ASSERT_EQ(built->submeshes.size(), 2u);
  const BuiltSubMesh& plain = built->submeshes[0];
  const BuiltSubMesh& bump = built->submeshes[1];
  EXPECT_EQ(plain.declaration.find(VertexSemantic::kTangent), nullptr);
  ASSERT_NE(bump.declaration.find(VertexSemantic::kTangent), nullptr);
  EXPECT_NE(bump.declaration.find(VertexSemantic::kBinormal), nullptr);
  EXPECT_EQ(plain.vertex_count, 9900u);
  EXPECT_EQ(bump.vertex_count, 100u);
  const u32 bump_bytes = bump.declaration.vertex_size() - plain.declaration.vertex_size();
  EXPECT_EQ(bump_bytes, 24u);
  EXPECT_EQ(static_cast<u64>(plain.vertex_count) * bump_bytes, 237600u);  // the unsplit waste
}

TEST(MeshCheck, C24_Table62VertexSizes) {
  const std::vector<SourceMaterial> mats{material("m", {"diffuse", "bump"}, 0),
                                         material("n", {"specular"}, 1)};
  MeshBuildOptions raw;
  raw.compress = false;
  raw.split_streams = false;
  MeshSource src = full_mesh(4, 1, mats);
  for (SourceMaterial& m : src.materials) {
    m.properties.push_back(material("x", {"ambient", "bump"}, 0).properties[1]);
    m.properties.push_back(material("x", {"ambient"}, 1).properties[0]);
  }
  const BuiltMesh big = *process_mesh(src, raw);
  ASSERT_EQ(big.submeshes.size(), 1u);
  EXPECT_EQ(big.submeshes[0].declaration.vertex_size(), 68u);
  MeshBuildOptions packed;
  packed.split_streams = false;
  const BuiltMesh small = *process_mesh(src, packed);
  const VertexDeclaration& d = small.submeshes[0].declaration;
  EXPECT_EQ(d.vertex_size(), 24u);
  const std::vector<std::pair<VertexSemantic, VertexType>> layout{
      {VertexSemantic::kPosition, VertexType::kPacked101010},
      {VertexSemantic::kNormal, VertexType::kPacked101010},
      {VertexSemantic::kDiffuse, VertexType::kColorA8R8G8B8},
      {VertexSemantic::kTexCoord, VertexType::kUNorm8x2},
      {VertexSemantic::kTexCoord, VertexType::kUNorm8x2},
      {VertexSemantic::kTangent, VertexType::kPacked101010},
      {VertexSemantic::kBinormal, VertexType::kPacked101010}};
  ASSERT_EQ(d.elements.size(), layout.size());
  u32 offset = 0;
  for (usize i = 0; i < layout.size(); ++i) {
    EXPECT_EQ(d.elements[i].semantic, layout[i].first) << i;
    EXPECT_EQ(d.elements[i].type, layout[i].second) << i;
    EXPECT_EQ(d.elements[i].offset, offset) << i;
    offset += vertex_type_size(d.elements[i].type);
  }
}

TEST(MeshCheck, C25_ScaleAndBias) {
  const ScaleBias x = scale_bias(0, 10, -1, 1);
  EXPECT_FLOAT_EQ(x.scale, 5);
  EXPECT_FLOAT_EQ(x.bias, 5);
  EXPECT_FLOAT_EQ(x.compress(0), -1);
  EXPECT_FLOAT_EQ(x.compress(10), 1);
  EXPECT_FLOAT_EQ(x.compress(2.5f), -0.5f);
  EXPECT_FLOAT_EQ(x.decompress(-0.5f), 2.5f);
  const ScaleBias u = scale_bias(-2, 2, 0, 1);
  EXPECT_FLOAT_EQ(u.scale, 4);
  EXPECT_FLOAT_EQ(u.bias, -2);
  // The book's worked numbers: 2.5 quantises to 256 and decodes to 2.5024.
  EXPECT_EQ(pack_101010({x.compress(2.5f), -1, -1}) & 1023u, 256u);
  EXPECT_NEAR(x.decompress(unpack_101010(256)[0]), 2.5024f, 1e-4f);
}

TEST(MeshCheck, C26_DegenerateAxis) {
  const ScaleBias d = scale_bias(3, 3, -1, 1, 1e-4f);
  EXPECT_GT(d.scale, 0.0f);
  EXPECT_TRUE(std::isfinite(d.compress(3)));
  EXPECT_NEAR(d.decompress(d.compress(3)), 3.0f, 1e-4f);
  EXPECT_NEAR(d.decompress(unpack_101010(pack_101010({d.compress(3), 0, 0}))[0]), 3.0f, 1e-4f);
}

TEST(MeshCheck, C27_QuantisationRoundTrip) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> pos(-40.0f, 25.0f);
  const std::array<ScaleBias, 3> sb{scale_bias(-40, 25, -1, 1), scale_bias(-40, 25, -1, 1),
                                    scale_bias(-40, 25, -1, 1)};
  for (int i = 0; i < 1000; ++i) {
    const std::array<float, 3> p{pos(rng), pos(rng), pos(rng)};
    const u32 word =
        pack_101010({sb[0].compress(p[0]), sb[1].compress(p[1]), sb[2].compress(p[2])});
    EXPECT_EQ(word >> 30, 0u);
    const std::array<float, 3> q = unpack_101010(word);
    for (u32 a = 0; a < 3; ++a) {
      EXPECT_LE(std::fabs(sb[a].decompress(q[a]) - p[a]), sb[a].scale / 1023.0f * 1.0001f);
    }
  }
  std::uniform_real_distribution<float> uv(0.0f, 1.0f);
  const ScaleBias t = scale_bias(0, 1, 0, 1);
  for (int i = 0; i < 1000; ++i) {
    const float u = uv(rng);
    const float back = t.decompress(static_cast<float>(quantize_unorm8(t.compress(u))) / 255.0f);
    EXPECT_LE(std::fabs(back - u), t.scale * 0.5f / 255.0f * 1.0001f);
  }
}

TEST(MeshCheck, C28_PerMeshDeclarationReadsBack) {
  const std::vector<SourceMaterial> mats{material("m", {"diffuse"}, 0)};
  MeshBuildOptions options;
  options.faces = FaceMode::kList;
  const MeshSource small_src = full_mesh(3, 1.0f, mats);
  const MeshSource big_src = full_mesh(3, 1000.0f, mats);
  const ByteBuffer small_bytes = encode_mesh(*process_mesh(small_src, options));
  const ByteBuffer big_bytes = encode_mesh(*process_mesh(big_src, options));
  const Result<Mesh> small = Mesh::parse(small_bytes);
  const Result<Mesh> big = Mesh::parse(big_bytes);
  const SubMesh& s = only_submesh(small);
  const SubMesh& b = only_submesh(big);
  EXPECT_NE(s.declaration.find(VertexSemantic::kPosition)->type,
            b.declaration.find(VertexSemantic::kPosition)->type);
  EXPECT_NE(s.declaration.strides[0], b.declaration.strides[0]);
  for (const auto* pair : {&small, &big}) {
    const SubMesh& sub = (*pair)->submeshes()[0];
    const MeshSource& src = pair == &small ? small_src : big_src;
    for (u32 st = 0; st < sub.declaration.strides.size(); ++st) {
      u32 sum = 0;
      for (const VertexElement& e : sub.declaration.elements) {
        if (e.stream == st) sum += vertex_type_size(e.type);
      }
      EXPECT_EQ(sum, sub.declaration.strides[st]);
    }
    // Every triangle reads back at its source positions (within the element's precision).
    const float tolerance = pair == &small ? 1.0f / 1023 : 1000.0f / 65535;
    ASSERT_EQ(sub.index_count(), src.triangles.size() * 3);
    for (u32 i = 0; i < sub.index_count(); ++i) {
      const std::array<float, 4> p = sub.read(VertexSemantic::kPosition, sub.index(i));
      const std::array<float, 4> uv = sub.read(VertexSemantic::kTexCoord, sub.index(i));
      bool found = false;
      for (const SourceVertex& v : src.vertices) {
        if (std::fabs(v.position[0] - p[0]) <= tolerance &&
            std::fabs(v.position[1] - p[1]) <= tolerance &&
            std::fabs(v.position[2] - p[2]) <= tolerance) {
          found = std::fabs(v.texcoords[0].u - uv[0]) <= 0.5f / 255 + 1e-6f;
          if (found) break;
        }
      }
      EXPECT_TRUE(found) << "index " << i;
    }
  }
}

TEST(MeshCheck, C29_MaterialSortingTable63) {
  std::vector<SourceTriangle> tris;
  for (int i = 0; i < 13; ++i) tris.push_back({0, {0, 1, 2}, {}});
  for (int i = 0; i < 15; ++i) tris.push_back({1, {0, 1, 2}, {}});
  for (int i = 0; i < 12; ++i) tris.push_back({0, {0, 1, 2}, {}});
  const std::vector<MaterialRun> before = material_runs(tris);
  ASSERT_EQ(before.size(), 3u);
  EXPECT_EQ(command_count(before), 6u);
  const std::vector<MaterialRun> after = material_runs(sort_by_material(tris));
  ASSERT_EQ(after.size(), 2u);
  EXPECT_EQ(after[0].material, 0u);
  EXPECT_EQ(after[0].triangles, 25u);
  EXPECT_EQ(after[1].triangles, 15u);
  EXPECT_EQ(command_count(after), 4u);
}

TEST(MeshProcess, EveryFaceModeDrawsTheSameTriangles) {
  const MeshSource src =
      full_mesh(6, 2.0f, {material("a", {"diffuse"}, 0), material("b", {"diffuse"}, 0)});
  for (FaceMode mode : {FaceMode::kMeshopt, FaceMode::kBook, FaceMode::kList}) {
    MeshBuildOptions options;
    options.faces = mode;
    options.compress = false;
    const ByteBuffer bytes = encode_mesh(*process_mesh(src, options));
    const Result<Mesh> mesh = Mesh::parse(bytes);
    const SubMesh& sub = only_submesh(mesh);
    ASSERT_EQ(sub.draws.size(), 2u);  // one per material
    usize real = 0;
    for (const MeshDraw& d : sub.draws) {
      std::vector<u32> run;
      for (u32 i = d.first_index; i < d.first_index + d.index_count; ++i)
        run.push_back(sub.index(i));
      if (sub.primitive == Primitive::kTriangleList) {
        real += run.size() / 3;
      } else {
        for (const Triangle& t : decode_strip(run)) real += is_degenerate(t) ? 0 : 1;
      }
    }
    EXPECT_EQ(real, src.triangles.size());
  }
}

TEST(MeshProcess, SmallChunkParses) {
  // Also the seed of fuzz/corpus/mesh (copied from the test's folder).
  MeshBuildOptions options;
  options.faces = FaceMode::kBook;
  const ByteBuffer bytes = encode_mesh(
      *process_mesh(full_mesh(2, 3.0f, {material("m", {"diffuse", "bump"}, 0)}), options));
  EXPECT_TRUE(Mesh::parse(bytes));
  const std::filesystem::path dir = std::filesystem::path(KEEL_TEST_TMPDIR) / "mesh_process";
  std::filesystem::create_directories(dir);
  EXPECT_TRUE(write_file_atomic(dir / "grid.bin", bytes));
}

TEST(EntryPoints, MeshProcessBadInput) {
  MeshSource bad;
  bad.materials = {material("m", {})};
  bad.triangles = {{0, {0, 1, 2}, {}}};
  EXPECT_FALSE(process_mesh(bad));
  bad.vertices.resize(3);
  bad.triangles[0].material = 4;
  EXPECT_FALSE(process_mesh(bad));
  const Result<BuiltMesh> empty = process_mesh(MeshSource{});
  ASSERT_TRUE(empty);
  EXPECT_TRUE(Mesh::parse(encode_mesh(*empty)));
}

}  // namespace
}  // namespace keel::assets
