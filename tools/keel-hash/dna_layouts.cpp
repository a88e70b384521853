#include "dna_layouts.h"

#include "keel/core/assert.h"

#include <string>
#include <utility>
#include <vector>

namespace keel::hash_tool {

namespace {

DnaLayout make_or_die(std::string name, std::vector<DnaField> fields) {
  Result<DnaLayout> layout = DnaLayout::make(std::move(name), std::move(fields));
  KEEL_ASSERT(layout.has_value(), "built-in DNA layout: {}",
              layout ? std::string() : layout.error().to_string());
  return std::move(*layout);
}

u32 bit(bool b) { return b ? 1u : 0u; }

}  // namespace

const DnaLayout& vertex_shader_layout() {
  static const DnaLayout layout = make_or_die("vertex shader", {
                                                                   {"light0", 0, 3, 5},
                                                                   {"light1", 3, 3, 5},
                                                                   {"light2", 6, 3, 5},
                                                                   {"light3", 9, 3, 5},
                                                                   {"bones", 12, 2, 4},
                                                                   {"tex0", 14, 3, 8},
                                                                   {"tex1", 17, 3, 8},
                                                                   {"tex2", 20, 3, 8},
                                                                   {"tex3", 23, 3, 8},
                                                                   {"packed", 26, 1, 2},
                                                                   {"diffuse", 27, 1, 2},
                                                                   {"normals", 28, 1, 2},
                                                                   {"binormals", 29, 1, 2},
                                                                   {"fog", 30, 1, 2},
                                                                   {"specular", 31, 1, 2},
                                                               });
  return layout;
}

const DnaLayout& material_layout() {
  static const DnaLayout layout = make_or_die("material", {
                                                              {"type", 0, 8, 256},
                                                              {"fog", 8, 1, 2},
                                                              {"z_test", 9, 1, 2},
                                                              {"z_write", 10, 1, 2},
                                                              {"rgb_write", 11, 3, 8},
                                                              {"alpha_write", 14, 1, 2},
                                                              {"alpha_test", 15, 1, 2},
                                                              {"stencil", 16, 1, 2},
                                                          });
  return layout;
}

Result<u32> encode(const VertexShaderDna& dna) {
  std::array<u32, 15> v{};
  for (usize i = 0; i < 4; ++i) v[i] = static_cast<u32>(dna.lights[i]);
  v[4] = dna.bones;
  for (usize i = 0; i < 4; ++i) v[5 + i] = static_cast<u32>(dna.tex_coords[i]);
  v[9] = bit(dna.packed);
  v[10] = bit(dna.diffuse);
  v[11] = bit(dna.normals);
  v[12] = bit(dna.binormals);
  v[13] = bit(dna.fog);
  v[14] = bit(dna.specular);
  return vertex_shader_layout().encode(v);
}

Result<u32> encode(const MaterialDna& dna) {
  const std::array<u32, 8> v = {
      dna.type,      bit(dna.fog),         bit(dna.z_test),     bit(dna.z_write),
      dna.rgb_write, bit(dna.alpha_write), bit(dna.alpha_test), bit(dna.stencil)};
  return material_layout().encode(v);
}

Result<VertexShaderDna> decode_vertex_shader(u32 code) {
  Result<std::vector<u32>> v = vertex_shader_layout().decode(code);
  if (!v) return Unexpected(v.error());
  VertexShaderDna dna;
  for (usize i = 0; i < 4; ++i) dna.lights[i] = static_cast<LightMode>((*v)[i]);
  dna.bones = static_cast<u8>((*v)[4]);
  for (usize i = 0; i < 4; ++i) dna.tex_coords[i] = static_cast<TexCoordSource>((*v)[5 + i]);
  dna.packed = (*v)[9] != 0;
  dna.diffuse = (*v)[10] != 0;
  dna.normals = (*v)[11] != 0;
  dna.binormals = (*v)[12] != 0;
  dna.fog = (*v)[13] != 0;
  dna.specular = (*v)[14] != 0;
  return dna;
}

Result<MaterialDna> decode_material(u32 code) {
  Result<std::vector<u32>> v = material_layout().decode(code);
  if (!v) return Unexpected(v.error());
  MaterialDna dna;
  dna.type = static_cast<u8>((*v)[0]);
  dna.fog = (*v)[1] != 0;
  dna.z_test = (*v)[2] != 0;
  dna.z_write = (*v)[3] != 0;
  dna.rgb_write = static_cast<u8>((*v)[4]);
  dna.alpha_write = (*v)[5] != 0;
  dna.alpha_test = (*v)[6] != 0;
  dna.stencil = (*v)[7] != 0;
  return dna;
}

}  // namespace keel::hash_tool
