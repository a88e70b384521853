// The load-ready mesh chunk and its runtime view (Golden Rules ch. 6): per sub-mesh a data-driven
// vertex declaration (element, type, stream, offset, scale and bias), vertex streams with their
// strides, index data as a triangle list or stitched strips, and draws sorted by material.
//
//   keel::Result<keel::assets::Mesh> mesh = keel::assets::Mesh::parse(chunk_bytes);
//   for (const SubMesh& sub : mesh->submeshes()) {
//     // bind sub.streams[s] with sub.declaration.strides[s]; then per draw:
//     for (const MeshDraw& d : sub.draws) draw(sub.primitive, sub.indices, d.first_index, ...);
//   }
//
// Compressed elements decode as element = expanded * scale + bias (Eq. 6.6), where `expanded` is
// what the hardware makes of the stored type (Table 6.1); decode_element does it on the CPU.
// Chunk layout (little-endian, 4-byte aligned): header; materials; bones; per sub-mesh a header,
// stream strides, elements, draws, the streams' bytes and the indices. Mesh::parse checks every
// count, offset, type and index against the chunk and returns a located error otherwise.
#pragma once

#include "keel/core/bytes.h"
#include "keel/core/error.h"
#include "keel/core/hash.h"
#include "keel/core/types.h"

#include <array>
#include <vector>

namespace keel::assets {

inline constexpr u32 kMeshMagic = 0x48534D4Bu;  // "KMSH"
inline constexpr u32 kMeshVersion = 1;
inline constexpr u32 kMaxVertexStreams = 4;
inline constexpr u32 kMaxVertexElements = 32;

enum class VertexSemantic : u8 {
  kPosition,
  kNormal,
  kDiffuse,
  kTexCoord,
  kTangent,
  kBinormal,
  kBoneIndices,
  kBoneWeights,
  kCount
};

enum class VertexType : u8 {
  kFloat2,
  kFloat3,
  kFloat4,
  kUNorm8x2,   // Table 6.1 u8: 0..255 -> 0..1
  kUNorm16x2,  // u16: 0..65535 -> 0..1
  kUNorm16x3,
  kPacked101010,   // u32:10:10:10, x bits 0-9, y 10-19, z 20-29: 0..1023 -> -1..1
  kColorA8R8G8B8,  // A bits 24-31, R 16-23, G 8-15, B 0-7 -> r, g, b, a in 0..1
  kUInt8x4,        // four small integers (bone indices)
  kUNorm8x4,       // four 0..1 values (bone weights)
  kCount
};

u32 vertex_type_size(VertexType type);
u32 vertex_type_components(VertexType type);
const char* to_string(VertexSemantic semantic);
const char* to_string(VertexType type);

struct VertexElement {
  VertexSemantic semantic = VertexSemantic::kPosition;
  u8 channel = 0;  // texture-coordinate channel
  VertexType type = VertexType::kFloat3;
  u8 stream = 0;
  u32 offset = 0;  // bytes from the start of the vertex in its stream
  std::array<float, 3> scale{1, 1, 1};
  std::array<float, 3> bias{0, 0, 0};
};

struct VertexDeclaration {
  std::vector<VertexElement> elements;
  std::vector<u32> strides;  // one per stream: the summed sizes of its elements

  const VertexElement* find(VertexSemantic semantic, u8 channel = 0) const;
  u32 vertex_size() const;  // all streams together
};

// Element `e` of vertex `vertex` in its stream's bytes: up to 4 values (unused ones 0).
std::array<float, 4> decode_element(const VertexElement& e, ByteSpan stream, u32 stride,
                                    u32 vertex);

enum class Primitive : u8 { kTriangleList, kTriangleStrip };

// One draw: a run of indices with one material; its vertices are [first_vertex, +vertex_count).
struct MeshDraw {
  u32 material = 0;
  u32 first_index = 0;
  u32 index_count = 0;
  u32 first_vertex = 0;
  u32 vertex_count = 0;
};

struct MeshMaterial {
  Hash name_hash = 0;
  u8 fill = 0;     // 0 solid, 1 none
  u8 edges = 0;    // 0 none, 1 solid
  u8 winding = 0;  // 0 counterclockwise, 1 clockwise
  u8 culling = 0;  // 0 back, 1 front, 2 none (double-sided), 3 all (never drawn)
};

struct MeshBone {
  Hash name_hash = 0;
  s32 parent = -1;
  std::array<float, 3> position{};
  std::array<float, 4> rotation{0, 0, 0, 1};
};

struct SubMesh {
  VertexDeclaration declaration;
  u32 vertex_count = 0;
  Primitive primitive = Primitive::kTriangleList;
  u32 index_size = 2;             // bytes per index: 2 or 4
  std::vector<ByteSpan> streams;  // one per declaration stride, views into the chunk
  ByteSpan indices;
  std::vector<MeshDraw> draws;

  u32 index_count() const { return static_cast<u32>(indices.size() / index_size); }
  u32 index(u32 i) const;
  // Decoded element of a vertex; all zeros when the declaration has no such element.
  std::array<float, 4> read(VertexSemantic semantic, u32 vertex, u8 channel = 0) const;
};

// A view over a mesh chunk: the vectors are small (declarations, draws); vertex and index bytes
// stay in the chunk, which must outlive the view.
class Mesh {
 public:
  static Result<Mesh> parse(ByteSpan chunk);

  Hash name_hash() const { return name_hash_; }
  const std::vector<MeshMaterial>& materials() const { return materials_; }
  const std::vector<MeshBone>& bones() const { return bones_; }
  const std::vector<SubMesh>& submeshes() const { return submeshes_; }

 private:
  Hash name_hash_ = 0;
  std::vector<MeshMaterial> materials_;
  std::vector<MeshBone> bones_;
  std::vector<SubMesh> submeshes_;
};

}  // namespace keel::assets
