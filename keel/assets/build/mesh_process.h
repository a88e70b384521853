// Mesh processing in the book's order (Golden Rules ch. 6): materials (what each needs, sub-mesh
// split by those needs, never-drawn materials dropped), vertex pruning, compression with scale
// and bias into a per-sub-mesh vertex declaration, sorting triangles by material, and faces
// (meshoptimizer's cache/overdraw/fetch optimisers plus its stripifier by default, the book's
// stripper, or an optimised list). encode_mesh writes the chunk keel/assets/mesh.h reads.
#pragma once

#include "keel/assets/build/mesh_source.h"
#include "keel/assets/build/strip.h"
#include "keel/assets/mesh.h"
#include "keel/core/bytes.h"
#include "keel/core/error.h"

#include <string>
#include <vector>

namespace keel::assets {

enum class FaceMode : u8 {
  kMeshopt,  // meshopt vertex cache + overdraw + vertex fetch, then meshopt_stripify (default)
  kBook,     // the book's stripper (strip.h) with its re-ordering
  kList,     // meshopt-optimised triangle list
};

struct MeshBuildOptions {
  bool compress = true;
  bool split_streams = true;         // position+bones / normal, colour, texcoords / bump
  float position_tolerance = 0.01f;  // largest error allowed per axis, in model units
  float texcoord_tolerance = 1.0f / 256.0f;
  FaceMode faces = FaceMode::kMeshopt;
  StripOptions strip;                // for FaceMode::kBook
  float overdraw_threshold = 1.05f;  // meshopt_optimizeOverdraw's ACMR allowance
};

// The data of one sub-mesh before encoding: streams as bytes, indices as u32.
struct BuiltSubMesh {
  VertexDeclaration declaration;
  u32 vertex_count = 0;
  std::vector<ByteBuffer> streams;
  Primitive primitive = Primitive::kTriangleList;
  std::vector<u32> indices;
  std::vector<MeshDraw> draws;
};

struct BuiltMesh {
  std::string name;
  std::vector<MeshMaterial> materials;
  std::vector<std::string> material_names;
  std::vector<MeshBone> bones;
  std::vector<BuiltSubMesh> submeshes;
};

// A run of consecutive triangles with one material (Table 6.3: one material change + one draw).
struct MaterialRun {
  u32 material = 0;
  u32 triangles = 0;
};
std::vector<MaterialRun> material_runs(std::span<const SourceTriangle> triangles);
// Stable sort by material: the runs become one per material.
std::vector<SourceTriangle> sort_by_material(std::span<const SourceTriangle> triangles);
// Rendering commands for runs: a material change and a draw each.
inline usize command_count(std::span<const MaterialRun> runs) { return runs.size() * 2; }

// What each material needs from a vertex (the pruning rule, reported for artists).
struct ElementNeeds {
  bool normal = false;
  bool bump = false;  // tangent + binormal
  u32 texcoords = 0;  // bit per channel
  bool operator==(const ElementNeeds&) const = default;
};
ElementNeeds needs_of(const SourceMaterial& material);

Result<BuiltMesh> process_mesh(const MeshSource& source, const MeshBuildOptions& options = {});
ByteBuffer encode_mesh(const BuiltMesh& mesh);

}  // namespace keel::assets
