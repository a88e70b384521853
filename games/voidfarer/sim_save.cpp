// Quick-save and quick-load through keel/save. One session holds, in order:
//   "VFSV", a version and the difficulty (a save loads only on its own); the World (World::save:
//   entity table and tracked components); the PhysicsState object (Box2D bodies, joints, touching
//   contacts); then the game's own data: counters and score, the player, the chain's progress, the
//   FSMs' dice, every FSM instance's snapshot (in attach order), every script's name and variables,
//   the untracked components (Sprite, Obstacle, Audio, HudElement: raw bytes in store order), and
//   the live particles.
// A load builds a fresh Game (sim.h), restores into it and swaps it in only when the whole file
// was read and checked; the particles (shared with the pack) are staged and put back last.
#include "game.h"

#include "keel/core/bytes.h"
#include "keel/save/system.h"
#include "keel/world/components.h"
#include "keel/world/particles.h"
#include "keel/world/physics_state.h"
#include "keel/world/physics_world.h"
#include "keel/world/steering_system.h"

#include <cmath>

namespace keel::voidfarer {
namespace {

using world::Entity;
using world::Vec2;

constexpr u32 kMagic = 0x56535646u;  // "VFSV"
constexpr u32 kVersion = 1;

const save::SaveSystem& save_system() {
  static const save::SaveSystem system({save::type<world::PhysicsState>()});
  return system;
}

Status put_entity(save::SaveFile& f, Entity e) {
  Status st = f.put_value(e.index);
  return st ? f.put_value(e.generation) : st;
}

Status get_entity(save::SaveFile& f, Entity& e) {
  Status st = f.get_value(e.index);
  return st ? f.get_value(e.generation) : st;
}

// A count read from the file, checked against what is left of it (`each` bytes per item).
Status get_count(save::SaveFile& f, u32& n, u64 each) {
  if (Status st = f.get_value(n); !st) return st;
  if (u64{n} * each > f.readable_bound()) {
    return fail(ErrorCode::kCorrupt, "quick-save: a count of {} is more than the file holds", n);
  }
  return ok();
}

Status bad(std::string_view what) { return fail(ErrorCode::kCorrupt, "quick-save: {}", what); }

bool finite(Vec2 v) { return std::isfinite(v.x) && std::isfinite(v.y); }

// An untracked component's bytes, in store order.
template <typename C>
Status put_store(save::SaveFile& f, world::World& w) {
  const auto& entities = w.store<C>().entities();
  Status st = f.put_value(static_cast<u32>(entities.size()));
  for (usize i = 0; st && i < entities.size(); ++i) {
    st = put_entity(f, entities[i]);
    if (st) st = f.put_value(*w.get<C>(entities[i]));
  }
  return st;
}

template <typename C, typename Check>
Status get_store(save::SaveFile& f, world::World& w, Check&& check) {
  u32 n = 0;
  Status st = get_count(f, n, 8 + sizeof(C));
  for (u32 i = 0; st && i < n; ++i) {
    Entity e;
    C c;
    st = get_entity(f, e);
    if (st) st = f.get_value(c);
    if (!st) break;
    if (!w.alive(e) || w.get<C>(e) != nullptr || !check(c)) return bad("a damaged component");
    w.create<C>(e, c);
  }
  return st;
}

// Every `C` in the world passes `check`.
template <typename C, typename Check>
bool all_of(world::World& w, Check&& check) {
  for (const C& c : w.store<C>().components()) {
    if (!check(c)) return false;
  }
  return true;
}

// World::load restores the tracked components byte for byte; the game checks what it reads in
// them: bools, finite floats, an emitter's owed fraction in [0, 1) and its effect.
Status check_tracked(world::World& w, const world::ParticleSystem& particles) {
  if (!all_of<Health>(w, [](const Health& h) {
        return std::isfinite(h.hp) && std::isfinite(h.armour) && std::isfinite(h.max);
      })) {
    return bad("a damaged Health component");
  }
  if (!all_of<Score>(w, [](const Score& c) { return std::isfinite(c.points); })) {
    return bad("a damaged Score component");
  }
  if (!all_of<Shield>(w, [](const Shield& c) {
        return std::isfinite(c.charge) && std::isfinite(c.capacity) && std::isfinite(c.regen);
      })) {
    return bad("a damaged Shield component");
  }
  if (!all_of<world::Vehicle>(w, [](const world::Vehicle& v) {
        return bool_byte_ok(v.face_target) && bool_byte_ok(v.drive_transform) &&
               bool_byte_ok(v.has_target) && bool_byte_ok(v.has_threat) && bool_byte_ok(v.started);
      })) {
    return bad("a damaged Vehicle component");
  }
  if (!all_of<world::Emitter>(w, [&particles](const world::Emitter& e) {
        return bool_byte_ok(e.on) && bool_byte_ok(e.burst_on_shoot) && bool_byte_ok(e.started) &&
               e.owed >= 0 && e.owed < 1 && std::isfinite(e.angle) && std::isfinite(e.elapsed) &&
               finite(e.offset) && static_cast<bool>(particles.resolve(e.effect));
      })) {
    return bad("a damaged Emitter component");
  }
  if (!all_of<world::Gun>(w, [](const world::Gun& g) {
        return bool_byte_ok(g.trigger) && std::isfinite(g.cooldown) && std::isfinite(g.timer) &&
               std::isfinite(g.bullet_speed) && finite(g.muzzle);
      })) {
    return bad("a damaged Gun component");
  }
  // (A Body the physics system would refuse: the load is refused instead of losing the body.)
  if (!all_of<world::Body>(w, [](const world::Body& b) {
        return static_cast<bool>(world::check_body_def(b.def));
      })) {
    return bad("a damaged Body component");
  }
  if (!all_of<world::Lifetime>(w, [](const world::Lifetime& l) {
        return bool_byte_ok(l.kill_entity) && std::isfinite(l.remaining);
      })) {
    return bad("a damaged Lifetime component");
  }
  return ok();
}

}  // namespace

Status Game::save(save::SaveFile& f) {
  Status st = f.put_value(kMagic);
  if (st) st = f.put_value(kVersion);
  if (st) st = f.put_value(options_.difficulty);
  if (st) st = world_.save(f);
  std::unique_ptr<world::PhysicsState> physics = physics_.physics().save_state();
  if (st) {
    f.declare_object(physics.get());
    st = f.process_objects();
  }
  // Counters, the player, the chain.
  if (st) st = f.put_value(frame_);
  if (st) st = f.put_value(killed_);
  if (st) st = f.put_value(score_);
  if (st) st = f.put_value(hull_max_);
  if (st) st = f.put_value(failed_shots_);
  if (st) st = put_entity(f, player_);
  if (st) st = f.put_value(player_last_);
  const world::ChainRunner::Progress chain = chain_->progress();
  if (st) st = f.put_value(static_cast<u64>(chain.step));
  if (st) st = f.put_value(chain.step_time);
  if (st) st = f.put_value(static_cast<u32>(chain.spawned.size()));
  for (usize i = 0; st && i < chain.spawned.size(); ++i) st = put_entity(f, chain.spawned[i]);
  // The AI: the FSMs' dice, each instance's snapshot, each script's variables.
  if (st) st = f.put_value(fsm_env_->random().state());
  if (st) st = f.put_value(static_cast<u32>(brain_order_.size()));
  for (usize i = 0; st && i < brain_order_.size(); ++i) {
    const Brain* b = world_.get<Brain>(brain_order_[i]);
    const fsm::FsmInstance::Snapshot snap =
        b != nullptr ? b->fsm->snapshot() : fsm::FsmInstance::Snapshot{};
    st = put_entity(f, brain_order_[i]);
    if (st) st = f.put_value(snap);
  }
  const auto& scripted = world_.store<ScriptName>().entities();
  if (st) st = f.put_value(static_cast<u32>(scripted.size()));
  for (usize i = 0; st && i < scripted.size(); ++i) {
    const Entity e = scripted[i];
    const world::EntityScript* s = world_.get<world::EntityScript>(e);
    std::vector<std::pair<Hash, s32>> vars;
    if (s != nullptr) vars = vm_->variables(s->instance);
    st = put_entity(f, e);
    if (st) st = f.put_value(world_.get<ScriptName>(e)->name);
    if (st) st = f.put_value(static_cast<u32>(vars.size()));
    for (usize v = 0; st && v < vars.size(); ++v) {
      st = f.put_value(vars[v].first);
      if (st) st = f.put_value(vars[v].second);
    }
  }
  // The components the world does not track.
  if (st) st = put_store<world::Sprite>(f, world_);
  if (st) st = put_store<world::Obstacle>(f, world_);
  if (st) st = put_store<world::Audio>(f, world_);
  if (st) st = put_store<world::HudElement>(f, world_);
  // The particles.
  if (st) st = f.put_value(particles_.emitters_made());
  if (st) st = f.put_value(static_cast<u32>(particles_.pool_count()));
  for (usize p = 0; st && p < particles_.pool_count(); ++p) {
    const world::ParticlePool& pool = particles_.pool(p);
    st = f.put_value(pool.size());
    for (u32 i = 0; st && i < pool.size(); ++i) {
      st = f.put_value(pool.positions()[i]);
      if (st) st = f.put_value(pool.velocities()[i]);
      if (st) st = f.put_value(pool.ages()[i]);
      if (st) st = f.put_value(pool.end_ages()[i]);
      if (st) st = f.put_value(pool.colours()[i]);
      if (st) st = f.put_value(pool.sizes()[i]);
    }
  }
  return st;
}

Status Game::load(save::SaveFile& f, StagedParticles& staged) {
  u32 magic = 0;
  u32 version = 0;
  Status st = f.get_value(magic);
  if (st) st = f.get_value(version);
  if (st && (magic != kMagic || version != kVersion)) return bad("not a Voidfarer quick-save");
  Difficulty difficulty = Difficulty::kNormal;
  if (st) st = f.get_value(difficulty);
  if (st && difficulty != options_.difficulty) {
    return fail(ErrorCode::kInvalidArgument,
                "quick-save: the save was made on another difficulty ({} here, {} in the file)",
                static_cast<int>(options_.difficulty), static_cast<int>(difficulty));
  }
  if (st) st = world_.load(f);
  if (st) st = check_tracked(world_, particles_);
  if (st) st = f.process_objects();
  if (!st) return st;
  const world::PhysicsState* physics = nullptr;
  for (save::SaveObject* o : f.loaded()) {
    if (auto* p = dynamic_cast<const world::PhysicsState*>(o)) physics = p;
  }
  if (physics == nullptr) return bad("no physics");
  if (st = physics_.physics().restore(*physics); !st) return st;

  st = f.get_value(frame_);
  if (st) st = f.get_value(killed_);
  if (st) st = f.get_value(score_);
  if (st) st = f.get_value(hull_max_);
  if (st) st = f.get_value(failed_shots_);
  if (st) st = get_entity(f, player_);
  if (st) st = f.get_value(player_last_);
  if (st && (!finite(player_last_) || !std::isfinite(hull_max_))) return bad("a damaged player");
  world::ChainRunner::Progress chain;
  u64 step = 0;
  u32 n = 0;
  if (st) st = f.get_value(step);
  if (st) st = f.get_value(chain.step_time);
  if (st) st = get_count(f, n, 8);
  for (u32 i = 0; st && i < n; ++i) {
    Entity e;
    st = get_entity(f, e);
    chain.spawned.push_back(e);
  }
  if (!st) return st;
  chain.step = static_cast<usize>(step);
  if (st = chain_->resume(waves_, std::move(chain)); !st) return st;

  u64 dice = 0;
  st = f.get_value(dice);
  if (st) st = get_count(f, n, 8 + sizeof(fsm::FsmInstance::Snapshot));
  for (u32 i = 0; st && i < n; ++i) {
    Entity e;
    fsm::FsmInstance::Snapshot snap;
    st = get_entity(f, e);
    if (st) st = f.get_value(snap);
    if (!st) break;
    const fsm::FsmDef* def = fsms_.find(snap.fsm);
    if (!world_.alive(e) || def == nullptr || world_.get<Brain>(e) != nullptr) {
      return bad("a damaged state machine");
    }
    Result<fsm::FsmInstance*> brain = brains_->attach(e, def->name_string);
    if (!brain) return Unexpected(brain.error());
    if (st = (*brain)->restore(snap); !st) return st;
    world_.create<Brain>(e, Brain{*brain});
    brain_order_.push_back(e);
  }
  if (!st) return st;
  fsm_env_->random().seed(dice);

  st = get_count(f, n, 16);
  for (u32 i = 0; st && i < n; ++i) {
    Entity e;
    Hash name = 0;
    u32 vars = 0;
    st = get_entity(f, e);
    if (st) st = f.get_value(name);
    if (st) st = get_count(f, vars, 8);
    if (!st) break;
    const std::optional<std::string_view> text = vm_->symbol(name);
    if (!world_.alive(e) || !text || world_.get<ScriptName>(e) != nullptr) {
      return bad("a damaged script");
    }
    Result<script::InstanceId> id = script_bindings_->attach(*vm_, e, *text);
    if (!id) return Unexpected(id.error());
    world_.create<ScriptName>(e, ScriptName{name});
    for (u32 v = 0; st && v < vars; ++v) {
      Hash var = 0;
      s32 value = 0;
      st = f.get_value(var);
      if (st) st = f.get_value(value);
      if (st) vm_->set_variable(*id, var, value);
    }
  }
  if (st) {
    st = get_store<world::Sprite>(f, world_, [](const world::Sprite& s) { return finite(s.size); });
  }
  if (st) {
    st = get_store<world::Obstacle>(f, world_, [](const world::Obstacle& o) {
      return std::isfinite(o.radius) && o.radius >= 0;
    });
  }
  if (st)
    st = get_store<world::Audio>(f, world_, [](const world::Audio& a) {
      return a.count <= world::Audio::kMaxCues && std::isfinite(a.volume);
    });
  if (st)
    st = get_store<world::HudElement>(f, world_, [](const world::HudElement& h) {
      return h.kind <= world::HudElement::Kind::kIcon && finite(h.position) && finite(h.size);
    });
  if (!st) return st;

  // The particles, staged: checked here, put back by the Sim once everything succeeded.
  u32 pools = 0;
  st = f.get_value(staged.emitters_made);
  if (st) st = f.get_value(pools);
  if (st && pools != particles_.pool_count()) return bad("particle effects differ from the pack's");
  for (u32 p = 0; st && p < pools; ++p) {
    st = get_count(f, n, 32);  // position, velocity, age, end age, colour, size
    if (st && n > particles_.pool(p).capacity()) return bad("too many particles");
    for (u32 i = 0; st && i < n; ++i) {
      StagedParticle q;
      q.pool = p;
      st = f.get_value(q.position);
      if (st) st = f.get_value(q.velocity);
      if (st) st = f.get_value(q.age);
      if (st) st = f.get_value(q.end_age);
      if (st) st = f.get_value(q.colour);
      if (st) st = f.get_value(q.size);
      if (st && !(finite(q.position) && finite(q.velocity) && std::isfinite(q.age) && q.age >= 0 &&
                  std::isfinite(q.end_age) && std::isfinite(q.size))) {
        return bad("a damaged particle");
      }
      staged.particles.push_back(q);
    }
  }
  return st;
}

Status Sim::save(const std::filesystem::path& path) {
  save::SaveFile file(save_system());
  Status st = file.begin_save(path);
  if (st) st = game_->save(file);
  return file.end(st);
}

Status Sim::load_save(const std::filesystem::path& path) {
  save::SaveFile file(save_system());
  Status st = file.begin_load(path);
  auto fresh = std::make_unique<Game>(*this);
  Game::StagedParticles staged;
  if (st) st = fresh->init();
  if (st) st = fresh->load(file, staged);
  if (Status end = file.end(st); !end) return end;
  // Everything was read and checked: the new game and its particles take over.
  particles_.clear();
  for (const Game::StagedParticle& q : staged.particles) {
    particles_.pool_for_restore(q.pool).restore_particle(q.position, q.velocity, q.age, q.end_age,
                                                         q.colour, q.size);
  }
  particles_.set_emitters_made(staged.emitters_made);
  game_ = std::move(fresh);
  return ok();
}

}  // namespace keel::voidfarer
