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
  // Samples per easing curve table (colour and size curves are sampled once, then interpolated).
  static constexpr u32 kCurveSamples = 64;
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
  std::span<const Rgba8> colours() const { return {colour_.data(), count_}; }
  std::span<const f32> sizes() const { return {size_.data(), count_}; }

  // The weight of the size / colour curve at life fraction t in [0, 1] as the update applies it
  // (the tween curve sampled at kCurveSamples + 1 points, linear in between; exact at 0 and 1).
  f32 size_weight(f32 t) const { return sample(size_curve_, t); }
  f32 colour_weight(f32 t) const { return sample(colour_curve_, t); }

 private:
  friend class ParticleSystem;  // counts the particles it could not add as dropped

  using Curve = std::array<f32, kCurveSamples + 1>;
  static Curve bake(tween::Ease ease);
  static f32 sample(const Curve& curve, f32 t) {
    const f32 x = t * static_cast<f32>(kCurveSamples);
    u32 i = x > 0 ? static_cast<u32>(x) : 0;
    i = i < kCurveSamples ? i : kCurveSamples - 1;
    const f32 frac = x - static_cast<f32>(i);
    return curve[i] + (curve[i + 1] - curve[i]) * frac;
  }
  void remove(u32 i);

  EffectDef def_;
  u32 count_ = 0;
  u64 dropped_ = 0;
  std::vector<spatial::Vec2> position_;
  std::vector<spatial::Vec2> velocity_;
  std::vector<f32> age_;
  std::vector<f32> life_;  // life - kLifeSlack: ends when age >= life_
  std::vector<Rgba8> colour_;
  std::vector<f32> size_;
  Curve size_curve_{};
  Curve colour_curve_{};
  std::array<f32, 4> colour0_{};  // start colour and end - start, per channel, as floats
  std::array<f32, 4> colour_delta_{};
};

}  // namespace keel::world
