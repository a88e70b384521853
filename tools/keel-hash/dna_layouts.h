// The book's two DNA layouts (a worked example that keel-hash prints, not an engine feature): the
// 32-bit vertex-shader DNA (Table 3.2) and the 17-bit material DNA (Table 3.3), as DnaLayouts plus
// typed structs that encode to and decode from them.
//
//   VertexShaderDna vs;  vs.lights[0] = LightMode::kPointSpecular;  vs.bones = 3;
//   vs.tex_coords[0] = TexCoordSource::kInputSet0;  vs.fog = true;
//   u32 code = encode(vs);                                  // 0x40013002
//   Result<VertexShaderDna> back = decode_vertex_shader(code);
//
// The book does not number the five light states; Keel uses 0 off, 1 point, 2 point+specular,
// 3 directional, 4 directional+specular (5..7 are illegal). Table 3.2 has no tangent bit although
// the text mentions tangents: the table is followed (its 32 bits are full).
#pragma once

#include "keel/core/error.h"
#include "keel/core/types.h"
#include "keel/hashing/dna.h"

#include <array>

namespace keel::hash_tool {

using hashing::DnaField;
using hashing::DnaLayout;

enum class LightMode : u8 {
  kOff = 0,
  kPoint = 1,
  kPointSpecular = 2,
  kDirectional = 3,
  kDirectionalSpecular = 4,
};

// Table 3.1: where an output texture-coordinate set comes from.
enum class TexCoordSource : u8 {
  kDisabled = 0,
  kPosition = 1,    // position transformed by the stage's matrix
  kNormal = 2,      // normal transformed by the matrix
  kReflection = 3,  // reflection vector transformed by the matrix
  kInputSet0 = 4,
  kInputSet1 = 5,
  kInputSet2 = 6,
  kInputSet3 = 7,
};

struct VertexShaderDna {
  std::array<LightMode, 4> lights{};           // bits 0-2, 3-5, 6-8, 9-11
  u8 bones = 0;                                // bits 12-13: 0..3 bones per vertex
  std::array<TexCoordSource, 4> tex_coords{};  // bits 14-16, 17-19, 20-22, 23-25
  bool packed = false;                         // bit 26
  bool diffuse = false;                        // bit 27
  bool normals = false;                        // bit 28
  bool binormals = false;                      // bit 29
  bool fog = false;                            // bit 30
  bool specular = false;                       // bit 31
  friend bool operator==(const VertexShaderDna&, const VertexShaderDna&) = default;
};

struct MaterialDna {
  u8 type = 0;               // bits 0-7: material type id
  bool fog = false;          // bit 8
  bool z_test = false;       // bit 9
  bool z_write = false;      // bit 10
  u8 rgb_write = 0;          // bits 11-13: one bit per channel (R = 1, G = 2, B = 4)
  bool alpha_write = false;  // bit 14
  bool alpha_test = false;   // bit 15
  bool stencil = false;      // bit 16
  friend bool operator==(const MaterialDna&, const MaterialDna&) = default;
};

// Field order: light0..3, bones, tex0..3, packed, diffuse, normals, binormals, fog, specular.
const DnaLayout& vertex_shader_layout();
// Field order: type, fog, z_test, z_write, rgb_write, alpha_write, alpha_test, stencil.
const DnaLayout& material_layout();

// Fails (kOutOfRange) when a field holds an illegal value (a light mode > 4, bones > 3, ...).
Result<u32> encode(const VertexShaderDna& dna);
Result<u32> encode(const MaterialDna& dna);
// Fails for illegal codes (light values 5-7; for materials any bit above 16).
Result<VertexShaderDna> decode_vertex_shader(u32 code);
Result<MaterialDna> decode_material(u32 code);

}  // namespace keel::hash_tool
