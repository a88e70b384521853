// What the Entity handler accepts: the components of Keel's world and their parameters, so a
// misspelt component or parameter is a located build error instead of a silent default at run
// time. The runtime never sees the schema (the spawn registry reads parameters by name).
//
// A game with its own components declares them in a schema file named by the Entity command,
// written in the command language:
//   Component("Shield") { Param(capacity, number, 0, 1000); Param(sound, string); }
// (kinds: number [min [, max]], string, vector; `Param(name, string, required)` must be given.)
#pragma once

#include "keel/core/types.h"
#include "keel/text/diagnostics.h"
#include "keel/text/token.h"
#include "keel/world/defs.h"

#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace keel::world {

struct ParamSpec {
  std::string name;
  ParamKind kind = ParamKind::kNumber;
  double min = -std::numeric_limits<double>::max();  // numbers only
  double max = std::numeric_limits<double>::max();
  bool required = false;
};

struct ComponentSpec {
  std::string name;
  std::vector<ParamSpec> params;  // a parameter called "name" takes the leading value

  const ParamSpec* find(std::string_view param) const;
  std::string param_list() const;  // "radius, mass, damping" for messages
};

class EntitySchema {
 public:
  void add(ComponentSpec spec);  // replaces a component of the same name
  // Case-insensitive, like command names.
  const ComponentSpec* find(std::string_view component) const;
  std::string component_list() const;

  // Adds the `Component(...)` statements of a schema file; errors go to `diagnostics`.
  bool add_from(const text::Token* first, text::Diagnostics& diagnostics);

 private:
  std::vector<ComponentSpec> components_;
};

// Body, Vehicle, Emitter, Obstacle, Target, Gun, Sprite, HudElement, Audio, Lifetime, Script,
// Fsm (see the world README for their parameters).
const EntitySchema& world_schema();

}  // namespace keel::world
