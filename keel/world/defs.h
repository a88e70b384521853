// Entity definitions in data (the Citizen blog's P2 goal): what the `Entity("fighter") { ... }`
// command of a command file compiles to, and the runtime collection the game spawns from.
//
//   // command file (compiled by keel::world_build's Entity handler):
//   Entity("fighter") {
//     Body(radius, 12, mass, 3);              // name, value pairs
//     Gun(bullet, "bullet", muzzle, 0, 16);   // a string, a number, or two numbers (a vector)
//     Sprite("ships/fighter");                // a leading value is the parameter `name`
//   }
//
//   // game:
//   pack::Loader loader;  world::register_entity_def_type(loader);
//   world::EntityDefs defs;  defs.add_pack(*loader.load("main.kpk"));
//   const world::EntityDef* fighter = defs.find("fighter");
//
// Component parameters stay generic (name -> number, text or vector): the spawn registry
// (defs_spawn.h) is the only place that knows a component's fields.
#pragma once

#include "keel/core/bytes.h"
#include "keel/core/error.h"
#include "keel/core/hash.h"
#include "keel/core/types.h"
#include "keel/world/entity.h"

#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace keel::pack {
class Loader;
class LoadedPack;
}  // namespace keel::pack

namespace keel::world {

enum class ParamKind : u8 { kNumber = 1, kText = 2, kVec2 = 3 };
std::string_view to_string(ParamKind kind);  // "a number", "a string", "a vector"

struct Param {
  std::string name;
  ParamKind kind = ParamKind::kNumber;
  double number = 0;  // kNumber
  Vec2 vec;           // kVec2
  std::string text;   // kText
};

// A component's parameters in definition order; lookups compare names exactly.
class Params {
 public:
  std::span<const Param> all() const { return params_; }
  usize size() const { return params_.size(); }
  const Param* find(std::string_view name) const;
  bool has(std::string_view name) const { return find(name) != nullptr; }
  // The value when present with this kind, else the fallback (numbers clamped to f32's range).
  f32 number(std::string_view name, f32 fallback = 0) const;
  std::string_view text(std::string_view name, std::string_view fallback = {}) const;
  Vec2 vec2(std::string_view name, Vec2 fallback = {}) const;

  // Building (the handler, tests, the game's own definitions). An existing name is replaced.
  Params& set_number(std::string_view name, double value);
  Params& set_text(std::string_view name, std::string_view value);
  Params& set_vec2(std::string_view name, Vec2 value);
  void add(Param param);

 private:
  std::vector<Param> params_;
};

struct ComponentDef {
  std::string name;  // the registry's key: "Body", "Vehicle", ...
  Params params;
};

struct EntityDef {
  std::string name;
  std::vector<ComponentDef> components;  // in definition order (spawn creates them in this order)

  const ComponentDef* find(std::string_view component) const;
};

// The chunk of one definition (asset type "Entity", little-endian):
//   u32 magic "KENT" | u32 version | str name | u32 component_count
//   component: str name | u32 param_count | param: str name | u8 kind | value
//   value: f64 (number) | str (text) | f64 x, f64 y (vector);   str = u32 length + bytes
inline constexpr u32 kEntityDefMagic = 0x544E454Bu;  // "KENT"
inline constexpr u32 kEntityDefVersion = 1;
inline constexpr std::string_view kEntityAssetType = "Entity";

ByteBuffer encode_entity_def(const EntityDef& def);
// Validated once: magic, version, bounds, non-empty names, no duplicate components or
// parameters, finite numbers, no trailing bytes. `label` names the data in errors.
Result<EntityDef> decode_entity_def(ByteSpan bytes, std::string_view label = "<entity>");

// The definitions a game spawns from, by name.
class EntityDefs {
 public:
  // kAlreadyExists when a definition of that name (or of a name with the same string_hash) is
  // already here (nothing changes).
  Status add(EntityDef def);
  Status add_bytes(ByteSpan chunk, std::string_view label = "<entity>");
  // Copies every "Entity" asset of a pack loaded with register_entity_def_type.
  Status add_pack(const pack::LoadedPack& pack);

  const EntityDef* find(std::string_view name) const;
  // By string_hash(name) (core/hash.h), as scripts pass names: SPAWN("fighter").
  const EntityDef* find_hash(Hash name_hash) const;
  usize size() const { return defs_.size(); }

 private:
  std::unordered_map<std::string, EntityDef> defs_;  // node-based: pointers stay valid
  std::unordered_map<Hash, const EntityDef*> by_hash_;
};

// Registers the "Entity" asset type with a pack loader: its setup decodes (and so validates) the
// chunk into an EntityDef owned by the loaded pack.
void register_entity_def_type(pack::Loader& loader);

}  // namespace keel::world
