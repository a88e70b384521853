// keel::world::ParticleSystem: the effects of a world, one fixed-capacity particle pool per
// effect, and the Emitter component that sprays an effect's particles from an entity.
//
//   ParticleSystem particles(/*seed=*/7);
//   EffectId sparks = *particles.load_effect("sparks", chunk);   // a pack's ParticleEffect chunk
//   Emitter gun = particles.make_emitter(sparks, {.offset = {0.5f, 0}});
//   ParticleSystem::burst(gun);                                  // a one-shot burst (a shot)
//   each frame:  particles.update(dt);                           // age, remove, move, colour
//                particles.emit(gun, ship_transform, dt);        // for every emitter
//   drawing:     for (usize p = 0; p < particles.pool_count(); ++p)
//                  draw(pool.positions(), pool.colours(), pool.sizes());
//
// Frame order: update() first, then emit() per emitter, so new particles are drawn at their
// start (age 0, start colour and size) in the frame they appear. Randomness (life, speed,
// direction, start disc) comes from each emitter's own PCG32 stream, seeded by make_emitter from
// the system's seed and a counter: the same seed and the same calls replay the same particles.
#pragma once

#include "keel/core/bytes.h"
#include "keel/core/error.h"
#include "keel/core/hash.h"
#include "keel/core/types.h"
#include "keel/world/listeners.h"
#include "keel/world/particles_effect.h"
#include "keel/world/particles_pool.h"
#include "keel/world/transform.h"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace keel::pack {
class Loader;
}

namespace keel::world {

// Names an effect: its index in a ParticleSystem and its name's hash, so an id stays right in
// another run and after a save (a system whose index differs finds the effect by the hash).
// Default: null.
struct EffectId {
  u32 index = 0;
  Hash name = 0;  // string_hash of the name (0: null)
  explicit operator bool() const { return name != 0; }
  friend constexpr bool operator==(EffectId, EffectId) = default;
};

struct EmitterOptions {
  spatial::Vec2 offset;         // where on the entity, in the entity's frame (rotates with it)
  f32 angle = 0;                // turns the effect's direction, in the entity's frame
  bool on = true;               // emits at its rate while on (bursts are emitted either way)
  bool burst_on_shoot = false;  // a Shoot event of its entity requests a burst (gun flames)
};

// The component: plain data without padding (trivially copyable, so World::track_state can hash
// and save it byte for byte). The system keeps no per-emitter state.
struct Emitter {
  u64 random = 0;  // the PCG32 state (written by emit)
  f64 owed = 0;    // fraction of a particle the rate has accumulated (written by emit)
  EffectId effect;
  spatial::Vec2 offset;  // in the entity's frame
  f32 angle = 0;         // turns the effect's direction, in the entity's frame
  u32 bursts = 0;        // one-shot bursts requested (each emits the effect's burst count)
  f32 elapsed = 0;       // seconds since the start (written by emit)
  bool on = true;        // switching on (re)starts it: start burst, then rate for the duration
  bool burst_on_shoot = false;  // connect_particle_bursts: its entity's Shoot requests a burst
  bool started = false;         // on and its start burst emitted (written by emit)
  u8 reserved = 0;              // keeps the struct free of padding bytes
};
static_assert(sizeof(Emitter) == 48, "Emitter must have no padding (state hashes read its bytes)");

class ParticleSystem {
 public:
  explicit ParticleSystem(u64 seed = 0);

  // Adds an effect and its pool (capacity def.capacity, allocated now). kAlreadyExists for a
  // name taken, kOutOfRange for an invalid definition, kInvalidArgument for an empty name.
  Result<EffectId> add_effect(std::string_view name, const EffectDef& def);
  // add_effect from a chunk written by the Effect pipeline handler (decode_effect's checks).
  Result<EffectId> load_effect(std::string_view name, ByteSpan chunk);
  EffectId find_effect(std::string_view name) const;  // null when unknown
  EffectId find_effect(StringId name) const;          // by the name's hash ("sparks"_id)
  usize effect_count() const { return pools_.size(); }
  std::string_view effect_name(EffectId effect) const;  // "" for a null or unknown id
  // The id as this system knows it: `effect` itself, or the id of the effect with its name hash
  // (an id of another system or run), or null when no effect here has that name.
  EffectId resolve(EffectId effect) const;

  // A new emitter of `effect` with its own random stream.
  Emitter make_emitter(EffectId effect, const EmitterOptions& options = {});
  // Requests `times` one-shot bursts of the emitter's effect, emitted by its next emit().
  static void burst(Emitter& emitter, u32 times = 1) { emitter.bursts += times; }

  // Emits what `emitter` owes for a frame of dt seconds, from an entity at `at`. An emitter of
  // a null or unknown effect asserts and emits nothing; an id whose index differs here is
  // corrected through its name hash; a negative or NaN dt counts as 0.
  void emit(Emitter& emitter, const Transform& at, f32 dt);
  // Advances every pool by dt seconds.
  void update(f32 dt);
  // Removes every particle (effects and emitters stay).
  void clear();

  usize pool_count() const { return pools_.size(); }
  const ParticlePool& pool(usize index) const;
  const ParticlePool& pool(EffectId effect) const;
  usize live_count() const;
  // A 64-bit hash of every live particle (positions, velocities, ages, colours, sizes).
  u64 state_hash() const;
  // Save games: the counter that seeds the next emitter's random stream (with the pools'
  // particles, ParticlePool::end_ages / restore_particle, all a save needs).
  u64 emitters_made() const { return emitters_made_; }
  void set_emitters_made(u64 count) { emitters_made_ = count; }
  // The pool for writing (restoring a save); same bounds as pool().
  ParticlePool& pool_for_restore(usize index);

 private:
  // `path`: where the entity was a frame ago, relative to now (rate particles are spread on it).
  void spawn(ParticlePool& pool, Emitter& emitter, const Transform& at, u32 count,
             spatial::Vec2 path);

  u64 seed_;
  u64 emitters_made_ = 0;
  std::vector<std::unique_ptr<ParticlePool>> pools_;  // stable addresses (pack assets)
  std::vector<std::string> names_;
  std::vector<Hash> name_hashes_;
  ParticlePool empty_;  // what pool() returns for a bad index (after its assert)
};

class World;

// The frame's particle pass over a World: particles.update(dt), then emit() for every entity
// with an Emitter and a Transform (in the Emitter store's dense order).
void tick_particles(World& world, ParticleSystem& particles, f32 dt);

// Subscribes the gun-flame reaction: a Shoot whose shooter has an Emitter with burst_on_shoot
// requests one burst of it (emitted by the next tick_particles).
ListenerId connect_particle_bursts(World& world);

// Adds an Emitter of the effect named `effect` to a live entity (what spawning an entity
// definition's `Emitter("sparks", offset)` does). Null when the entity is dead or the system has
// no such effect (data errors: no assert).
Emitter* add_emitter(World& world, Entity entity, ParticleSystem& particles, StringId effect,
                     const EmitterOptions& options = {});

// Registers the "ParticleEffect" asset type with a pack loader: each effect of a pack loaded
// with LoadOptions::load_names = true is added to `particles` (its pack asset pointer is its
// ParticlePool). `particles` must outlive the loaded packs; a pack loaded without names, or with
// an effect name already in the system, fails to load.
void register_particle_effects(pack::Loader& loader, ParticleSystem& particles);

}  // namespace keel::world
