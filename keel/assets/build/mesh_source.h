// The book's text intermediate mesh format (Golden Rules ch. 6): what an exporter dumps without
// processing - skeleton, materials with properties, vertices with their optional data, triangles.
//
//   Mesh("Crate") {
//     Skeleton(1) { Bone("root") { Position(0,0,0); Rotation(0,0,0,1); } }
//     Materials(1) { Material("wood") { Culling("back"); Property("diffuse") { Texture(0,"c.tga");
//     } } } Vertices(3) { Vertex(0, 0,0,0) { Normal(0,0,1); TexCoord(0,0,0); Bone("root",1); } ...
//     } Triangles(1) { Triangle("wood", 0, 1, 2); }
//   }
//
// Colours (vertex and property) are 0..255 per channel, like the texture command's Color.
#pragma once

#include "keel/core/error.h"
#include "keel/core/types.h"
#include "keel/text/diagnostics.h"

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace keel::assets {

using Vec3 = std::array<float, 3>;
using Vec4 = std::array<float, 4>;

struct SourceBone {
  std::string name;
  std::string parent;  // empty for a root
  s32 parent_index = -1;
  Vec3 position{};
  Vec4 rotation{0, 0, 0, 1};  // quaternion x, y, z, w
};

enum class FillMode : u8 { kSolid, kNone };
enum class EdgeMode : u8 { kNone, kSolid };
enum class Winding : u8 { kCounterClockwise, kClockwise };
enum class Culling : u8 { kBack, kFront, kNone, kAll };  // kNone: double-sided; kAll: never drawn

struct SourceProperty {
  std::string name;  // diffuse, ambient, specular, bump, reflection, emissive, ...
  float amount = 100.0f;
  s32 texture_channel = -1;  // -1: no texture
  std::string texture;
  std::optional<Vec4> color;
};

struct SourceMaterial {
  std::string name;
  FillMode fill = FillMode::kSolid;
  EdgeMode edges = EdgeMode::kNone;
  Winding winding = Winding::kCounterClockwise;
  Culling culling = Culling::kBack;
  std::vector<SourceProperty> properties;

  const SourceProperty* property(std::string_view name) const;
  bool double_sided() const { return culling == Culling::kNone; }
  bool drawn() const { return culling != Culling::kAll; }
  // Keel's supported subset: a material responds to lighting when it has a diffuse, ambient,
  // specular, bump or reflection property; it needs tangents and binormals when it has bump.
  bool lit() const;
  bool bump_mapped() const { return property("bump") != nullptr; }
};

struct SourceTexCoord {
  u32 channel = 0;
  float u = 0, v = 0;
};
struct SourceColor {
  std::string type;  // diffuse, specular, ambient, ...
  Vec4 rgba{};
};
struct SourceInfluence {
  std::string bone;
  s32 bone_index = -1;
  float weight = 0;
};

struct SourceVertex {
  Vec3 position{};
  std::optional<Vec3> normal;
  std::vector<SourceTexCoord> texcoords;
  std::vector<SourceColor> colors;
  std::vector<SourceInfluence> bones;
  std::optional<Vec3> tangent;
  std::optional<Vec3> binormal;

  const SourceTexCoord* texcoord(u32 channel) const;
  const SourceColor* color(std::string_view type) const;
};

struct SourceTriangle {
  u32 material = 0;  // index into MeshSource::materials
  std::array<u32, 3> v{};
  std::optional<Vec3> normal;
};

struct MeshSource {
  std::string name;
  std::vector<SourceBone> bones;
  std::vector<SourceMaterial> materials;
  std::vector<SourceVertex> vertices;
  std::vector<SourceTriangle> triangles;

  s32 find_material(std::string_view name) const;
  s32 find_bone(std::string_view name) const;
};

// Parses one Mesh("name") { ... } block; every problem is a located error in `diagnostics`
// (several per file). nullopt when there was any error.
std::optional<MeshSource> parse_mesh_source(std::string text, std::string filename,
                                            text::Diagnostics& diagnostics);
// The same, with the first error as the result.
Result<MeshSource> parse_mesh_source(std::string text, std::string filename);

// Writes the format back; parsing the result gives an equal MeshSource (floats round-trip).
std::string write_mesh_source(const MeshSource& mesh);

}  // namespace keel::assets
