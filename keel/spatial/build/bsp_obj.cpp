#include "keel/spatial/build/bsp_obj.h"

#include <tiny_obj_loader.h>

#include <algorithm>
#include <cctype>
#include <sstream>
#include <string>

namespace keel::spatial {
namespace {

bool is_dummy_name(std::string_view name) {
  constexpr std::string_view kPrefix = "bsp_dummy";
  if (name.size() < kPrefix.size()) return false;
  return std::equal(kPrefix.begin(), kPrefix.end(), name.begin(), [](char a, char b) {
    return a == std::tolower(static_cast<unsigned char>(b));
  });
}

}  // namespace

Result<std::vector<BspInputFace>> load_obj_faces(std::string_view obj_text, std::string_view name) {
  tinyobj::attrib_t attrib;
  std::vector<tinyobj::shape_t> shapes;
  std::vector<tinyobj::material_t> materials;
  std::string warn;
  std::string err;
  std::istringstream in{std::string(obj_text)};
  if (!tinyobj::LoadObj(&attrib, &shapes, &materials, &warn, &err, &in, nullptr, true)) {
    return fail_at(SourceLocation::text(std::string(name), 0), ErrorCode::kParse, "OBJ: {}",
                   err.empty() ? std::string("cannot parse") : err);
  }
  const std::size_t vertex_count = attrib.vertices.size() / 3;
  std::vector<BspInputFace> faces;
  u32 source = 0;
  for (const tinyobj::shape_t& shape : shapes) {
    const bool dummy = is_dummy_name(shape.name);
    std::size_t offset = 0;
    for (const unsigned char fv : shape.mesh.num_face_vertices) {
      if (fv != 3 || offset + 3 > shape.mesh.indices.size()) {
        return fail_at(SourceLocation::text(std::string(name), 0), ErrorCode::kCorrupt,
                       "OBJ shape '{}': face {} has {} corners after triangulation", shape.name,
                       source, fv);
      }
      BspInputFace face{{}, dummy, source++};
      for (u32 k = 0; k < 3; ++k) {
        const int index = shape.mesh.indices[offset + k].vertex_index;
        if (index < 0 || static_cast<std::size_t>(index) >= vertex_count) {
          return fail_at(SourceLocation::text(std::string(name), 0), ErrorCode::kCorrupt,
                         "OBJ shape '{}': vertex index {} of {}", shape.name, index, vertex_count);
        }
        const float* p = &attrib.vertices[3 * static_cast<std::size_t>(index)];
        face.tri.v[k] = Vec3{p[0], p[1], p[2]};
      }
      faces.push_back(face);
      offset += fv;
    }
  }
  return faces;
}

}  // namespace keel::spatial
