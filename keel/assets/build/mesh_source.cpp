#include "keel/assets/build/mesh_source.h"

#include "keel/text/document.h"
#include "keel/text/signature.h"

#include <fmt/format.h>

#include <cmath>
#include <unordered_set>

namespace keel::assets {

using text::kName;
using text::kNumber;
using text::kString;
using text::Token;

const SourceProperty* SourceMaterial::property(std::string_view wanted) const {
  for (const SourceProperty& p : properties) {
    if (p.name == wanted) return &p;
  }
  return nullptr;
}

bool SourceMaterial::lit() const {
  for (std::string_view p : {"diffuse", "ambient", "specular", "bump", "reflection"}) {
    if (property(p) != nullptr) return true;
  }
  return false;
}

const SourceTexCoord* SourceVertex::texcoord(u32 channel) const {
  for (const SourceTexCoord& t : texcoords) {
    if (t.channel == channel) return &t;
  }
  return nullptr;
}

const SourceColor* SourceVertex::color(std::string_view type) const {
  for (const SourceColor& c : colors) {
    if (c.type == type) return &c;
  }
  return nullptr;
}

s32 MeshSource::find_material(std::string_view wanted) const {
  for (usize i = 0; i < materials.size(); ++i) {
    if (materials[i].name == wanted) return static_cast<s32>(i);
  }
  return -1;
}

s32 MeshSource::find_bone(std::string_view wanted) const {
  for (usize i = 0; i < bones.size(); ++i) {
    if (bones[i].name == wanted) return static_cast<s32>(i);
  }
  return -1;
}

namespace {

constexpr text::ParamKinds kStr = kString | kName;
constexpr s32 kMaxCount = 1 << 24;

class Reader {
 public:
  Reader(text::Diagnostics& diag, std::string filename)
      : diag_(diag), filename_(std::move(filename)) {}

  bool read(const Token* first, MeshSource& mesh) {
    const Token* found = nullptr;
    for (const Token& cmd : text::chain(first)) {
      if (!cmd.is("Mesh")) {
        diag_.error(cmd, "unknown command `{}` in a mesh file (Mesh)", cmd.text);
        continue;
      }
      if (found != nullptr) {
        diag_.error(cmd, "a mesh file holds one Mesh; another starts here");
        continue;
      }
      found = &cmd;
      if (!check(cmd, {kStr}, text::Conditional::kAllowed)) continue;
      mesh.name = std::string(cmd.param(0)->text);
      read_mesh(cmd.conditional, mesh);
    }
    if (found == nullptr) {
      diag_.error(SourceLocation::text(filename_, 1, 1), "the mesh file holds no Mesh(\"name\")");
    }
    return !diag_.has_errors();
  }

 private:
  bool check(const Token& cmd, std::initializer_list<text::ParamKinds> kinds,
             text::Conditional conditional = text::Conditional::kForbidden) {
    if (!text::check_command(cmd, diag_, kinds, {.conditional = conditional})) return false;
    for (const Token& p : text::chain(cmd.params)) {
      if (p.is_number() && !std::isfinite(p.number)) {
        diag_.error(p, "`{}` needs finite numbers", cmd.text);
        return false;
      }
    }
    return true;
  }

  static float num(const Token& cmd, u32 i) { return static_cast<float>(cmd.param(i)->number); }
  static Vec3 vec3(const Token& cmd, u32 first) {
    return {num(cmd, first), num(cmd, first + 1), num(cmd, first + 2)};
  }
  static Vec4 vec4(const Token& cmd, u32 first) {
    return {num(cmd, first), num(cmd, first + 1), num(cmd, first + 2), num(cmd, first + 3)};
  }

  // The count of a `Section(<n>) { ... }` command, or -1 after reporting why it is unusable.
  s32 count_of(const Token& cmd) {
    if (!check(cmd, {kNumber}, text::Conditional::kAllowed)) return -1;
    const double n = cmd.param(0)->number;
    if (n < 0 || n > kMaxCount || n != std::floor(n)) {
      diag_.error(*cmd.param(0), "`{}` needs a whole count from 0 to {}", cmd.text, kMaxCount);
      return -1;
    }
    return static_cast<s32>(n);
  }

  void expect_count(const Token& cmd, s32 declared, usize actual, std::string_view what) {
    if (declared >= 0 && static_cast<usize>(declared) != actual) {
      diag_.error(cmd, "`{}({})` declares {} {} but its block defines {}", cmd.text, declared,
                  declared, what, actual);
    }
  }

  void read_mesh(const Token* first, MeshSource& mesh) {
    const Token* triangles = nullptr;
    for (const Token& cmd : text::chain(first)) {
      if (cmd.is("Skeleton")) {
        read_skeleton(cmd, mesh);
      } else if (cmd.is("Materials")) {
        read_materials(cmd, mesh);
      } else if (cmd.is("Vertices")) {
        read_vertices(cmd, mesh);
      } else if (cmd.is("Triangles")) {
        triangles = &cmd;  // after everything else: it names materials and vertices
      } else {
        diag_.error(cmd, "unknown Mesh command `{}` (Skeleton, Materials, Vertices, Triangles)",
                    cmd.text);
      }
    }
    resolve_bones(mesh);
    usize next = 0;  // influences_ holds every Bone(...) token in vertex order
    for (usize i = 0; i < mesh.vertices.size(); ++i) {
      for (SourceInfluence& inf : mesh.vertices[i].bones) {
        inf.bone_index = mesh.find_bone(inf.bone);
        const Token* at = next < influences_.size() ? influences_[next] : nullptr;
        ++next;
        if (inf.bone_index < 0 && at != nullptr) {
          diag_.error(*at, "vertex {} is bound to bone `{}`, which the skeleton does not define", i,
                      inf.bone);
        }
      }
    }
    if (triangles != nullptr) read_triangles(*triangles, mesh);
  }

  void read_skeleton(const Token& cmd, MeshSource& mesh) {
    const s32 n = count_of(cmd);
    usize defined = 0;
    for (const Token& b : text::chain(cmd.conditional)) {
      if (!b.is("Bone")) {
        diag_.error(b, "unknown Skeleton command `{}` (Bone)", b.text);
        continue;
      }
      ++defined;
      if (!check(b, {kStr}, text::Conditional::kAllowed)) continue;
      SourceBone bone;
      bone.name = std::string(b.param(0)->text);
      if (mesh.find_bone(bone.name) >= 0) diag_.error(b, "bone `{}` is defined twice", bone.name);
      const Token* parent_at = nullptr;
      for (const Token& c : text::chain(b.conditional)) {
        if (c.is("Parent")) {
          if (check(c, {kStr})) {
            bone.parent = std::string(c.param(0)->text);
            parent_at = c.param(0);
          }
        } else if (c.is("Position")) {
          if (check(c, {kNumber, kNumber, kNumber})) bone.position = vec3(c, 0);
        } else if (c.is("Rotation")) {
          if (check(c, {kNumber, kNumber, kNumber, kNumber})) bone.rotation = vec4(c, 0);
        } else {
          diag_.error(c, "unknown Bone command `{}` (Parent, Position, Rotation)", c.text);
        }
      }
      parent_at_.push_back(parent_at);
      mesh.bones.push_back(std::move(bone));
    }
    expect_count(cmd, n, defined, "bones");
  }

  void resolve_bones(MeshSource& mesh) {
    for (usize i = 0; i < mesh.bones.size(); ++i) {
      SourceBone& bone = mesh.bones[i];
      if (bone.parent.empty()) continue;
      bone.parent_index = mesh.find_bone(bone.parent);
      const Token* at = i < parent_at_.size() ? parent_at_[i] : nullptr;
      if (bone.parent_index < 0 && at != nullptr) {
        diag_.error(*at, "bone `{}` names parent `{}`, which the skeleton does not define",
                    bone.name, bone.parent);
      } else if (bone.parent_index == static_cast<s32>(i) && at != nullptr) {
        diag_.error(*at, "bone `{}` is its own parent", bone.name);
      }
    }
    // A cycle would make the hierarchy unusable.
    for (usize i = 0; i < mesh.bones.size(); ++i) {
      s32 at = static_cast<s32>(i);
      for (usize steps = 0; at >= 0; ++steps) {
        if (steps > mesh.bones.size()) {
          diag_.error(
              SourceLocation::text(filename_, 1, 1),
              fmt::format("the skeleton's parents form a cycle through `{}`", mesh.bones[i].name));
          return;
        }
        at = mesh.bones[static_cast<usize>(at)].parent_index;
      }
    }
  }

  template <typename E>
  bool pick(const Token& cmd, E& out, std::initializer_list<std::pair<std::string_view, E>> names) {
    if (!check(cmd, {kStr})) return false;
    std::string list;
    for (const auto& [name, value] : names) {
      if (cmd.param(0)->is(name)) {
        out = value;
        return true;
      }
      list += list.empty() ? "" : ", ";
      list += name;
    }
    diag_.error(*cmd.param(0), "`{}` takes one of {}, not `{}`", cmd.text, list,
                cmd.param(0)->text);
    return false;
  }

  void read_property(const Token& cmd, SourceMaterial& material) {
    if (!check(cmd, {kStr}, text::Conditional::kAllowed)) return;
    SourceProperty p;
    p.name = std::string(cmd.param(0)->text);
    for (const Token& c : text::chain(cmd.conditional)) {
      if (c.is("Amount")) {
        if (check(c, {kNumber})) p.amount = num(c, 0);
      } else if (c.is("Texture")) {
        if (!check(c, {kNumber, kStr})) continue;
        if (c.param(0)->number < 0 || c.param(0)->number > 15) {
          diag_.error(*c.param(0), "texture-coordinate channel must be 0..15");
          continue;
        }
        p.texture_channel = c.param(0)->as_int();
        p.texture = std::string(c.param(1)->text);
      } else if (c.is("Color")) {
        if (check(c, {kNumber, kNumber, kNumber, kNumber})) p.color = vec4(c, 0);
      } else {
        diag_.error(c, "unknown Property command `{}` (Amount, Texture, Color)", c.text);
      }
    }
    material.properties.push_back(std::move(p));
  }

  void read_materials(const Token& cmd, MeshSource& mesh) {
    const s32 n = count_of(cmd);
    usize defined = 0;
    for (const Token& m : text::chain(cmd.conditional)) {
      if (!m.is("Material")) {
        diag_.error(m, "unknown Materials command `{}` (Material)", m.text);
        continue;
      }
      ++defined;
      if (!check(m, {kStr}, text::Conditional::kAllowed)) continue;
      SourceMaterial mat;
      mat.name = std::string(m.param(0)->text);
      if (mesh.find_material(mat.name) >= 0) {
        diag_.error(m, "material `{}` is defined twice", mat.name);
      }
      for (const Token& c : text::chain(m.conditional)) {
        if (c.is("FillMode")) {
          pick(c, mat.fill, {{"solid", FillMode::kSolid}, {"none", FillMode::kNone}});
        } else if (c.is("Edges")) {
          pick(c, mat.edges, {{"none", EdgeMode::kNone}, {"solid", EdgeMode::kSolid}});
        } else if (c.is("Winding")) {
          pick(c, mat.winding,
               {{"counterclockwise", Winding::kCounterClockwise},
                {"ccw", Winding::kCounterClockwise},
                {"clockwise", Winding::kClockwise},
                {"cw", Winding::kClockwise}});
        } else if (c.is("Culling")) {
          pick(c, mat.culling,
               {{"back", Culling::kBack},
                {"front", Culling::kFront},
                {"none", Culling::kNone},
                {"all", Culling::kAll}});
        } else if (c.is("Property")) {
          read_property(c, mat);
        } else {
          diag_.error(c,
                      "unknown Material command `{}` (FillMode, Edges, Winding, Culling, Property)",
                      c.text);
        }
      }
      mesh.materials.push_back(std::move(mat));
    }
    expect_count(cmd, n, defined, "materials");
  }

  void read_vertex_data(const Token& c, SourceVertex& v) {
    if (c.is("Normal")) {
      if (check(c, {kNumber, kNumber, kNumber})) v.normal = vec3(c, 0);
    } else if (c.is("Tangent")) {
      if (check(c, {kNumber, kNumber, kNumber})) v.tangent = vec3(c, 0);
    } else if (c.is("BiNormal")) {
      if (check(c, {kNumber, kNumber, kNumber})) v.binormal = vec3(c, 0);
    } else if (c.is("TexCoord")) {
      if (!check(c, {kNumber, kNumber, kNumber})) return;
      if (c.param(0)->number < 0 || c.param(0)->number > 15) {
        diag_.error(*c.param(0), "texture-coordinate channel must be 0..15");
        return;
      }
      const u32 channel = static_cast<u32>(c.param(0)->as_int());
      if (v.texcoord(channel) != nullptr) {
        diag_.error(c, "the vertex has two TexCoord for channel {}", channel);
        return;
      }
      v.texcoords.push_back({channel, num(c, 1), num(c, 2)});
    } else if (c.is("Color")) {
      if (!check(c, {kStr, kNumber, kNumber, kNumber, kNumber})) return;
      v.colors.push_back({std::string(c.param(0)->text), vec4(c, 1)});
    } else if (c.is("Bone")) {
      if (!check(c, {kStr, kNumber})) return;
      v.bones.push_back({std::string(c.param(0)->text), -1, num(c, 1)});
      influences_.push_back(c.param(0));
    } else {
      diag_.error(c,
                  "unknown Vertex command `{}` (Normal, TexCoord, Color, Bone, Tangent, BiNormal)",
                  c.text);
    }
  }

  void read_vertices(const Token& cmd, MeshSource& mesh) {
    const s32 n = count_of(cmd);
    usize defined = 0;
    for (const Token& vc : text::chain(cmd.conditional)) {
      if (!vc.is("Vertex")) {
        diag_.error(vc, "unknown Vertices command `{}` (Vertex)", vc.text);
        continue;
      }
      ++defined;
      if (!check(vc, {kNumber, kNumber, kNumber, kNumber}, text::Conditional::kAllowed)) continue;
      if (vc.param(0)->number != static_cast<double>(mesh.vertices.size())) {
        diag_.error(*vc.param(0), "vertex {} is out of sequence: the next vertex is {}",
                    vc.param(0)->text, mesh.vertices.size());
      }
      SourceVertex v;
      v.position = vec3(vc, 1);
      for (const Token& c : text::chain(vc.conditional)) read_vertex_data(c, v);
      // Bump-mapping data comes complete: a tangent or binormal needs the other two vectors.
      if ((v.tangent || v.binormal) && !(v.tangent && v.binormal && v.normal)) {
        diag_.error(
            vc, "vertex {} has {} without {}: Tangent and BiNormal need each other and a Normal",
            mesh.vertices.size(), v.tangent ? "a Tangent" : "a BiNormal",
            !v.normal ? "a Normal" : (v.tangent ? "a BiNormal" : "a Tangent"));
      }
      mesh.vertices.push_back(std::move(v));
    }
    expect_count(cmd, n, defined, "vertices");
  }

  void read_triangles(const Token& cmd, MeshSource& mesh) {
    const s32 n = count_of(cmd);
    usize defined = 0;
    for (const Token& t : text::chain(cmd.conditional)) {
      if (!t.is("Triangle")) {
        diag_.error(t, "unknown Triangles command `{}` (Triangle)", t.text);
        continue;
      }
      ++defined;
      if (!check(t, {kStr, kNumber, kNumber, kNumber}, text::Conditional::kAllowed)) continue;
      SourceTriangle tri;
      const s32 m = mesh.find_material(t.param(0)->text);
      if (m < 0) {
        diag_.error(*t.param(0), "triangle uses material `{}`, which Materials does not define",
                    t.param(0)->text);
      }
      tri.material = static_cast<u32>(std::max(m, 0));
      for (u32 i = 0; i < 3; ++i) {
        const double v = t.param(i + 1)->number;
        if (v < 0 || v >= static_cast<double>(mesh.vertices.size()) || v != std::floor(v)) {
          diag_.error(*t.param(i + 1), "triangle vertex {} is not one of the {} vertices",
                      t.param(i + 1)->text, mesh.vertices.size());
        } else {
          tri.v[i] = static_cast<u32>(v);
        }
      }
      for (const Token& c : text::chain(t.conditional)) {
        if (!c.is("Normal")) {
          diag_.error(c, "unknown Triangle command `{}` (Normal)", c.text);
        } else if (check(c, {kNumber, kNumber, kNumber})) {
          tri.normal = vec3(c, 0);
        }
      }
      mesh.triangles.push_back(tri);
    }
    expect_count(cmd, n, defined, "triangles");
  }

  text::Diagnostics& diag_;
  std::vector<const Token*> parent_at_;  // per bone: its Parent parameter, or nullptr
  std::vector<const Token*> influences_;
  std::string filename_;
};

std::string quote_name(std::string_view s) {
  return s.find('"') == std::string_view::npos ? fmt::format("\"{}\"", s) : fmt::format("'{}'", s);
}

template <usize N>
std::string numbers(const std::array<float, N>& v) {
  std::string out;
  for (usize i = 0; i < N; ++i) out += fmt::format("{}{}", i == 0 ? "" : ", ", v[i]);
  return out;
}

constexpr std::string_view kFill[] = {"solid", "none"};
constexpr std::string_view kEdges[] = {"none", "solid"};
constexpr std::string_view kWinding[] = {"counterclockwise", "clockwise"};
constexpr std::string_view kCulling[] = {"back", "front", "none", "all"};

void write_materials(const MeshSource& mesh, std::string& out) {
  if (mesh.materials.empty()) return;
  out += fmt::format("  Materials({})\n  {{\n", mesh.materials.size());
  for (const SourceMaterial& m : mesh.materials) {
    out += fmt::format("    Material({})\n    {{\n", quote_name(m.name));
    out += fmt::format("      FillMode(\"{}\"); Edges(\"{}\"); Winding(\"{}\"); Culling(\"{}\");\n",
                       kFill[static_cast<u8>(m.fill)], kEdges[static_cast<u8>(m.edges)],
                       kWinding[static_cast<u8>(m.winding)], kCulling[static_cast<u8>(m.culling)]);
    for (const SourceProperty& p : m.properties) {
      out += fmt::format("      Property({}) {{ Amount({});", quote_name(p.name), p.amount);
      if (p.texture_channel >= 0) {
        out += fmt::format(" Texture({}, {});", p.texture_channel, quote_name(p.texture));
      }
      if (p.color) out += fmt::format(" Color({});", numbers(*p.color));
      out += " }\n";
    }
    out += "    }\n";
  }
  out += "  }\n";
}

void write_vertex(const SourceVertex& v, usize i, std::string& out) {
  out += fmt::format("    Vertex({}, {})", i, numbers(v.position));
  std::string block;
  if (v.normal) block += fmt::format(" Normal({});", numbers(*v.normal));
  for (const SourceTexCoord& t : v.texcoords) {
    block += fmt::format(" TexCoord({}, {}, {});", t.channel, t.u, t.v);
  }
  for (const SourceColor& c : v.colors) {
    block += fmt::format(" Color({}, {});", quote_name(c.type), numbers(c.rgba));
  }
  for (const SourceInfluence& b : v.bones) {
    block += fmt::format(" Bone({}, {});", quote_name(b.bone), b.weight);
  }
  if (v.tangent) block += fmt::format(" Tangent({});", numbers(*v.tangent));
  if (v.binormal) block += fmt::format(" BiNormal({});", numbers(*v.binormal));
  out += block.empty() ? ";\n" : fmt::format(" {{{} }}\n", block);
}

}  // namespace

std::optional<MeshSource> parse_mesh_source(std::string text, std::string filename,
                                            text::Diagnostics& diagnostics) {
  const usize errors_before = diagnostics.error_count();
  std::unique_ptr<text::Document> doc =
      text::parse(std::move(text), std::move(filename), diagnostics);
  if (!doc) return std::nullopt;
  MeshSource mesh;
  Reader reader(diagnostics, doc->filename());
  reader.read(doc->first(), mesh);
  if (diagnostics.error_count() != errors_before) return std::nullopt;
  return mesh;
}

Result<MeshSource> parse_mesh_source(std::string text, std::string filename) {
  text::Diagnostics diagnostics;
  std::optional<MeshSource> mesh =
      parse_mesh_source(std::move(text), std::move(filename), diagnostics);
  if (!mesh) {
    const Status status = diagnostics.status();
    if (!status) return Unexpected(status.error());
    return fail(ErrorCode::kCorrupt, "the mesh file could not be read");
  }
  return std::move(*mesh);
}

std::string write_mesh_source(const MeshSource& mesh) {
  std::string out = fmt::format("Mesh({})\n{{\n", quote_name(mesh.name));
  if (!mesh.bones.empty()) {
    out += fmt::format("  Skeleton({})\n  {{\n", mesh.bones.size());
    for (const SourceBone& b : mesh.bones) {
      out += fmt::format("    Bone({}) {{", quote_name(b.name));
      if (!b.parent.empty()) out += fmt::format(" Parent({});", quote_name(b.parent));
      out += fmt::format(" Position({}); Rotation({}); }}\n", numbers(b.position),
                         numbers(b.rotation));
    }
    out += "  }\n";
  }
  write_materials(mesh, out);
  if (!mesh.vertices.empty()) {
    out += fmt::format("  Vertices({})\n  {{\n", mesh.vertices.size());
    for (usize i = 0; i < mesh.vertices.size(); ++i) write_vertex(mesh.vertices[i], i, out);
    out += "  }\n";
  }
  if (!mesh.triangles.empty()) {
    out += fmt::format("  Triangles({})\n  {{\n", mesh.triangles.size());
    for (const SourceTriangle& t : mesh.triangles) {
      out += fmt::format("    Triangle({}, {}, {}, {})",
                         quote_name(mesh.materials[t.material].name), t.v[0], t.v[1], t.v[2]);
      out += t.normal ? fmt::format(" {{ Normal({}); }}\n", numbers(*t.normal)) : ";\n";
    }
    out += "  }\n";
  }
  out += "}\n";
  return out;
}

}  // namespace keel::assets
