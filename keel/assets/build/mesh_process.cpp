#include "keel/assets/build/mesh_process.h"

#include "keel/assets/build/mesh_compress.h"
#include "keel/core/hash.h"
#include "keel/core/utility.h"

#include <meshoptimizer.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <unordered_map>

namespace keel::assets {

namespace {

using Value = std::array<float, 4>;

struct Influences {
  std::array<u8, 4> index{};
  Value weight{};
};

// The four strongest influences, weights renormalised.
Influences influences_of(const SourceVertex& v) {
  std::vector<SourceInfluence> sorted = v.bones;
  keel::stable_sort(sorted, [](const SourceInfluence& a, const SourceInfluence& b) {
    return a.weight > b.weight;
  });
  Influences out;
  float total = 0;
  for (usize i = 0; i < std::min<usize>(4, sorted.size()); ++i) {
    out.index[i] = static_cast<u8>(std::max(sorted[i].bone_index, 0));
    out.weight[i] = std::max(sorted[i].weight, 0.0f);
    total += out.weight[i];
  }
  if (total > 0) {
    for (float& w : out.weight) w /= total;
  }
  return out;
}

Value value_of(const SourceVertex& v, VertexSemantic semantic, u8 channel) {
  switch (semantic) {
    case VertexSemantic::kPosition: return {v.position[0], v.position[1], v.position[2], 0};
    case VertexSemantic::kNormal:
      return v.normal ? Value{(*v.normal)[0], (*v.normal)[1], (*v.normal)[2], 0} : Value{};
    case VertexSemantic::kTangent:
      return v.tangent ? Value{(*v.tangent)[0], (*v.tangent)[1], (*v.tangent)[2], 0} : Value{};
    case VertexSemantic::kBinormal:
      return v.binormal ? Value{(*v.binormal)[0], (*v.binormal)[1], (*v.binormal)[2], 0} : Value{};
    case VertexSemantic::kDiffuse: {
      const SourceColor* c = v.color("diffuse");
      if (c == nullptr) return {1, 1, 1, 1};
      return {c->rgba[0] / 255.0f, c->rgba[1] / 255.0f, c->rgba[2] / 255.0f, c->rgba[3] / 255.0f};
    }
    case VertexSemantic::kTexCoord: {
      const SourceTexCoord* t = v.texcoord(channel);
      return t ? Value{t->u, t->v, 0, 0} : Value{};
    }
    case VertexSemantic::kBoneIndices: {
      const Influences inf = influences_of(v);
      return {static_cast<float>(inf.index[0]), static_cast<float>(inf.index[1]),
              static_cast<float>(inf.index[2]), static_cast<float>(inf.index[3])};
    }
    case VertexSemantic::kBoneWeights: return influences_of(v).weight;
    case VertexSemantic::kCount: break;
  }
  return {};
}

bool supplies(const SourceVertex& v, VertexSemantic semantic, u8 channel) {
  switch (semantic) {
    case VertexSemantic::kNormal: return v.normal.has_value();
    case VertexSemantic::kTangent: return v.tangent.has_value();
    case VertexSemantic::kBinormal: return v.binormal.has_value();
    case VertexSemantic::kDiffuse: return v.color("diffuse") != nullptr;
    case VertexSemantic::kTexCoord: return v.texcoord(channel) != nullptr;
    case VertexSemantic::kBoneIndices:
    case VertexSemantic::kBoneWeights: return !v.bones.empty();
    default: return true;
  }
}

// Picks the type, scale and bias of one element from its values' actual bounds.
VertexElement plan_element(VertexSemantic semantic, u8 channel, u8 stream,
                           std::span<const SourceVertex* const> verts, const MeshBuildOptions& o) {
  VertexElement e;
  e.semantic = semantic;
  e.channel = channel;
  e.stream = stream;
  const bool vector3 =
      semantic == VertexSemantic::kPosition || semantic == VertexSemantic::kNormal ||
      semantic == VertexSemantic::kTangent || semantic == VertexSemantic::kBinormal;
  if (semantic == VertexSemantic::kDiffuse) {
    e.type = VertexType::kColorA8R8G8B8;
    return e;
  }
  if (semantic == VertexSemantic::kBoneIndices) {
    e.type = VertexType::kUInt8x4;
    return e;
  }
  if (semantic == VertexSemantic::kBoneWeights) {
    e.type = o.compress ? VertexType::kUNorm8x4 : VertexType::kFloat4;
    return e;
  }
  if (!o.compress) {
    e.type = vector3 ? VertexType::kFloat3 : VertexType::kFloat2;
    return e;
  }
  Value lo{1e30f, 1e30f, 1e30f, 0}, hi{-1e30f, -1e30f, -1e30f, 0};
  for (const SourceVertex* v : verts) {
    const Value x = value_of(*v, semantic, channel);
    for (u32 i = 0; i < 3; ++i) {
      lo[i] = std::min(lo[i], x[i]);
      hi[i] = std::max(hi[i], x[i]);
    }
  }
  const u32 axes = vector3 ? 3 : 2;
  const auto fit = [&](float range_min, float range_max) {
    float worst = 0;
    for (u32 i = 0; i < axes; ++i) {
      const ScaleBias sb = scale_bias(lo[i], hi[i], range_min, range_max);
      e.scale[i] = sb.scale;
      e.bias[i] = sb.bias;
      worst = std::max(worst, sb.scale);
    }
    return worst;
  };
  if (semantic != VertexSemantic::kPosition && vector3) {
    fit(-1, 1);  // unit vectors: u32:10:10:10 is precise enough
    e.type = VertexType::kPacked101010;
  } else if (vector3) {
    const float scale = fit(-1, 1);
    if (scale / 1023.0f <= o.position_tolerance) {
      e.type = VertexType::kPacked101010;
    } else if (fit(0, 1) * 0.5f / 65535.0f <= o.position_tolerance) {
      e.type = VertexType::kUNorm16x3;
    } else {
      e.type = VertexType::kFloat3;
    }
  } else {
    const float scale = fit(0, 1);
    e.type = scale * 0.5f / 255.0f <= o.texcoord_tolerance     ? VertexType::kUNorm8x2
             : scale * 0.5f / 65535.0f <= o.texcoord_tolerance ? VertexType::kUNorm16x2
                                                               : VertexType::kFloat2;
  }
  if (e.type == VertexType::kFloat3 || e.type == VertexType::kFloat2) {
    e.scale = {1, 1, 1};
    e.bias = {0, 0, 0};
  }
  return e;
}

VertexDeclaration plan_declaration(const ElementNeeds& needs,
                                   std::span<const SourceVertex* const> verts, bool skinned,
                                   const MeshBuildOptions& o) {
  const auto any = [&](VertexSemantic s, u8 channel) {
    return std::any_of(verts.begin(), verts.end(),
                       [&](const SourceVertex* v) { return supplies(*v, s, channel); });
  };
  struct Want {
    VertexSemantic semantic;
    u8 channel;
    u8 stream;
  };
  std::vector<Want> wants{{VertexSemantic::kPosition, 0, 0}};
  if (skinned && any(VertexSemantic::kBoneIndices, 0)) {
    wants.push_back({VertexSemantic::kBoneIndices, 0, 0});
    wants.push_back({VertexSemantic::kBoneWeights, 0, 0});
  }
  if (needs.normal && any(VertexSemantic::kNormal, 0))
    wants.push_back({VertexSemantic::kNormal, 0, 1});
  if (any(VertexSemantic::kDiffuse, 0)) wants.push_back({VertexSemantic::kDiffuse, 0, 1});
  for (u8 c = 0; c < 16; ++c) {
    if ((needs.texcoords >> c & 1u) != 0 && any(VertexSemantic::kTexCoord, c)) {
      wants.push_back({VertexSemantic::kTexCoord, c, 1});
    }
  }
  if (needs.bump && any(VertexSemantic::kTangent, 0)) {
    wants.push_back({VertexSemantic::kTangent, 0, 2});
    wants.push_back({VertexSemantic::kBinormal, 0, 2});
  }
  // Streams in use, renumbered densely; one stream when not splitting.
  std::array<s32, 3> number{-1, -1, -1};
  s32 next = 0;
  for (Want& w : wants) {
    if (!o.split_streams) w.stream = 0;
    if (number[w.stream] < 0) number[w.stream] = next++;
    w.stream = static_cast<u8>(number[w.stream]);
  }
  VertexDeclaration decl;
  decl.strides.assign(static_cast<usize>(next), 0);
  for (const Want& w : wants) {
    VertexElement e = plan_element(w.semantic, w.channel, w.stream, verts, o);
    e.offset = decl.strides[w.stream];
    decl.strides[w.stream] += vertex_type_size(e.type);
    decl.elements.push_back(e);
  }
  return decl;
}

template <typename T>
void put(ByteBuffer& out, usize at, T value) {
  std::memcpy(out.data() + at, &value, sizeof(T));
}

void encode_element(const VertexElement& e, const SourceVertex& v, ByteBuffer& stream, usize at) {
  const Value x = value_of(v, e.semantic, e.channel);
  Value c = x;
  for (u32 i = 0; i < 3; ++i) c[i] = ScaleBias{e.scale[i], e.bias[i]}.compress(x[i]);
  switch (e.type) {
    case VertexType::kFloat2:
    case VertexType::kFloat3:
    case VertexType::kFloat4:
      for (u32 i = 0; i < vertex_type_components(e.type); ++i) put(stream, at + 4 * i, x[i]);
      break;
    case VertexType::kUNorm8x2:
      for (u32 i = 0; i < 2; ++i) put(stream, at + i, quantize_unorm8(c[i]));
      break;
    case VertexType::kUNorm8x4:
      for (u32 i = 0; i < 4; ++i) put(stream, at + i, quantize_unorm8(x[i]));
      break;
    case VertexType::kUNorm16x2:
    case VertexType::kUNorm16x3:
      for (u32 i = 0; i < vertex_type_components(e.type); ++i) {
        put(stream, at + 2 * i, quantize_unorm16(c[i]));
      }
      break;
    case VertexType::kPacked101010: put(stream, at, pack_101010({c[0], c[1], c[2]})); break;
    case VertexType::kColorA8R8G8B8: put(stream, at, pack_a8r8g8b8(x)); break;
    case VertexType::kUInt8x4:
      for (u32 i = 0; i < 4; ++i) put(stream, at + i, static_cast<u8>(x[i]));
      break;
    case VertexType::kCount: break;
  }
}

// Faces of one material batch: index runs (one draw each) over `order` (new -> local vertex).
struct BatchFaces {
  std::vector<std::vector<u32>> runs;
  std::vector<u32> order;
};

BatchFaces faces_of(std::vector<u32> local, u32 vertex_count, std::span<const float> positions,
                    const MeshBuildOptions& o) {
  BatchFaces out;
  if (o.faces == FaceMode::kBook) {
    ReorderedStrips r = reorder_vertices(make_strips(local, o.strip));
    out.runs = std::move(r.strips);
    out.order = std::move(r.order);
    return out;
  }
  std::vector<u32> tmp(local.size());
  meshopt_optimizeVertexCache(tmp.data(), local.data(), local.size(), vertex_count);
  meshopt_optimizeOverdraw(local.data(), tmp.data(), tmp.size(), positions.data(), vertex_count,
                           sizeof(float) * 3, o.overdraw_threshold);
  std::vector<u32> remap(vertex_count);
  const usize used =
      meshopt_optimizeVertexFetchRemap(remap.data(), local.data(), local.size(), vertex_count);
  out.order.assign(used, 0);
  for (u32 v = 0; v < vertex_count; ++v) {
    if (remap[v] != ~0u) out.order[remap[v]] = v;
  }
  for (u32& i : local) i = remap[i];
  if (o.faces == FaceMode::kList) {
    out.runs.push_back(std::move(local));
    return out;
  }
  std::vector<u32> strip(meshopt_stripifyBound(local.size()));
  strip.resize(meshopt_stripify(strip.data(), local.data(), local.size(), used, 0));
  out.runs.push_back(std::move(strip));
  return out;
}

struct SubMeshInput {
  ElementNeeds needs;
  std::vector<SourceTriangle> triangles;  // sorted by material
};

BuiltSubMesh build_submesh(const MeshSource& src, const SubMeshInput& in, bool skinned,
                           const MeshBuildOptions& o) {
  BuiltSubMesh sub;
  sub.primitive = o.faces == FaceMode::kList ? Primitive::kTriangleList : Primitive::kTriangleStrip;
  std::vector<const SourceVertex*> used;
  {
    std::vector<u8> seen(src.vertices.size(), 0);
    for (const SourceTriangle& t : in.triangles) {
      for (u32 v : t.v) {
        if (!seen[v]) used.push_back(&src.vertices[v]);
        seen[v] = 1;
      }
    }
  }
  sub.declaration = plan_declaration(in.needs, used, skinned, o);
  std::vector<u32> vertex_ids;  // source vertex per built vertex
  for (usize begin = 0; begin < in.triangles.size();) {
    const u32 material = in.triangles[begin].material;
    usize end = begin;
    std::unordered_map<u32, u32> local_of;
    std::vector<u32> local_ids, local;
    std::vector<float> positions;
    for (; end < in.triangles.size() && in.triangles[end].material == material; ++end) {
      for (u32 v : in.triangles[end].v) {
        const auto [it, added] = local_of.try_emplace(v, static_cast<u32>(local_ids.size()));
        if (added) {
          local_ids.push_back(v);
          positions.insert(positions.end(), src.vertices[v].position.begin(),
                           src.vertices[v].position.end());
        }
        local.push_back(it->second);
      }
    }
    const BatchFaces faces =
        faces_of(std::move(local), static_cast<u32>(local_ids.size()), positions, o);
    const u32 base = static_cast<u32>(vertex_ids.size());
    for (u32 l : faces.order) vertex_ids.push_back(local_ids[l]);
    for (const std::vector<u32>& run : faces.runs) {
      if (run.empty()) continue;
      const auto [lo, hi] = std::minmax_element(run.begin(), run.end());
      MeshDraw draw{material, static_cast<u32>(sub.indices.size()), static_cast<u32>(run.size()),
                    base + *lo, *hi - *lo + 1};
      for (u32 i : run) sub.indices.push_back(base + i);
      sub.draws.push_back(draw);
    }
    begin = end;
  }
  sub.vertex_count = static_cast<u32>(vertex_ids.size());
  for (u32 stride : sub.declaration.strides) {
    sub.streams.emplace_back(static_cast<usize>(stride) * sub.vertex_count);
  }
  for (u32 n = 0; n < sub.vertex_count; ++n) {
    for (const VertexElement& e : sub.declaration.elements) {
      encode_element(e, src.vertices[vertex_ids[n]], sub.streams[e.stream],
                     static_cast<usize>(n) * sub.declaration.strides[e.stream] + e.offset);
    }
  }
  return sub;
}

Status validate(const MeshSource& src) {
  for (usize t = 0; t < src.triangles.size(); ++t) {
    const SourceTriangle& tri = src.triangles[t];
    if (tri.material >= src.materials.size()) {
      return fail(ErrorCode::kInvalidArgument, "triangle {} has material {} of {}", t, tri.material,
                  src.materials.size());
    }
    for (u32 v : tri.v) {
      if (v >= src.vertices.size()) {
        return fail(ErrorCode::kInvalidArgument, "triangle {} names vertex {} of {}", t, v,
                    src.vertices.size());
      }
    }
  }
  for (const SourceBone& b : src.bones) {
    if (b.parent_index >= static_cast<s32>(src.bones.size())) {
      return fail(ErrorCode::kInvalidArgument, "bone `{}` has parent {}", b.name, b.parent_index);
    }
  }
  return {};
}

}  // namespace

std::vector<MaterialRun> material_runs(std::span<const SourceTriangle> triangles) {
  std::vector<MaterialRun> runs;
  for (const SourceTriangle& t : triangles) {
    if (runs.empty() || runs.back().material != t.material) runs.push_back({t.material, 0});
    ++runs.back().triangles;
  }
  return runs;
}

std::vector<SourceTriangle> sort_by_material(std::span<const SourceTriangle> triangles) {
  std::vector<SourceTriangle> out(triangles.begin(), triangles.end());
  keel::stable_sort(out, [](const SourceTriangle& a, const SourceTriangle& b) {
    return a.material < b.material;
  });
  return out;
}

ElementNeeds needs_of(const SourceMaterial& material) {
  ElementNeeds needs;
  needs.normal = material.lit();
  needs.bump = material.bump_mapped();
  for (const SourceProperty& p : material.properties) {
    if (p.texture_channel >= 0 && p.texture_channel < 16)
      needs.texcoords |= 1u << p.texture_channel;
  }
  return needs;
}

Result<BuiltMesh> process_mesh(const MeshSource& src, const MeshBuildOptions& o) {
  if (Status ok = validate(src); !ok) return Unexpected(ok.error());
  const bool skinned = !src.bones.empty();
  if (skinned && src.bones.size() > 256) {
    return fail(ErrorCode::kInvalidArgument, "{} bones: skinned meshes take at most 256",
                src.bones.size());
  }
  BuiltMesh out;
  out.name = src.name;
  for (const SourceMaterial& m : src.materials) {
    out.materials.push_back({string_hash(m.name), static_cast<u8>(m.fill), static_cast<u8>(m.edges),
                             static_cast<u8>(m.winding), static_cast<u8>(m.culling)});
    out.material_names.push_back(m.name);
  }
  for (const SourceBone& b : src.bones) {
    out.bones.push_back({string_hash(b.name), b.parent_index, b.position, b.rotation});
  }
  // Sub-meshes: materials grouped by what they need from a vertex; never-drawn ones dropped.
  std::vector<SubMeshInput> groups;
  std::vector<s32> group_of(src.materials.size(), -1);
  for (usize m = 0; m < src.materials.size(); ++m) {
    if (!src.materials[m].drawn()) continue;
    const ElementNeeds needs = needs_of(src.materials[m]);
    auto it = std::find_if(groups.begin(), groups.end(),
                           [&](const SubMeshInput& g) { return g.needs == needs; });
    if (it == groups.end()) it = groups.insert(groups.end(), SubMeshInput{needs, {}});
    group_of[m] = static_cast<s32>(it - groups.begin());
  }
  for (const SourceTriangle& t : sort_by_material(src.triangles)) {
    const bool degenerate = t.v[0] == t.v[1] || t.v[1] == t.v[2] || t.v[0] == t.v[2];
    if (group_of[t.material] >= 0 && !degenerate) {
      groups[static_cast<usize>(group_of[t.material])].triangles.push_back(t);
    }
  }
  for (const SubMeshInput& g : groups) {
    if (!g.triangles.empty()) out.submeshes.push_back(build_submesh(src, g, skinned, o));
  }
  return out;
}

ByteBuffer encode_mesh(const BuiltMesh& mesh) {
  ByteBuffer out;
  const auto u32v = [&](u32 v) {
    const usize at = out.size();
    out.resize(at + 4);
    put(out, at, v);
  };
  const auto f32v = [&](float v) { u32v(std::bit_cast<u32>(v)); };
  const auto u8x4 = [&](u8 a, u8 b, u8 c, u8 d) {
    u32v(static_cast<u32>(a) | static_cast<u32>(b) << 8 | static_cast<u32>(c) << 16 |
         static_cast<u32>(d) << 24);
  };
  const auto bytes = [&](ByteSpan data) {
    out.insert(out.end(), data.begin(), data.end());
    out.resize((out.size() + 3) / 4 * 4);
  };
  for (u32 v :
       {kMeshMagic, kMeshVersion, string_hash(mesh.name), static_cast<u32>(mesh.materials.size()),
        static_cast<u32>(mesh.bones.size()), static_cast<u32>(mesh.submeshes.size())}) {
    u32v(v);
  }
  for (const MeshMaterial& m : mesh.materials) {
    u32v(m.name_hash);
    u8x4(m.fill, m.edges, m.winding, m.culling);
  }
  for (const MeshBone& b : mesh.bones) {
    u32v(b.name_hash);
    u32v(static_cast<u32>(b.parent));
    for (float v : b.position) f32v(v);
    for (float v : b.rotation) f32v(v);
  }
  for (const BuiltSubMesh& s : mesh.submeshes) {
    const u32 index_size = s.vertex_count <= 65536 ? 2 : 4;
    u32v(s.vertex_count);
    u8x4(static_cast<u8>(s.declaration.strides.size()),
         static_cast<u8>(s.declaration.elements.size()), static_cast<u8>(s.primitive),
         static_cast<u8>(index_size));
    u32v(static_cast<u32>(s.indices.size()));
    u32v(static_cast<u32>(s.draws.size()));
    for (u32 stride : s.declaration.strides) u32v(stride);
    for (const VertexElement& e : s.declaration.elements) {
      u8x4(static_cast<u8>(e.semantic), e.channel, static_cast<u8>(e.type), e.stream);
      u32v(e.offset);
      for (float v : e.scale) f32v(v);
      for (float v : e.bias) f32v(v);
    }
    for (const MeshDraw& d : s.draws) {
      for (u32 v : {d.material, d.first_index, d.index_count, d.first_vertex, d.vertex_count})
        u32v(v);
    }
    for (const ByteBuffer& stream : s.streams) bytes(stream);
    ByteBuffer indices(s.indices.size() * index_size);
    for (usize i = 0; i < s.indices.size(); ++i) {
      if (index_size == 2) {
        put(indices, i * 2, static_cast<u16>(s.indices[i]));
      } else {
        put(indices, i * 4, s.indices[i]);
      }
    }
    bytes(indices);
  }
  return out;
}

}  // namespace keel::assets
