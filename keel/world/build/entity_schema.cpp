#include "keel/world/build/entity_schema.h"

#include "keel/text/signature.h"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

namespace keel::world {
namespace {

constexpr double kMax = std::numeric_limits<double>::max();

ParamSpec num(std::string name, double min = -kMax, double max = kMax) {
  return {.name = std::move(name), .kind = ParamKind::kNumber, .min = min, .max = max};
}
ParamSpec str(std::string name, bool required = false) {
  return {.name = std::move(name), .kind = ParamKind::kText, .required = required};
}
ParamSpec vec(std::string name) { return {.name = std::move(name), .kind = ParamKind::kVec2}; }
ParamSpec weight(std::string name) { return num(std::move(name), 0); }

EntitySchema make_world_schema() {
  EntitySchema s;
  // Physics, steering and particles (their systems register the factories).
  // Physics, steering and particles (register_system_components in defs_spawn.h): the fields
  // of physics_types.h's BodyDef, steering_system.h's Vehicle and particles.h's Emitter.
  s.add({"Body",
         {str("shape"), str("type"), num("radius", 0, 1e5), vec("size"), num("density", 0, 1e6),
          num("mass", 0, 1e9), num("damping", 0, 1e6), num("angular_damping", 0, 1e6),
          num("friction", 0, 1e6), num("restitution", 0, 1), num("fixed_rotation", 0, 1),
          num("bullet", 0, 1), num("group", 0, 15)}});
  s.add({"Vehicle",
         {num("max_speed", 0),
          str("mode"),
          num("turn_rate", 0),
          num("accel_rate", 0),
          num("mass", 1e-6),
          weight("seek"),
          weight("flee"),
          weight("arrive"),
          weight("pursue"),
          weight("evade"),
          weight("wander"),
          weight("align"),
          weight("cohesion"),
          weight("separation"),
          weight("avoidance"),
          num("radius", 0),
          num("neighbour_radius", 0),
          num("separation_radius", 0),
          num("slowing_radius", 0),
          num("look_ahead", 0),
          num("max_prediction", 0),
          num("face_target", 0, 1)}});
  s.add({"Emitter",
         {str("name", true), vec("offset"), num("angle"), num("on", 0, 1),
          num("burst_on_shoot", 0, 1)}});
  // components.h (register_world_components in defs_spawn.h).
  s.add({"Obstacle", {num("group", 0, 31), num("radius", 0)}});
  s.add({"Target", {}});
  s.add({"Gun", {str("bullet"), num("cooldown", 0), num("speed", 0), vec("muzzle")}});
  s.add({"Sprite",
         {str("name", true), str("frame"), vec("size"), num("colour", 0, 4294967295.0),
          num("layer", -1e6, 1e6)}});
  s.add({"HudElement",
         {str("name", true), str("kind"), vec("position"), vec("size"),
          num("colour", 0, 4294967295.0)}});
  s.add({"Audio", {str("shoot"), str("hit"), str("die"), str("engine"), num("volume", 0, 16)}});
  s.add({"Lifetime", {num("seconds", 0), num("kill", 0, 1)}});
  // Bindings (bindings.h): the entity's script or state machine.
  s.add({"Script", {str("name", true)}});
  s.add({"Fsm", {str("name", true)}});
  return s;
}

bool read_param_spec(const text::Token& cmd, ParamSpec& spec, text::Diagnostics& diag) {
  using text::kName;
  using text::kNumber;
  if (!text::check_command(cmd, diag, {kName, kName, kNumber | kName, kNumber},
                           {.min_params = 2})) {
    return false;
  }
  spec.name = std::string(cmd.param(0)->text);
  const text::Token& kind = *cmd.param(1);
  if (kind.is("number")) {
    spec.kind = ParamKind::kNumber;
  } else if (kind.is("string")) {
    spec.kind = ParamKind::kText;
  } else if (kind.is("vector")) {
    spec.kind = ParamKind::kVec2;
  } else {
    diag.error(kind, "unknown parameter kind `{}` (number, string, vector)", kind.text);
    return false;
  }
  for (const text::Token* t = kind.next; t != nullptr; t = t->next) {
    if (t->is_name() && t->is("required")) {
      spec.required = true;
    } else if (t->is_number() && spec.kind == ParamKind::kNumber && t == kind.next) {
      spec.min = t->number;
    } else if (t->is_number() && spec.kind == ParamKind::kNumber && t->next == nullptr) {
      spec.max = t->number;
    } else {
      diag.error(*t, "`Param` takes `name, kind [, min [, max]]` or `name, kind, required`");
      return false;
    }
  }
  return true;
}

}  // namespace

const ParamSpec* ComponentSpec::find(std::string_view param) const {
  for (const ParamSpec& p : params) {
    if (p.name == param) return &p;
  }
  return nullptr;
}

std::string ComponentSpec::param_list() const {
  std::string out;
  for (const ParamSpec& p : params) {
    if (!out.empty()) out += ", ";
    out += p.name;
  }
  return out.empty() ? "none" : out;
}

void EntitySchema::add(ComponentSpec spec) {
  for (ComponentSpec& c : components_) {
    if (c.name == spec.name) {
      c = std::move(spec);
      return;
    }
  }
  components_.push_back(std::move(spec));
}

const ComponentSpec* EntitySchema::find(std::string_view component) const {
  const auto lower = [](char ch) {
    return ch >= 'A' && ch <= 'Z' ? static_cast<char>(ch + 32) : ch;
  };
  for (const ComponentSpec& c : components_) {
    if (std::ranges::equal(c.name, component, {}, lower, lower)) return &c;
  }
  return nullptr;
}

std::string EntitySchema::component_list() const {
  std::string out;
  for (const ComponentSpec& c : components_) {
    if (!out.empty()) out += ", ";
    out += c.name;
  }
  return out;
}

bool EntitySchema::add_from(const text::Token* first, text::Diagnostics& diag) {
  bool ok = true;
  for (const text::Token& cmd : text::chain(first)) {
    if (!cmd.is("Component")) {
      diag.error(cmd, "a schema file holds `Component(\"Name\") {{ Param(...); }}` statements");
      ok = false;
      continue;
    }
    if (!text::check_command(cmd, diag, {text::kString},
                             {.conditional = text::Conditional::kAllowed})) {
      ok = false;
      continue;
    }
    ComponentSpec spec{.name = std::string(cmd.param(0)->text), .params = {}};
    for (const text::Token& p : text::chain(cmd.conditional)) {
      ParamSpec param;
      if (!p.is("Param")) {
        diag.error(p, "`Component` holds `Param(name, kind ...)` statements");
        ok = false;
      } else if (read_param_spec(p, param, diag)) {
        spec.params.push_back(std::move(param));
      } else {
        ok = false;
      }
    }
    add(std::move(spec));
  }
  return ok;
}

const EntitySchema& world_schema() {
  static const EntitySchema schema = make_world_schema();
  return schema;
}

}  // namespace keel::world
