// keel::world::ParticlePool: the live particles of one effect as structure-of-arrays with a fixed
// capacity (allocated once, never grown): positions, velocities, ages, lifetimes, and the drawing
// data the update computes from the effect's curves (colour as RGBA8 and size).
//
//   ParticlePool pool(def);                 // capacity def.capacity
//   pool.add(position, velocity, life);     // false (and counted as dropped) when full
//   pool.update(dt);                        // age, remove the dead, move, colour and size
//   draw(pool.positions(), pool.colours(), pool.sizes());   // spans of size() entries
//
// A particle lives exactly `life` seconds: it is removed in the update whose accumulated time
// reaches its life (within 10 microseconds of float rounding: 60 updates of 1/60 s end a life
// of 1 s), so it is drawn at ages 0 <= age < life. Removal swaps the last particle into the
// hole: order is not kept. The spans stay valid until the next add/update/clear.
#pragma once

#include "keel/core/types.h"
#include "keel/spatial/vec2.h"
#include "keel/world/particles_effect.h"

#include <array>
#include <span>
#include <vector>

namespace keel::world {

class ParticlePool {
 public:
  // How far short of its life a particle's accumulated age may fall and still end.
  static constexpr f32 kLifeSlack = 1e-5f;

  // `def` must be valid (check_effect); asserts otherwise and then uses a capacity of at least 1.
  explicit ParticlePool(const EffectDef& def);

  const EffectDef& effect() const { return def_; }
  u32 capacity() const { return static_cast<u32>(age_.size()); }
  u32 size() const { return count_; }
  bool empty() const { return count_ == 0; }
  // Particles refused because the pool was full, since construction or clear().
  u64 dropped() const { return dropped_; }

  // Adds a particle at age 0 with the curves' start colour and size. False when full.
  bool add(spatial::Vec2 position, spatial::Vec2 velocity, f32 life);
  // Advances every particle by dt seconds (>= 0; a negative or NaN dt asserts and counts as 0).
  void update(f32 dt);
  void clear();

  std::span<const spatial::Vec2> positions() const { return {position_.data(), count_}; }
  std::span<const spatial::Vec2> velocities() const { return {velocity_.data(), count_}; }
  std::span<const f32> ages() const { return {age_.data(), count_}; }
  std::span<const Rgba8> colours() const { return {rgba_.data(), count_}; }
  std::span<const f32> sizes() const { return {size_.data(), count_}; }
  // Save games: each particle's end age (its life less kLifeSlack), and a particle put back
  // exactly as it was (restore_particle: false when full or for non-finite values).
  std::span<const f32> end_ages() const { return {life_.data(), count_}; }
  bool restore_particle(spatial::Vec2 position, spatial::Vec2 velocity, f32 age, f32 end_age,
                        Rgba8 colour, f32 size);

 private:
  friend class ParticleSystem;  // counts the particles it could not add as dropped

  // The curve passes: one loop per easing curve with the curve inlined (tween::ease_at),
  // chosen once per pool, run over blocks of particles the update has just moved.
  using SizePass = void (*)(const f32* age, const f32* life, f32* size, u32 begin, u32 end,
                            f32 start, f32 delta);
  using ColourPass = void (*)(const f32* age, const f32* life, Rgba8* colour, u32 begin, u32 end,
                              const f32* start_and_delta);

  EffectDef def_;
  u32 count_ = 0;
  u64 dropped_ = 0;
  std::vector<spatial::Vec2> position_;
  std::vector<spatial::Vec2> velocity_;
  std::vector<f32> age_;
  std::vector<f32> life_;  // life - kLifeSlack: ends when age >= life_
  std::vector<Rgba8> rgba_;
  std::vector<f32> size_;
  SizePass size_pass_ = nullptr;
  ColourPass colour_pass_ = nullptr;
  std::array<f32, 8> colour_curve_{};  // start colour, then end - start, per channel, as floats
};

}  // namespace keel::world
