#include "keel/world/bindings.h"

#include "keel/props/container.h"
#include "keel/world/transform.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>

namespace keel::world {

namespace {

u64 key_of(Entity e) { return (static_cast<u64>(e.index) << 32) | e.generation; }

Status need_alive(const World& world, Entity e, std::string_view what) {
  if (world.alive(e)) return ok();
  return fail(ErrorCode::kInvalidArgument, "{}: the entity is {}", what,
              to_string(world.status(e)));
}

}  // namespace

// ---- scripts --------------------------------------------------------------------------------

struct ScriptBindings::Bound {
  ScriptBindings* self = nullptr;
  Entity entity;
  script::Machine* machine = nullptr;
  script::InstanceId instance;
};

namespace {

// The binding of the running instance (null when it was started by someone else).
ScriptBindings::Bound* bound_of(script::Call& call) {
  return static_cast<ScriptBindings::Bound*>(call.user());
}

std::string name_text(const script::Call& call, u32 index) {
  const std::optional<std::string_view> text = call.text_at(index);
  return text ? std::string(*text) : fmt::format("#{:08x}", call.hash_at(index));
}

}  // namespace

ScriptBindings::ScriptBindings(World& world, const SpawnRegistry& registry, const EntityDefs& defs)
    : world_(world), registry_(registry), defs_(defs) {
  on_kill_ = world_.on_kill([this](World&, Entity e) { release(e); });
}

// The Machine may already be gone (it is usually made after the bindings): its instances are
// its own to end.
ScriptBindings::~ScriptBindings() { world_.unsubscribe(on_kill_); }

void ScriptBindings::release(Entity e) {
  const auto it = bound_.find(key_of(e));
  if (it == bound_.end()) return;
  it->second->machine->release(it->second->instance);
  bound_.erase(it);
}

Status ScriptBindings::add_commands(script::CommandSet& commands) {
  const auto spawn_cmd = [](script::Call& call, script::String def, s32 dx, s32 dy) {
    Bound* b = bound_of(call);
    if (b == nullptr) return call.fail("SPAWN: the script runs for no entity");
    World& w = b->self->world_;
    const EntityDef* d = b->self->defs_.find_hash(def.hash);
    if (d == nullptr) return call.fail("SPAWN: no entity definition `" + name_text(call, 0) + "`");
    const Transform* t = w.get<Transform>(b->entity);
    const Vec2 at =
        (t != nullptr ? t->position : Vec2{}) + Vec2{static_cast<f32>(dx), static_cast<f32>(dy)};
    Result<Entity> e = spawn(w, b->self->registry_, *d, at, t != nullptr ? t->angle : 0);
    if (!e) return call.fail("SPAWN: " + e.error().message());
    return script::Outcome::kNext;
  };
  const auto kill_cmd = [](script::Call& call) {
    Bound* b = bound_of(call);
    if (b == nullptr) return call.fail("KILL: the script runs for no entity");
    b->self->world_.kill(b->entity);
    return script::Outcome::kStop;
  };
  const auto get_cmd = [](script::Call& call, s32& out, script::String) {
    Bound* b = bound_of(call);
    if (b == nullptr) return call.fail("GETPROP: the script runs for no entity");
    const std::optional<std::string_view> name = call.text_at(1);
    if (!name) return call.fail("GETPROP: the library has no property names");
    const props::PropertyContainer* p = b->self->world_.find_props(b->entity);
    const props::Key key = props::Key::runtime(*name);
    if (p == nullptr || !p->has(key)) {
      out = 0;
    } else if (const s32* i = p->find<s32>(key)) {
      out = *i;
    } else if (const f32* f = p->find<f32>(key)) {
      out = static_cast<s32>(std::clamp(std::trunc(*f), -2147483648.0f, 2147483520.0f));
    } else {
      return call.fail("GETPROP: property `" + std::string(*name) + "` is not a number");
    }
    return script::Outcome::kNext;
  };
  const auto set_cmd = [](script::Call& call, script::String, s32 value) {
    Bound* b = bound_of(call);
    if (b == nullptr) return call.fail("SETPROP: the script runs for no entity");
    const std::optional<std::string_view> name = call.text_at(0);
    if (!name) return call.fail("SETPROP: the library has no property names");
    props::PropertyContainer* p = b->self->world_.props(b->entity);
    const props::Key key = props::Key::runtime(*name);
    const Status s =
        p->holds<f32>(key) ? p->set<f32>(key, static_cast<f32>(value)) : p->set<s32>(key, value);
    if (!s) return call.fail("SETPROP: " + s.error().message());
    return script::Outcome::kNext;
  };
  if (Status s =
          commands.add("SPAWN", kOpSpawn, spawn_cmd,
                       {.defaults = {0, 0}, .help = "SPAWN(\"definition\", dx = 0, dy = 0);"});
      !s) {
    return s;
  }
  if (Status s = commands.add("KILL", kOpKill, kill_cmd, {.help = "KILL();"}); !s) return s;
  if (Status s = commands.add("GETPROP", kOpGetProp, get_cmd,
                              {.help = "GETPROP(variable, \"property\");"});
      !s) {
    return s;
  }
  return commands.add("SETPROP", kOpSetProp, set_cmd, {.help = "SETPROP(\"property\", value);"});
}

Result<script::InstanceId> ScriptBindings::attach(script::Machine& machine, Entity entity,
                                                  std::string_view script) {
  if (Status s = need_alive(world_, entity, "ScriptBindings::attach"); !s) {
    return std::unexpected(s.error());
  }
  release(entity);
  auto b = std::make_unique<Bound>();
  b->self = this;
  b->entity = entity;
  b->machine = &machine;
  Result<script::InstanceId> id = machine.start(script, b.get());
  if (!id) return id;
  b->instance = *id;
  world_.create<EntityScript>(entity, EntityScript{*id});
  bound_.emplace(key_of(entity), std::move(b));
  return id;
}

Entity ScriptBindings::entity_of(const script::Machine& machine,
                                 script::InstanceId instance) const {
  const auto* b = static_cast<const Bound*>(machine.user(instance));
  if (b == nullptr) return {};
  const auto it = bound_.find(key_of(b->entity));
  return it != bound_.end() && it->second.get() == b ? b->entity : Entity{};
}

void ScriptBindings::register_component(SpawnRegistry& registry, script::Machine& machine) {
  registry.add("Script", [this, &machine](World&, Entity e, const Params& p) -> Status {
    Result<script::InstanceId> id = attach(machine, e, p.text("name"));
    if (!id) return std::unexpected(id.error());
    return ok();
  });
}

// ---- FSMs -----------------------------------------------------------------------------------

struct FsmBindings::Bound {
  FsmBindings* self = nullptr;
  Entity entity;
  fsm::FsmInstance instance;
};

FsmBindings::FsmBindings(World& world, const fsm::FsmLibrary& library, fsm::Environment& env)
    : world_(world), library_(library), env_(env) {
  on_kill_ = world_.on_kill([this](World&, Entity e) {
    std::erase_if(bound_, [e](const std::unique_ptr<Bound>& b) { return b->entity == e; });
  });
}

FsmBindings::~FsmBindings() { world_.unsubscribe(on_kill_); }

Status FsmBindings::declare_functions(fsm::FunctionRegistry& functions) {
  return functions.declare("Kill", [](fsm::FsmInstance& i) {
    const Bound& b = i.object<Bound>();
    b.self->world_.kill(b.entity);
  });
}

Entity FsmBindings::entity_of(const fsm::FsmInstance& instance) {
  return instance.object() != nullptr ? instance.object<Bound>().entity : Entity{};
}

Result<fsm::FsmInstance*> FsmBindings::attach(Entity entity, std::string_view name) {
  if (Status s = need_alive(world_, entity, "FsmBindings::attach"); !s) {
    return std::unexpected(s.error());
  }
  const fsm::FsmDef* def = library_.find(name);
  if (def == nullptr) return fail(ErrorCode::kNotFound, "no linked FSM `{}`", name);
  auto b = std::make_unique<Bound>();
  b->self = this;
  b->entity = entity;
  if (Status s = b->instance.init(b.get(), *def, env_); !s) return std::unexpected(s.error());
  std::erase_if(bound_, [entity](const std::unique_ptr<Bound>& o) { return o->entity == entity; });
  bound_.push_back(std::move(b));
  return &bound_.back()->instance;
}

fsm::FsmInstance* FsmBindings::find(Entity entity) {
  for (const std::unique_ptr<Bound>& b : bound_) {
    if (b->entity == entity) return &b->instance;
  }
  return nullptr;
}

fsm::EventResult FsmBindings::event(Entity entity, std::string_view name) {
  fsm::FsmInstance* i = find(entity);
  return i != nullptr ? i->event(name) : fsm::EventResult::kNotFound;
}

void FsmBindings::run() {
  // By index: a state_run handler may attach (push_back) but erasing waits for the flush.
  for (usize i = 0; i < bound_.size(); ++i) {
    if (world_.alive(bound_[i]->entity) && !world_.dying(bound_[i]->entity)) {
      bound_[i]->instance.run();
    }
  }
}

void FsmBindings::register_component(SpawnRegistry& registry) {
  registry.add("Fsm", [this](World&, Entity e, const Params& p) -> Status {
    Result<fsm::FsmInstance*> i = attach(e, p.text("name"));
    if (!i) return std::unexpected(i.error());
    return ok();
  });
}

}  // namespace keel::world
