#include "keel/world/build/entity_compiler.h"

#include "keel/text/signature.h"

#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace keel::world {
namespace {

using text::Token;

// The values after a key (or the leading values): every token up to the next name.
std::vector<const Token*> values_from(const Token*& t) {
  std::vector<const Token*> values;
  while (t != nullptr && !t->is_name()) {
    values.push_back(t);
    t = t->next;
  }
  return values;
}

bool make_param(const Token& key, std::string_view name, const std::vector<const Token*>& values,
                Param& out, text::Diagnostics& diag) {
  out.name = std::string(name);
  if (values.size() == 1 && values[0]->is_string()) {
    out.kind = ParamKind::kText;
    out.text = std::string(values[0]->text);
    return true;
  }
  if (values.size() == 1 && values[0]->is_number()) {
    out.kind = ParamKind::kNumber;
    out.number = values[0]->number;
    return true;
  }
  if (values.size() == 2 && values[0]->is_number() && values[1]->is_number()) {
    for (const Token* v : values) {
      if (std::fabs(v->number) > std::numeric_limits<f32>::max()) {
        diag.error(*v, "a vector's component is out of the range of f32");
        return false;
      }
    }
    out.kind = ParamKind::kVec2;
    out.vec = {static_cast<f32>(values[0]->number), static_cast<f32>(values[1]->number)};
    return true;
  }
  if (values.empty()) {
    diag.error(key, "parameter `{}` needs a value (texts go in quotes: {}, \"text\")", name, name);
  } else {
    diag.error(*values[0], "the value of `{}` must be a number, a string or two numbers", name);
  }
  return false;
}

bool check_param(const Token& at, const ComponentSpec& spec, const Param& p,
                 text::Diagnostics& diag) {
  const ParamSpec* ps = spec.find(p.name);
  if (ps == nullptr) {
    diag.error(at, "unknown parameter `{}` of `{}` (it takes: {})", p.name, spec.name,
               spec.param_list());
    return false;
  }
  if (ps->kind != p.kind) {
    diag.error(at, "`{}` of `{}` takes {}, got {}", p.name, spec.name, to_string(ps->kind),
               to_string(p.kind));
    return false;
  }
  if (p.kind == ParamKind::kNumber && !(p.number >= ps->min && p.number <= ps->max)) {
    diag.error(at, "`{}` of `{}` is {}, outside {} .. {}", p.name, spec.name, p.number, ps->min,
               ps->max);
    return false;
  }
  return true;
}

bool add_param(const Token& key, const Token& value_at, const ComponentSpec& spec,
               std::string_view name, const std::vector<const Token*>& values, ComponentDef& out,
               text::Diagnostics& diag) {
  Param p;
  if (!make_param(key, name, values, p, diag)) return false;
  if (!check_param(value_at, spec, p, diag)) return false;
  if (out.params.has(p.name)) {
    diag.error(key, "parameter `{}` of `{}` is given twice", p.name, spec.name);
    return false;
  }
  out.params.add(std::move(p));
  return true;
}

bool read_component(const Token& c, const ComponentSpec& spec, ComponentDef& out,
                    text::Diagnostics& diag) {
  out.name = spec.name;
  bool ok = true;
  if (c.conditional != nullptr) {
    diag.error(*c.conditional, "a component takes no block or conditional command");
    ok = false;
  }
  const Token* t = c.params;
  if (t != nullptr && !t->is_name()) {  // the leading value: parameter `name`
    const Token& first = *t;
    const std::vector<const Token*> values = values_from(t);
    if (spec.find("name") == nullptr) {
      diag.error(first, "`{}` takes `name, value` pairs (it takes: {})", spec.name,
                 spec.param_list());
      ok = false;
    } else {
      ok = add_param(first, first, spec, "name", values, out, diag) && ok;
    }
  }
  while (t != nullptr) {
    const Token& key = *t;
    t = t->next;
    const std::vector<const Token*> values = values_from(t);
    const Token& value_at = values.empty() ? key : *values[0];
    const bool known = spec.find(key.text) != nullptr;
    ok = add_param(key, known ? value_at : key, spec, key.text, values, out, diag) && ok;
  }
  for (const ParamSpec& ps : spec.params) {
    if (ps.required && !out.params.has(ps.name)) {
      diag.error(c, "`{}` needs its `{}` ({})", spec.name, ps.name, to_string(ps.kind));
      ok = false;
    }
  }
  return ok;
}

}  // namespace

std::optional<EntityDef> compile_entity(const Token& cmd, const EntitySchema& schema,
                                        text::Diagnostics& diag) {
  if (!text::check_command(cmd, diag, {text::kString, text::kString},
                           {.min_params = 1, .conditional = text::Conditional::kRequired})) {
    return std::nullopt;
  }
  EntityDef def;
  def.name = std::string(cmd.param(0)->text);
  bool ok = true;
  if (def.name.empty()) {
    diag.error(*cmd.param(0), "an entity definition needs a name");
    ok = false;
  }
  for (const Token& c : text::chain(cmd.conditional)) {
    const ComponentSpec* spec = schema.find(c.text);
    if (spec == nullptr) {
      diag.error(c, "unknown component `{}` (known: {})", c.text, schema.component_list());
      ok = false;
      continue;
    }
    if (def.find(spec->name) != nullptr) {
      diag.error(c, "component `{}` appears twice in `{}`", spec->name, def.name);
      ok = false;
      continue;
    }
    ComponentDef component;
    if (read_component(c, *spec, component, diag)) {
      def.components.push_back(std::move(component));
    } else {
      ok = false;
    }
  }
  if (!ok) return std::nullopt;
  return def;
}

}  // namespace keel::world
