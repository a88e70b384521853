#include "keel/assets/mesh.h"

#include "keel/core/assert.h"

#include <cstring>

namespace keel::assets {

namespace {

struct TypeInfo {
  u32 size;
  u32 components;
  const char* name;
};
constexpr TypeInfo kTypes[] = {
    {8, 2, "float2"},    {12, 3, "float3"},   {16, 4, "float4"},      {2, 2, "unorm8x2"},
    {4, 2, "unorm16x2"}, {6, 3, "unorm16x3"}, {4, 3, "u32:10:10:10"}, {4, 4, "A8R8G8B8"},
    {4, 4, "uint8x4"},   {4, 4, "unorm8x4"},
};
static_assert(std::size(kTypes) == static_cast<usize>(VertexType::kCount));

constexpr const char* kSemantics[] = {"position", "normal",   "diffuse",      "texcoord",
                                      "tangent",  "binormal", "bone indices", "bone weights"};
static_assert(std::size(kSemantics) == static_cast<usize>(VertexSemantic::kCount));

template <typename T>
T load(const std::byte* p) {
  T value;
  std::memcpy(&value, p, sizeof(T));
  return value;
}

// Bounds-checked little-endian reader over the chunk; errors carry the byte offset.
class Reader {
 public:
  explicit Reader(ByteSpan bytes) : bytes_(bytes) {}

  bool need(usize n, std::string_view what) {
    if (!error_.empty()) return false;
    if (n > bytes_.size() - at_) {
      error_ = fmt::format("mesh chunk ends inside {} ({} bytes needed, {} left)", what, n,
                           bytes_.size() - at_);
      error_at_ = at_;
      return false;
    }
    return true;
  }
  u32 u32v() { return take<u32>(); }
  s32 s32v() { return take<s32>(); }
  float f32v() { return take<float>(); }
  u8 u8v() { return take<u8>(); }
  ByteSpan span(usize n, std::string_view what) {
    if (!need(n, what)) return {};
    const ByteSpan out = bytes_.subspan(at_, n);
    at_ += n;
    at_ += (4 - at_ % 4) % 4;
    at_ = std::min(at_, bytes_.size());
    return out;
  }
  void fail_here(std::string message) {
    if (error_.empty()) {
      error_ = std::move(message);
      error_at_ = at_;
    }
  }
  bool ok() const { return error_.empty(); }
  usize at() const { return at_; }
  Unexpected error() const {
    return Unexpected(Error(ErrorCode::kCorrupt, error_, SourceLocation::bytes("mesh", error_at_)));
  }

 private:
  template <typename T>
  T take() {
    if (!need(sizeof(T), "a field")) return T{};
    const T v = load<T>(bytes_.data() + at_);
    at_ += sizeof(T);
    return v;
  }

  ByteSpan bytes_;
  usize at_ = 0;
  std::string error_;
  usize error_at_ = 0;
};

bool read_element(Reader& r, u32 stream_count, VertexElement& e) {
  const u8 semantic = r.u8v(), channel = r.u8v(), type = r.u8v(), stream = r.u8v();
  e.offset = r.u32v();
  for (float& s : e.scale) s = r.f32v();
  for (float& b : e.bias) b = r.f32v();
  if (!r.ok()) return false;
  if (semantic >= static_cast<u8>(VertexSemantic::kCount) ||
      type >= static_cast<u8>(VertexType::kCount) || stream >= stream_count || channel > 15) {
    r.fail_here(fmt::format("vertex element with semantic {}, type {}, stream {}, channel {}",
                            semantic, type, stream, channel));
    return false;
  }
  e.semantic = static_cast<VertexSemantic>(semantic);
  e.type = static_cast<VertexType>(type);
  e.stream = stream;
  e.channel = channel;
  return true;
}

bool read_submesh(Reader& r, u32 material_count, SubMesh& sub) {
  sub.vertex_count = r.u32v();
  const u32 stream_count = r.u8v(), element_count = r.u8v(), primitive = r.u8v();
  sub.index_size = r.u8v();
  const u32 index_count = r.u32v(), draw_count = r.u32v();
  if (!r.ok()) return false;
  if (stream_count > kMaxVertexStreams || element_count > kMaxVertexElements || primitive > 1 ||
      (sub.index_size != 2 && sub.index_size != 4) || draw_count > index_count + 1) {
    r.fail_here(fmt::format("sub-mesh header: {} streams, {} elements, primitive {}, index size {}",
                            stream_count, element_count, primitive, sub.index_size));
    return false;
  }
  sub.primitive = static_cast<Primitive>(primitive);
  for (u32 s = 0; s < stream_count; ++s) sub.declaration.strides.push_back(r.u32v());
  for (u32 i = 0; i < element_count && r.ok(); ++i) {
    VertexElement e;
    if (!read_element(r, stream_count, e)) return false;
    if (static_cast<u64>(e.offset) + vertex_type_size(e.type) > sub.declaration.strides[e.stream]) {
      r.fail_here(fmt::format("{} element runs past its stream's stride", to_string(e.semantic)));
      return false;
    }
    sub.declaration.elements.push_back(e);
  }
  if (!r.ok() || !r.need(static_cast<u64>(draw_count) * 20, "the draws")) return false;
  for (u32 d = 0; d < draw_count; ++d) {
    MeshDraw draw{r.u32v(), r.u32v(), r.u32v(), r.u32v(), r.u32v()};
    if (draw.material >= material_count || draw.first_index > index_count ||
        draw.index_count > index_count - draw.first_index || draw.first_vertex > sub.vertex_count ||
        draw.vertex_count > sub.vertex_count - draw.first_vertex) {
      r.fail_here(fmt::format("draw {} lies outside its sub-mesh", d));
      return false;
    }
    sub.draws.push_back(draw);
  }
  for (u32 stride : sub.declaration.strides) {
    sub.streams.push_back(r.span(static_cast<u64>(stride) * sub.vertex_count, "a vertex stream"));
  }
  sub.indices = r.span(static_cast<u64>(index_count) * sub.index_size, "the indices");
  if (!r.ok()) return false;
  for (const MeshDraw& draw : sub.draws) {
    for (u32 i = draw.first_index; i < draw.first_index + draw.index_count; ++i) {
      const u32 v = sub.index(i);
      if (v < draw.first_vertex || v >= draw.first_vertex + draw.vertex_count) {
        r.fail_here(fmt::format("index {} names vertex {}, outside its draw's range", i, v));
        return false;
      }
    }
  }
  return true;
}

}  // namespace

u32 vertex_type_size(VertexType type) {
  KEEL_ASSERT(type < VertexType::kCount, "vertex_type_size: not a vertex type");
  return type < VertexType::kCount ? kTypes[static_cast<usize>(type)].size : 0;
}

u32 vertex_type_components(VertexType type) {
  KEEL_ASSERT(type < VertexType::kCount, "vertex_type_components: not a vertex type");
  return type < VertexType::kCount ? kTypes[static_cast<usize>(type)].components : 0;
}

const char* to_string(VertexType type) {
  return type < VertexType::kCount ? kTypes[static_cast<usize>(type)].name : "?";
}

const char* to_string(VertexSemantic semantic) {
  return semantic < VertexSemantic::kCount ? kSemantics[static_cast<usize>(semantic)] : "?";
}

const VertexElement* VertexDeclaration::find(VertexSemantic semantic, u8 channel) const {
  for (const VertexElement& e : elements) {
    if (e.semantic == semantic && e.channel == channel) return &e;
  }
  return nullptr;
}

u32 VertexDeclaration::vertex_size() const {
  u32 total = 0;
  for (u32 s : strides) total += s;
  return total;
}

std::array<float, 4> decode_element(const VertexElement& e, ByteSpan stream, u32 stride,
                                    u32 vertex) {
  std::array<float, 4> out{};
  const u64 at = static_cast<u64>(vertex) * stride + e.offset;
  if (e.type >= VertexType::kCount || at + vertex_type_size(e.type) > stream.size()) {
    KEEL_ASSERT(false, "decode_element: vertex or element outside the stream");
    return out;
  }
  const std::byte* p = stream.data() + at;
  switch (e.type) {
    case VertexType::kFloat2:
    case VertexType::kFloat3:
    case VertexType::kFloat4:
      for (u32 i = 0; i < vertex_type_components(e.type); ++i) out[i] = load<float>(p + 4 * i);
      break;
    case VertexType::kUNorm8x2:
    case VertexType::kUNorm8x4:
      for (u32 i = 0; i < vertex_type_components(e.type); ++i) {
        out[i] = static_cast<float>(load<u8>(p + i)) / 255.0f;
      }
      break;
    case VertexType::kUNorm16x2:
    case VertexType::kUNorm16x3:
      for (u32 i = 0; i < vertex_type_components(e.type); ++i) {
        out[i] = static_cast<float>(load<u16>(p + 2 * i)) / 65535.0f;
      }
      break;
    case VertexType::kPacked101010: {
      const u32 w = load<u32>(p);
      for (u32 i = 0; i < 3; ++i) {
        out[i] = static_cast<float>((w >> (10 * i)) & 1023u) / 1023.0f * 2.0f - 1.0f;
      }
      break;
    }
    case VertexType::kColorA8R8G8B8: {
      const u32 w = load<u32>(p);
      out = {static_cast<float>((w >> 16) & 255u) / 255.0f,
             static_cast<float>((w >> 8) & 255u) / 255.0f, static_cast<float>(w & 255u) / 255.0f,
             static_cast<float>(w >> 24) / 255.0f};
      return out;  // colours carry no scale and bias
    }
    case VertexType::kUInt8x4:
      for (u32 i = 0; i < 4; ++i) out[i] = static_cast<float>(load<u8>(p + i));
      return out;
    case VertexType::kCount: break;
  }
  for (u32 i = 0; i < 3; ++i) out[i] = out[i] * e.scale[i] + e.bias[i];  // Eq. 6.6
  return out;
}

u32 SubMesh::index(u32 i) const {
  KEEL_ASSERT(i < index_count(), "SubMesh::index past the end");
  if (i >= index_count()) return 0;
  const std::byte* p = indices.data() + static_cast<usize>(i) * index_size;
  return index_size == 2 ? load<u16>(p) : load<u32>(p);
}

std::array<float, 4> SubMesh::read(VertexSemantic semantic, u32 vertex, u8 channel) const {
  const VertexElement* e = declaration.find(semantic, channel);
  if (e == nullptr) return {};
  KEEL_ASSERT(vertex < vertex_count, "SubMesh::read: vertex past the end");
  if (vertex >= vertex_count) return {};
  return decode_element(*e, streams[e->stream], declaration.strides[e->stream], vertex);
}

Result<Mesh> Mesh::parse(ByteSpan chunk) {
  Reader r(chunk);
  const u32 magic = r.u32v(), version = r.u32v();
  Mesh mesh;
  mesh.name_hash_ = r.u32v();
  const u32 material_count = r.u32v(), bone_count = r.u32v(), submesh_count = r.u32v();
  if (!r.ok()) return r.error();
  if (magic != kMeshMagic || version != kMeshVersion) {
    return Unexpected(Error(ErrorCode::kCorrupt,
                            fmt::format("not a version {} mesh chunk (magic {:08x}, version {})",
                                        kMeshVersion, magic, version),
                            SourceLocation::bytes("mesh", 0)));
  }
  if (!r.need(static_cast<u64>(material_count) * 8 + static_cast<u64>(bone_count) * 36 +
                  static_cast<u64>(submesh_count) * 16,
              "the tables")) {
    return r.error();
  }
  for (u32 m = 0; m < material_count; ++m) {
    MeshMaterial mat;
    mat.name_hash = r.u32v();
    mat.fill = r.u8v();
    mat.edges = r.u8v();
    mat.winding = r.u8v();
    mat.culling = r.u8v();
    if (mat.fill > 1 || mat.edges > 1 || mat.winding > 1 || mat.culling > 3) {
      r.fail_here(fmt::format("material {} has unknown render modes", m));
      return r.error();
    }
    mesh.materials_.push_back(mat);
  }
  for (u32 b = 0; b < bone_count; ++b) {
    MeshBone bone;
    bone.name_hash = r.u32v();
    bone.parent = r.s32v();
    for (float& v : bone.position) v = r.f32v();
    for (float& v : bone.rotation) v = r.f32v();
    if (bone.parent < -1 || bone.parent >= static_cast<s32>(bone_count)) {
      r.fail_here(fmt::format("bone {} has parent {}", b, bone.parent));
      return r.error();
    }
    mesh.bones_.push_back(bone);
  }
  for (u32 s = 0; s < submesh_count; ++s) {
    SubMesh sub;
    if (!read_submesh(r, material_count, sub)) return r.error();
    mesh.submeshes_.push_back(std::move(sub));
  }
  if (r.at() != chunk.size()) {
    r.fail_here(fmt::format("{} bytes after the last sub-mesh", chunk.size() - r.at()));
    return r.error();
  }
  return mesh;
}

}  // namespace keel::assets
