#include "keel/world/defs.h"

#include "keel/pack/loader.h"
#include "keel/world/detail/defs_codec.h"

#include <algorithm>
#include <limits>
#include <memory>
#include <utility>

namespace keel::world {

using detail::DefReader;
using detail::DefWriter;

std::string_view to_string(ParamKind kind) {
  switch (kind) {
    case ParamKind::kNumber: return "a number";
    case ParamKind::kText: return "a string";
    case ParamKind::kVec2: return "a vector (two numbers)";
  }
  return "an unknown kind";
}

// ---- Params -------------------------------------------------------------------------------

const Param* Params::find(std::string_view name) const {
  for (const Param& p : params_) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

f32 Params::number(std::string_view name, f32 fallback) const {
  const Param* p = find(name);
  if (p == nullptr || p->kind != ParamKind::kNumber) return fallback;
  constexpr double kMax = std::numeric_limits<f32>::max();
  return static_cast<f32>(std::clamp(p->number, -kMax, kMax));
}

std::string_view Params::text(std::string_view name, std::string_view fallback) const {
  const Param* p = find(name);
  return p != nullptr && p->kind == ParamKind::kText ? std::string_view(p->text) : fallback;
}

Vec2 Params::vec2(std::string_view name, Vec2 fallback) const {
  const Param* p = find(name);
  return p != nullptr && p->kind == ParamKind::kVec2 ? p->vec : fallback;
}

void Params::add(Param param) {
  for (Param& p : params_) {
    if (p.name == param.name) {
      p = std::move(param);
      return;
    }
  }
  params_.push_back(std::move(param));
}

Params& Params::set_number(std::string_view name, double value) {
  Param p;
  p.name = std::string(name);
  p.kind = ParamKind::kNumber;
  p.number = value;
  add(std::move(p));
  return *this;
}

Params& Params::set_text(std::string_view name, std::string_view value) {
  Param p;
  p.name = std::string(name);
  p.kind = ParamKind::kText;
  p.text = std::string(value);
  add(std::move(p));
  return *this;
}

Params& Params::set_vec2(std::string_view name, Vec2 value) {
  Param p;
  p.name = std::string(name);
  p.kind = ParamKind::kVec2;
  p.vec = value;
  add(std::move(p));
  return *this;
}

const ComponentDef* EntityDef::find(std::string_view component) const {
  for (const ComponentDef& c : components) {
    if (c.name == component) return &c;
  }
  return nullptr;
}

// ---- the chunk ----------------------------------------------------------------------------

ByteBuffer encode_entity_def(const EntityDef& def) {
  DefWriter w;
  w.u32v(kEntityDefMagic);
  w.u32v(kEntityDefVersion);
  w.str(def.name);
  w.u32v(static_cast<u32>(def.components.size()));
  for (const ComponentDef& c : def.components) {
    w.str(c.name);
    w.u32v(static_cast<u32>(c.params.size()));
    for (const Param& p : c.params.all()) {
      w.str(p.name);
      w.u8v(static_cast<u8>(p.kind));
      switch (p.kind) {
        case ParamKind::kNumber: w.f64v(p.number); break;
        case ParamKind::kText: w.str(p.text); break;
        case ParamKind::kVec2:
          w.f64v(p.vec.x);
          w.f64v(p.vec.y);
          break;
      }
    }
  }
  return w.take();
}

namespace {

// The smallest encodings: a component (name of 1 byte + count), a parameter (name + kind + text).
constexpr usize kMinComponent = 4 + 1 + 4;
constexpr usize kMinParam = 4 + 1 + 1 + 4;

Result<Param> read_param(DefReader& r) {
  Param p;
  Result<std::string> name = r.str();
  if (!name) return std::unexpected(name.error());
  p.name = std::move(*name);
  const Result<u8> kind = r.u8v();
  if (!kind) return std::unexpected(kind.error());
  switch (*kind) {
    case static_cast<u8>(ParamKind::kNumber): {
      const Result<double> v = r.f64v();
      if (!v) return std::unexpected(v.error());
      p.kind = ParamKind::kNumber;
      p.number = *v;
      return p;
    }
    case static_cast<u8>(ParamKind::kText): {
      Result<std::string> v = r.str(/*allow_empty=*/true);
      if (!v) return std::unexpected(v.error());
      p.kind = ParamKind::kText;
      p.text = std::move(*v);
      return p;
    }
    case static_cast<u8>(ParamKind::kVec2): {
      const Result<f32> x = r.f32v();
      if (!x) return std::unexpected(x.error());
      const Result<f32> y = r.f32v();
      if (!y) return std::unexpected(y.error());
      p.kind = ParamKind::kVec2;
      p.vec = {*x, *y};
      return p;
    }
    default: break;
  }
  return r.corrupt("unknown parameter kind");
}

Result<ComponentDef> read_component(DefReader& r) {
  ComponentDef c;
  Result<std::string> name = r.str();
  if (!name) return std::unexpected(name.error());
  c.name = std::move(*name);
  const Result<u32> count = r.count(kMinParam);
  if (!count) return std::unexpected(count.error());
  for (u32 i = 0; i < *count; ++i) {
    Result<Param> p = read_param(r);
    if (!p) return std::unexpected(p.error());
    if (c.params.has(p->name)) return r.corrupt("a component repeats a parameter");
    c.params.add(std::move(*p));
  }
  return c;
}

}  // namespace

Result<EntityDef> decode_entity_def(ByteSpan bytes, std::string_view label) {
  DefReader r(bytes, label);
  const Result<u32> magic = r.u32v();
  if (!magic) return std::unexpected(magic.error());
  if (*magic != kEntityDefMagic) return r.corrupt("not an entity definition (bad magic)");
  const Result<u32> version = r.u32v();
  if (!version) return std::unexpected(version.error());
  if (*version != kEntityDefVersion) {
    return fail(ErrorCode::kUnsupported, "{}: entity definition version {} (this build reads {})",
                label, *version, kEntityDefVersion);
  }
  EntityDef def;
  Result<std::string> name = r.str();
  if (!name) return std::unexpected(name.error());
  def.name = std::move(*name);
  const Result<u32> count = r.count(kMinComponent);
  if (!count) return std::unexpected(count.error());
  def.components.reserve(*count);
  for (u32 i = 0; i < *count; ++i) {
    Result<ComponentDef> c = read_component(r);
    if (!c) return std::unexpected(c.error());
    if (def.find(c->name) != nullptr) return r.corrupt("a definition repeats a component");
    def.components.push_back(std::move(*c));
  }
  if (r.remaining() != 0) {
    return fail_at(SourceLocation::bytes(std::string(label), r.offset()), ErrorCode::kTrailingData,
                   "{} bytes after the entity definition", r.remaining());
  }
  return def;
}

// ---- EntityDefs -------------------------------------------------------------------------

Status EntityDefs::add(EntityDef def) {
  if (def.name.empty())
    return fail(ErrorCode::kInvalidArgument, "an entity definition needs a name");
  if (defs_.contains(def.name)) {
    return fail(ErrorCode::kAlreadyExists, "entity definition `{}` is already loaded", def.name);
  }
  const Hash hash = string_hash(def.name);
  if (const auto it = by_hash_.find(hash); it != by_hash_.end()) {
    return fail(ErrorCode::kAlreadyExists, "entity definitions `{}` and `{}` have the same hash",
                it->second->name, def.name);
  }
  std::string key = def.name;
  const auto it = defs_.emplace(std::move(key), std::move(def)).first;
  by_hash_.emplace(hash, &it->second);
  return ok();
}

Status EntityDefs::add_bytes(ByteSpan chunk, std::string_view label) {
  Result<EntityDef> def = decode_entity_def(chunk, label);
  if (!def) return std::unexpected(def.error());
  return add(std::move(*def));
}

Status EntityDefs::add_pack(const pack::LoadedPack& pack) {
  const Hash type = pack::type_hash(kEntityAssetType);
  for (const pack::LoadedPack::Asset& asset : pack.assets()) {
    if (asset.type_hash != type || asset.asset == nullptr) continue;
    if (Status s = add(*static_cast<const EntityDef*>(asset.asset)); !s) return s;
  }
  return ok();
}

const EntityDef* EntityDefs::find(std::string_view name) const {
  const auto it = defs_.find(std::string(name));
  return it == defs_.end() ? nullptr : &it->second;
}

const EntityDef* EntityDefs::find_hash(Hash name_hash) const {
  const auto it = by_hash_.find(name_hash);
  return it == by_hash_.end() ? nullptr : it->second;
}

void register_entity_def_type(pack::Loader& loader) {
  loader.register_type(
      pack::type_hash(kEntityAssetType),
      [](pack::SetupContext& ctx) -> Result<void*> {
        Result<EntityDef> def = decode_entity_def(ctx.primary(), "Entity chunk");
        if (!def) return std::unexpected(def.error());
        return new EntityDef(std::move(*def));  // NOLINT(cppcoreguidelines-owning-memory)
      },
      [](void* asset) { delete static_cast<EntityDef*>(asset); });  // NOLINT
}

}  // namespace keel::world
