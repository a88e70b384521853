#include "keel/world/particles.h"

#include "keel/core/assert.h"
#include "keel/pack/format.h"
#include "keel/pack/loader.h"
#include "keel/world/components.h"
#include "keel/world/detail/particles_random.h"
#include "keel/world/world.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace keel::world {

using spatial::Vec2;

namespace {

EffectDef empty_effect() {
  EffectDef def;
  def.capacity = 1;
  return def;
}

}  // namespace

ParticleSystem::ParticleSystem(u64 seed) : seed_(seed), empty_(empty_effect()) {}

Result<EffectId> ParticleSystem::add_effect(std::string_view name, const EffectDef& def) {
  if (name.empty() || string_hash(name) == 0) {
    return fail(ErrorCode::kInvalidArgument, "particle effect name `{}` is empty or hashes to 0",
                name);
  }
  if (find_effect(name) || find_effect(runtime_id(name))) {  // names and their hashes unique
    return fail(ErrorCode::kAlreadyExists,
                "particle effect `{}` is already defined (or its name hash is)", name);
  }
  if (Status valid = check_effect(def); !valid) {
    return fail(valid.error().code(), "particle effect `{}`: {}", name, valid.error().message());
  }
  pools_.push_back(std::make_unique<ParticlePool>(def));
  names_.emplace_back(name);
  name_hashes_.push_back(string_hash(name));
  return EffectId{static_cast<u32>(pools_.size() - 1), name_hashes_.back()};
}

Result<EffectId> ParticleSystem::load_effect(std::string_view name, ByteSpan chunk) {
  Result<EffectDef> def = decode_effect(chunk, name);
  if (!def) return Unexpected(std::move(def.error()));
  return add_effect(name, *def);
}

EffectId ParticleSystem::find_effect(std::string_view name) const {
  const Hash h = string_hash(name);
  for (usize i = 0; i < names_.size(); ++i) {
    if (name_hashes_[i] == h && names_[i] == name) return EffectId{static_cast<u32>(i), h};
  }
  return {};
}

EffectId ParticleSystem::find_effect(StringId name) const {
  for (usize i = 0; i < name_hashes_.size(); ++i) {
    if (name_hashes_[i] == name.value) return EffectId{static_cast<u32>(i), name.value};
  }
  return {};
}

EffectId ParticleSystem::resolve(EffectId effect) const {
  if (!effect) return {};
  if (effect.index < name_hashes_.size() && name_hashes_[effect.index] == effect.name) {
    return effect;
  }
  return find_effect(StringId{effect.name});
}

std::string_view ParticleSystem::effect_name(EffectId effect) const {
  const EffectId id = resolve(effect);
  return id ? std::string_view(names_[id.index]) : std::string_view();
}

Emitter ParticleSystem::make_emitter(EffectId effect, const EmitterOptions& options) {
  const EffectId id = resolve(effect);
  KEEL_ASSERT(id, "make_emitter() with a null effect id or one of an effect unknown here");
  Emitter e;
  e.effect = id;
  e.offset = options.offset;
  e.angle = options.angle;
  e.on = options.on;
  e.burst_on_shoot = options.burst_on_shoot;
  e.random = detail::mix_seed(seed_ ^ detail::mix_seed(++emitters_made_));
  return e;
}

void ParticleSystem::emit(Emitter& emitter, const Transform& at, f32 dt) {
  emitter.effect = resolve(emitter.effect);
  KEEL_ASSERT(emitter.effect,
              "ParticleSystem::emit() of an emitter whose effect is null or unknown here");
  KEEL_ASSERT(dt >= 0, "ParticleSystem::emit() with dt {} (must be >= 0)", dt);
  if (!emitter.effect) return;
  if (!(dt >= 0)) dt = 0;
  ParticlePool& pool = *pools_[emitter.effect.index];
  const EffectDef& def = pool.effect();
  u64 bursts = u64{emitter.bursts} * def.burst;
  u64 rated = 0;
  emitter.bursts = 0;
  if (!emitter.on) {
    emitter.started = false;
  } else {
    if (!emitter.started) {  // switched on: the start burst, then the rate for the duration
      emitter.started = true;
      emitter.elapsed = 0;
      emitter.owed = 0;
      bursts += def.burst;
    }
    f32 active = dt;
    if (def.duration > 0) active = std::clamp(def.duration - emitter.elapsed, 0.0f, dt);
    emitter.owed += static_cast<f64>(def.rate) * static_cast<f64>(active);
    const f64 whole = std::floor(emitter.owed);
    emitter.owed -= whole;
    rated = static_cast<u64>(whole);
    emitter.elapsed += dt;
  }
  // More than the pool holds would only be dropped: count them without drawing numbers.
  u64 room = pool.capacity() - pool.size();
  const u64 burst_now = std::min(bursts, room);
  room -= burst_now;
  const u64 rated_now = std::min(rated, room);
  pool.dropped_ += (bursts - burst_now) + (rated - rated_now);
  spawn(pool, emitter, at, static_cast<u32>(burst_now), {});
  // The rate's particles are spread along the path the entity moved during the frame, so a fast
  // ship's trail is a line rather than one clump per frame.
  spawn(pool, emitter, at, static_cast<u32>(rated_now), at.velocity * -dt);
}

void ParticleSystem::spawn(ParticlePool& pool, Emitter& emitter, const Transform& at, u32 count,
                           Vec2 path) {
  const EffectDef& def = pool.effect();
  const Vec2 origin = at.position + spatial::rotated(emitter.offset, at.angle);
  const f32 facing = at.angle + emitter.angle + def.direction;
  const Vec2 inherited = at.velocity * def.inherit;
  u64& rng = emitter.random;
  for (u32 i = 0; i < count; ++i) {
    const f32 life = def.life_min + (def.life_max - def.life_min) * detail::next_unit(rng);
    const f32 speed = def.speed_min + (def.speed_max - def.speed_min) * detail::next_unit(rng);
    const f32 angle = facing + def.spread * (detail::next_unit(rng) - 0.5f);
    Vec2 position = origin + path * (static_cast<f32>(i) / static_cast<f32>(count));
    if (def.radius > 0) {  // uniform in the disc
      const f32 r = def.radius * std::sqrt(detail::next_unit(rng));
      position += spatial::from_angle(2 * std::numbers::pi_v<f32> * detail::next_unit(rng)) * r;
    }
    pool.add(position, spatial::from_angle(angle) * speed + inherited, life);
  }
}

void ParticleSystem::update(f32 dt) {
  KEEL_ASSERT(dt >= 0, "ParticleSystem::update() with dt {} (must be >= 0)", dt);
  if (!(dt >= 0)) dt = 0;
  for (const auto& pool : pools_) pool->update(dt);
}

void ParticleSystem::clear() {
  for (const auto& pool : pools_) pool->clear();
}

const ParticlePool& ParticleSystem::pool(usize index) const {
  KEEL_ASSERT(index < pools_.size(), "ParticleSystem::pool({}) of {} pools", index, pools_.size());
  return index < pools_.size() ? *pools_[index] : empty_;
}

const ParticlePool& ParticleSystem::pool(EffectId effect) const {
  const EffectId id = resolve(effect);
  KEEL_ASSERT(id, "ParticleSystem::pool() of a null effect or one unknown here");
  return id ? *pools_[id.index] : empty_;
}

usize ParticleSystem::live_count() const {
  usize n = 0;
  for (const auto& pool : pools_) n += pool->size();
  return n;
}

ParticlePool& ParticleSystem::pool_for_restore(usize index) {
  return const_cast<ParticlePool&>(pool(index));
}

u64 ParticleSystem::state_hash() const {
  Hasher64 h(seed_);
  for (const auto& owned : pools_) {
    const ParticlePool& pool = *owned;
    const u32 n = pool.size();
    h.update(&n, sizeof n);
    h.update(pool.positions().data(), pool.positions().size_bytes());
    h.update(pool.velocities().data(), pool.velocities().size_bytes());
    h.update(pool.ages().data(), pool.ages().size_bytes());
    h.update(pool.colours().data(), pool.colours().size_bytes());
    h.update(pool.sizes().data(), pool.sizes().size_bytes());
  }
  return h.digest();
}

void tick_particles(World& world, ParticleSystem& particles, f32 dt) {
  particles.update(dt);
  world.view<Emitter, Transform>().each(
      [&](Entity, Emitter& emitter, Transform& at) { particles.emit(emitter, at, dt); });
}

ListenerId connect_particle_bursts(World& world) {
  return world.on<Shoot>([](World& w, const Shoot& shot) {
    Emitter* emitter = w.get<Emitter>(shot.shooter);
    if (emitter != nullptr && emitter->burst_on_shoot) ParticleSystem::burst(*emitter);
  });
}

Emitter* add_emitter(World& world, Entity entity, ParticleSystem& particles, StringId effect,
                     const EmitterOptions& options) {
  const EffectId id = particles.find_effect(effect);
  if (!id || !world.alive(entity)) return nullptr;
  return world.create<Emitter>(entity, particles.make_emitter(id, options));
}

void register_particle_effects(pack::Loader& loader, ParticleSystem& particles) {
  loader.register_type(pack::type_hash(kEffectAssetType),
                       [&particles](pack::SetupContext& ctx) -> Result<void*> {
                         if (ctx.name().empty()) {
                           return fail(ErrorCode::kInvalidArgument,
                                       "particle effects need the pack's names "
                                       "(LoadOptions::load_names)");
                         }
                         Result<EffectId> id = particles.load_effect(ctx.name(), ctx.primary());
                         if (!id) return Unexpected(std::move(id.error()));
                         return const_cast<ParticlePool*>(&particles.pool(*id));
                       });
}

}  // namespace keel::world
