#include "keel/assets/build/mesh_import.h"

#include <tiny_gltf.h>
#include <tiny_obj_loader.h>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <sstream>
#include <tuple>

namespace keel::assets {

namespace {

float f(double v) { return static_cast<float>(v); }

SourceProperty named_property(std::string name, s32 channel = -1) {
  SourceProperty p;
  p.name = std::move(name);
  p.texture_channel = channel;
  return p;
}

SourceMaterial make_default_material() {
  SourceMaterial d;
  d.name = "default";
  d.properties.push_back(named_property("diffuse"));
  d.properties.back().color = Vec4{255, 255, 255, 255};
  return d;
}

SourceMaterial obj_material(const tinyobj::material_t& m) {
  SourceMaterial out;
  out.name = m.name;
  SourceProperty diffuse;
  diffuse.name = "diffuse";
  if (!m.diffuse_texname.empty()) {
    diffuse.texture_channel = 0;
    diffuse.texture = m.diffuse_texname;
  } else {
    diffuse.color = Vec4{f(m.diffuse[0]) * 255, f(m.diffuse[1]) * 255, f(m.diffuse[2]) * 255,
                         f(m.dissolve) * 255};
  }
  out.properties.push_back(diffuse);
  if (m.specular[0] + m.specular[1] + m.specular[2] > 0 || !m.specular_texname.empty()) {
    SourceProperty specular;
    specular.name = "specular";
    specular.amount = std::min(100.0f, f(m.shininess));
    if (!m.specular_texname.empty()) {
      specular.texture_channel = 0;
      specular.texture = m.specular_texname;
    } else {
      specular.color =
          Vec4{f(m.specular[0]) * 255, f(m.specular[1]) * 255, f(m.specular[2]) * 255, 255};
    }
    out.properties.push_back(specular);
  }
  return out;
}

}  // namespace

std::string obj_material_library(std::string_view obj_text) {
  std::istringstream in{std::string(obj_text)};
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("mtllib", 0) == 0 && line.size() > 7) {
      std::string name = line.substr(7);
      while (!name.empty() && (name.back() == '\r' || name.back() == ' ')) name.pop_back();
      return name;
    }
  }
  return {};
}

Result<MeshSource> import_obj(std::string_view obj_text, std::string_view mtl_text,
                              std::string name) {
  tinyobj::ObjReaderConfig config;
  config.triangulate = true;
  tinyobj::ObjReader reader;
  if (!reader.ParseFromString(std::string(obj_text), std::string(mtl_text), config)) {
    return fail(ErrorCode::kCorrupt, "OBJ: {}", reader.Error());
  }
  const tinyobj::attrib_t& attrib = reader.GetAttrib();
  MeshSource mesh;
  mesh.name = std::move(name);
  for (const tinyobj::material_t& m : reader.GetMaterials())
    mesh.materials.push_back(obj_material(m));
  std::map<std::tuple<int, int, int>, u32> corner_vertex;
  s32 default_material = -1;
  for (const tinyobj::shape_t& shape : reader.GetShapes()) {
    const tinyobj::mesh_t& m = shape.mesh;
    for (usize face = 0; face < m.num_face_vertices.size(); ++face) {
      if (m.num_face_vertices[face] != 3 || face * 3 + 2 >= m.indices.size()) {
        return fail(ErrorCode::kCorrupt, "OBJ: shape `{}` face {} is not a triangle", shape.name,
                    face);
      }
      SourceTriangle tri;
      const int mat = face < m.material_ids.size() ? m.material_ids[face] : -1;
      if (mat >= 0 && static_cast<usize>(mat) < mesh.materials.size()) {
        tri.material = static_cast<u32>(mat);
      } else {
        if (default_material < 0) {
          default_material = static_cast<s32>(mesh.materials.size());
          mesh.materials.push_back(make_default_material());
        }
        tri.material = static_cast<u32>(default_material);
      }
      for (u32 k = 0; k < 3; ++k) {
        const tinyobj::index_t& c = m.indices[face * 3 + k];
        const auto key = std::make_tuple(c.vertex_index, c.normal_index, c.texcoord_index);
        auto it = corner_vertex.find(key);
        if (it == corner_vertex.end()) {
          if (c.vertex_index < 0 ||
              static_cast<usize>(c.vertex_index) * 3 + 2 >= attrib.vertices.size()) {
            return fail(ErrorCode::kCorrupt, "OBJ: face {} names position {}", face,
                        c.vertex_index);
          }
          SourceVertex v;
          const usize p = static_cast<usize>(c.vertex_index) * 3;
          v.position = {f(attrib.vertices[p]), f(attrib.vertices[p + 1]),
                        f(attrib.vertices[p + 2])};
          if (c.normal_index >= 0 &&
              static_cast<usize>(c.normal_index) * 3 + 2 < attrib.normals.size()) {
            const usize n = static_cast<usize>(c.normal_index) * 3;
            v.normal =
                Vec3{f(attrib.normals[n]), f(attrib.normals[n + 1]), f(attrib.normals[n + 2])};
          }
          if (c.texcoord_index >= 0 &&
              static_cast<usize>(c.texcoord_index) * 2 + 1 < attrib.texcoords.size()) {
            const usize t = static_cast<usize>(c.texcoord_index) * 2;
            // OBJ's v runs upwards; the book's texture space (like Direct3D's) runs downwards.
            v.texcoords.push_back({0, f(attrib.texcoords[t]), 1.0f - f(attrib.texcoords[t + 1])});
          }
          it = corner_vertex.emplace(key, static_cast<u32>(mesh.vertices.size())).first;
          mesh.vertices.push_back(std::move(v));
        }
        tri.v[k] = it->second;
      }
      mesh.triangles.push_back(tri);
    }
  }
  return mesh;
}

namespace {

bool no_images(tinygltf::Image*, const int, std::string*, std::string*, int, int,
               const unsigned char*, int, void*) {
  return true;  // meshes only name their textures; the texture handler reads the images
}

// Reads `components` floats per element of an accessor (float or normalised integers).
Status read_accessor(const tinygltf::Model& model, int index, u32 components,
                     std::vector<float>& out) {
  if (index < 0 || static_cast<usize>(index) >= model.accessors.size()) {
    return fail(ErrorCode::kCorrupt, "glTF: accessor {} does not exist", index);
  }
  const tinygltf::Accessor& a = model.accessors[static_cast<usize>(index)];
  if (a.bufferView < 0 || static_cast<usize>(a.bufferView) >= model.bufferViews.size()) {
    return fail(ErrorCode::kCorrupt, "glTF: accessor {} has no buffer view", index);
  }
  const tinygltf::BufferView& view = model.bufferViews[static_cast<usize>(a.bufferView)];
  if (view.buffer < 0 || static_cast<usize>(view.buffer) >= model.buffers.size()) {
    return fail(ErrorCode::kCorrupt, "glTF: buffer view {} has no buffer", a.bufferView);
  }
  const std::vector<unsigned char>& data = model.buffers[static_cast<usize>(view.buffer)].data;
  const int comp_size = tinygltf::GetComponentSizeInBytes(static_cast<u32>(a.componentType));
  const int count = tinygltf::GetNumComponentsInType(static_cast<u32>(a.type));
  if (comp_size <= 0 || count <= 0 || static_cast<u32>(count) < components) {
    return fail(ErrorCode::kCorrupt, "glTF: accessor {} has {} components, {} needed", index, count,
                components);
  }
  const usize elem = static_cast<usize>(comp_size) * static_cast<usize>(count);
  const usize stride = view.byteStride != 0 ? view.byteStride : elem;
  const usize start = view.byteOffset + a.byteOffset;
  if (a.count > 0 && (start + stride * (a.count - 1) + elem > view.byteOffset + view.byteLength ||
                      view.byteOffset + view.byteLength > data.size())) {
    return fail(ErrorCode::kCorrupt, "glTF: accessor {} runs past its buffer", index);
  }
  out.clear();
  out.reserve(a.count * components);
  for (usize i = 0; i < a.count; ++i) {
    const unsigned char* p = data.data() + start + stride * i;
    for (u32 c = 0; c < components; ++c) {
      const unsigned char* q = p + static_cast<usize>(comp_size) * c;
      float v = 0;
      switch (a.componentType) {
        case TINYGLTF_COMPONENT_TYPE_FLOAT: std::memcpy(&v, q, 4); break;
        case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE:
          v = static_cast<float>(*q) / (a.normalized ? 255.0f : 1.0f);
          break;
        case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT: {
          u16 s;
          std::memcpy(&s, q, 2);
          v = static_cast<float>(s) / (a.normalized ? 65535.0f : 1.0f);
          break;
        }
        case TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT: {
          u32 s;
          std::memcpy(&s, q, 4);
          v = static_cast<float>(s);
          break;
        }
        default:
          return fail(ErrorCode::kCorrupt, "glTF: accessor {} has an unsupported component type",
                      index);
      }
      out.push_back(std::isfinite(v) ? v : 0.0f);
    }
  }
  return {};
}

SourceMaterial gltf_material(const tinygltf::Model& model, const tinygltf::Material& m, usize i) {
  SourceMaterial out;
  out.name = m.name.empty() ? fmt::format("material{}", i) : m.name;
  if (m.doubleSided) out.culling = Culling::kNone;
  SourceProperty diffuse;
  diffuse.name = "diffuse";
  const tinygltf::TextureInfo& base = m.pbrMetallicRoughness.baseColorTexture;
  if (base.index >= 0 && static_cast<usize>(base.index) < model.textures.size()) {
    const int source = model.textures[static_cast<usize>(base.index)].source;
    diffuse.texture_channel = std::clamp(base.texCoord, 0, 15);
    diffuse.texture = source >= 0 && static_cast<usize>(source) < model.images.size()
                          ? model.images[static_cast<usize>(source)].uri
                          : "";
  }
  const std::vector<double>& c = m.pbrMetallicRoughness.baseColorFactor;
  if (c.size() == 4)
    diffuse.color = Vec4{f(c[0]) * 255, f(c[1]) * 255, f(c[2]) * 255, f(c[3]) * 255};
  out.properties.push_back(diffuse);
  if (m.normalTexture.index >= 0) {
    out.properties.push_back(named_property("bump", std::clamp(m.normalTexture.texCoord, 0, 15)));
  }
  return out;
}

Status import_primitive(const tinygltf::Model& model, const tinygltf::Primitive& prim, u32 material,
                        MeshSource& mesh) {
  const auto attribute = [&](const char* name) {
    const auto it = prim.attributes.find(name);
    return it == prim.attributes.end() ? -1 : it->second;
  };
  std::vector<float> pos, nrm, tan, uv0, uv1, col;
  if (Status s = read_accessor(model, attribute("POSITION"), 3, pos); !s) return s;
  const usize n = pos.size() / 3;
  const auto optional = [&](const char* name, u32 comps, std::vector<float>& out) -> Status {
    if (attribute(name) < 0) return {};
    if (Status s = read_accessor(model, attribute(name), comps, out); !s) return s;
    if (out.size() != n * comps)
      return fail(ErrorCode::kCorrupt, "glTF: {} count differs from POSITION", name);
    return {};
  };
  for (Status s :
       {optional("NORMAL", 3, nrm), optional("TANGENT", 4, tan), optional("TEXCOORD_0", 2, uv0),
        optional("TEXCOORD_1", 2, uv1), optional("COLOR_0", 3, col)}) {
    if (!s) return s;
  }
  const u32 base = static_cast<u32>(mesh.vertices.size());
  for (usize i = 0; i < n; ++i) {
    SourceVertex v;
    v.position = {pos[i * 3], pos[i * 3 + 1], pos[i * 3 + 2]};
    if (!nrm.empty()) v.normal = Vec3{nrm[i * 3], nrm[i * 3 + 1], nrm[i * 3 + 2]};
    if (!uv0.empty()) v.texcoords.push_back({0, uv0[i * 2], uv0[i * 2 + 1]});
    if (!uv1.empty()) v.texcoords.push_back({1, uv1[i * 2], uv1[i * 2 + 1]});
    if (!col.empty())
      v.colors.push_back(
          {"diffuse", {col[i * 3] * 255, col[i * 3 + 1] * 255, col[i * 3 + 2] * 255, 255}});
    if (!tan.empty() && v.normal) {
      const Vec3 t{tan[i * 4], tan[i * 4 + 1], tan[i * 4 + 2]};
      const Vec3& nn = *v.normal;
      const float w = tan[i * 4 + 3] < 0 ? -1.0f : 1.0f;
      v.tangent = t;
      v.binormal = Vec3{w * (nn[1] * t[2] - nn[2] * t[1]), w * (nn[2] * t[0] - nn[0] * t[2]),
                        w * (nn[0] * t[1] - nn[1] * t[0])};
    }
    mesh.vertices.push_back(std::move(v));
  }
  std::vector<float> idx;
  if (prim.indices >= 0) {
    if (Status s = read_accessor(model, prim.indices, 1, idx); !s) return s;
  } else {
    for (usize i = 0; i < n; ++i) idx.push_back(static_cast<float>(i));
  }
  for (usize i = 0; i + 2 < idx.size(); i += 3) {
    SourceTriangle t;
    t.material = material;
    for (u32 k = 0; k < 3; ++k) {
      const double v = idx[i + k];
      if (v < 0 || v >= static_cast<double>(n))
        return fail(ErrorCode::kCorrupt, "glTF: index {} out of range", v);
      t.v[k] = base + static_cast<u32>(v);
    }
    mesh.triangles.push_back(t);
  }
  return {};
}

}  // namespace

Result<MeshSource> import_gltf(ByteSpan bytes, const std::string& base_dir, std::string name) {
  tinygltf::TinyGLTF loader;
  loader.SetImageLoader(no_images, nullptr);
  tinygltf::Model model;
  std::string err, warn;
  const auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
  const bool binary = bytes.size() >= 4 && std::memcmp(data, "glTF", 4) == 0;
  const bool ok =
      binary ? loader.LoadBinaryFromMemory(&model, &err, &warn, data,
                                           static_cast<unsigned>(bytes.size()), base_dir)
             : loader.LoadASCIIFromString(&model, &err, &warn, reinterpret_cast<const char*>(data),
                                          static_cast<unsigned>(bytes.size()), base_dir);
  if (!ok) return fail(ErrorCode::kCorrupt, "glTF: {}", err.empty() ? warn : err);
  MeshSource mesh;
  mesh.name = std::move(name);
  for (usize i = 0; i < model.materials.size(); ++i) {
    mesh.materials.push_back(gltf_material(model, model.materials[i], i));
  }
  s32 default_material = -1;
  for (const tinygltf::Mesh& m : model.meshes) {
    for (const tinygltf::Primitive& prim : m.primitives) {
      if (prim.mode != TINYGLTF_MODE_TRIANGLES && prim.mode != -1) continue;
      u32 material;
      if (prim.material >= 0 && static_cast<usize>(prim.material) < mesh.materials.size()) {
        material = static_cast<u32>(prim.material);
      } else {
        if (default_material < 0) {
          default_material = static_cast<s32>(mesh.materials.size());
          mesh.materials.push_back(make_default_material());
        }
        material = static_cast<u32>(default_material);
      }
      if (Status s = import_primitive(model, prim, material, mesh); !s)
        return Unexpected(s.error());
    }
  }
  return mesh;
}

}  // namespace keel::assets
