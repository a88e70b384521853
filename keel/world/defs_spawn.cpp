#include "keel/world/defs_spawn.h"

#include "keel/world/components.h"
#include "keel/world/physics_world.h"
#include "keel/world/transform.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace keel::world {
namespace {

StringId name_id(std::string_view name) { return name.empty() ? StringId{} : runtime_id(name); }

// Integers from parameters, clamped first (a definition built by hand may hold anything).
// Colours are written 0xRRGGBBAA in data.
Rgba8 colour_of(const Params& p) {
  const Param* c = p.find("colour");
  if (c == nullptr || c->kind != ParamKind::kNumber) return Rgba8{};
  return rgba8_from_u32(static_cast<u32>(std::clamp(c->number, 0.0, 4294967295.0)));
}
s32 int_of(const Params& p, std::string_view name, s32 lo, s32 hi, s32 fallback) {
  const Param* c = p.find(name);
  if (c == nullptr || c->kind != ParamKind::kNumber) return fallback;
  return static_cast<s32>(std::clamp(c->number, static_cast<double>(lo), static_cast<double>(hi)));
}

Status add_hud_element(World& w, Entity e, const Params& p) {
  HudElement h;
  const std::string_view kind = p.text("kind", "text");
  if (kind == "text") {
    h.kind = HudElement::Kind::kText;
  } else if (kind == "bar") {
    h.kind = HudElement::Kind::kBar;
  } else if (kind == "icon") {
    h.kind = HudElement::Kind::kIcon;
  } else {
    return fail(ErrorCode::kInvalidArgument, "unknown kind `{}` (text, bar, icon)", kind);
  }
  h.content = name_id(p.text("name"));
  h.position = p.vec2("position");
  h.size = p.vec2("size");
  h.colour = colour_of(p);
  w.create<HudElement>(e, h);
  return ok();
}

Audio make_audio(const Params& p) {
  Audio a;
  for (std::string_view event : std::array<std::string_view, 4>{"shoot", "hit", "die", "engine"}) {
    const std::string_view sound = p.text(event);
    if (!sound.empty()) a.add(runtime_id(event), runtime_id(sound));
  }
  a.volume = p.number("volume", 1);
  return a;
}

}  // namespace

void register_world_components(SpawnRegistry& r) {
  r.add<Obstacle>("Obstacle", [](const Params& p) {
    const s32 group = int_of(p, "group", 0, spatial::kMaxGroups - 1, 0);
    return Obstacle{.group = static_cast<spatial::GroupId>(group), .radius = p.number("radius", 1)};
  });
  r.add<Target>("Target", [](const Params&) { return Target{}; });
  r.add<Gun>("Gun", [](const Params& p) {
    return Gun{.cooldown = p.number("cooldown", 0.25f),
               .timer = 0,
               .muzzle = p.vec2("muzzle"),
               .bullet = name_id(p.text("bullet")),
               .bullet_speed = p.number("speed", 0),
               .trigger = false};
  });
  r.add<Sprite>("Sprite", [](const Params& p) {
    return Sprite{.texture = name_id(p.text("name")),
                  .frame = name_id(p.text("frame")),
                  .size = p.vec2("size", {1, 1}),
                  .colour = colour_of(p),
                  .layer = int_of(p, "layer", -1000000, 1000000, 0)};
  });
  r.add("HudElement", add_hud_element);
  r.add<Audio>("Audio", make_audio);
  r.add<Lifetime>("Lifetime", [](const Params& p) {
    return Lifetime{.remaining = p.number("seconds", 1), .kill_entity = p.number("kill", 1) != 0};
  });
}

void SpawnRegistry::add(std::string_view component, ComponentFactory factory) {
  KEEL_ASSERT(!component.empty() && factory, "SpawnRegistry::add: a name and a factory");
  if (component.empty() || !factory) return;
  factories_.insert_or_assign(std::string(component), std::move(factory));
}

const ComponentFactory* SpawnRegistry::find(std::string_view component) const {
  const auto it = factories_.find(std::string(component));
  return it == factories_.end() ? nullptr : &it->second;
}

Status SpawnRegistry::check(const EntityDef& def) const {
  std::string missing;
  for (const ComponentDef& c : def.components) {
    if (has(c.name)) continue;
    if (!missing.empty()) missing += ", ";
    missing += c.name;
  }
  if (missing.empty()) return ok();
  return fail(ErrorCode::kNotFound, "entity `{}`: no factory registered for {}", def.name, missing);
}

Result<Entity> spawn(World& world, const SpawnRegistry& registry, const EntityDef& def,
                     Vec2 position, f32 angle) {
  if (Status s = registry.check(def); !s) return std::unexpected(s.error());
  const Entity e = world.create();
  world.create<Transform>(
      e, Transform{.position = position, .angle = angle, .velocity = {}, .angular_velocity = 0});
  for (const ComponentDef& c : def.components) {
    if (Status s = (*registry.find(c.name))(world, e, c.params); !s) {
      world.kill(e);
      return fail(s.error().code(), "entity `{}`, component `{}`: {}", def.name, c.name,
                  s.error().message());
    }
  }
  return e;
}

Result<Entity> spawn(World& world, const SpawnRegistry& registry, const EntityDefs& defs,
                     std::string_view name, Vec2 position, f32 angle) {
  const EntityDef* def = defs.find(name);
  if (def == nullptr) {
    return fail(ErrorCode::kNotFound, "no entity definition `{}` is loaded", name);
  }
  return spawn(world, registry, *def, position, angle);
}

ListenerId connect_bullet_spawner(World& world, const SpawnRegistry& registry,
                                  const EntityDefs& defs, u32* failed) {
  return world.on<Shoot>([&registry, &defs, failed](World& w, const Shoot& shot) {
    const EntityDef* def = defs.find_hash(shot.bullet.value);
    const f32 angle = shot.velocity.x != 0 || shot.velocity.y != 0
                          ? std::atan2(shot.velocity.y, shot.velocity.x)
                          : 0.0f;
    Result<Entity> bullet =
        def != nullptr ? spawn(w, registry, *def, shot.position, angle) : Result<Entity>{};
    if (def == nullptr || !bullet) {
      if (failed != nullptr) ++*failed;
      return;
    }
    if (Transform* t = w.get<Transform>(*bullet)) t->velocity = shot.velocity;
    // A simulated bullet: its b2Body (made at the physics system's next update) starts moving.
    if (Body* b = w.get<Body>(*bullet)) b->def.start.velocity = shot.velocity;
  });
}

}  // namespace keel::world
