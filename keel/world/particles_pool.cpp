#include "keel/world/particles_pool.h"

#include "keel/core/assert.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace keel::world {

using spatial::Vec2;
using tween::Ease;

namespace {

// Particles per block: the curve passes run over a block right after the motion pass moved it,
// while it is still in the L1 cache.
constexpr u32 kBlock = 256;

u8 to_channel(f32 v) { return static_cast<u8>(std::clamp(v, 0.0f, 255.0f) + 0.5f); }

template <Ease E>
void size_pass(const f32* age, const f32* life, f32* size, u32 begin, u32 end, f32 start,
               f32 delta) {
  for (u32 i = begin; i < end; ++i) size[i] = start + delta * tween::ease_at<E>(age[i] / life[i]);
}

template <Ease E>
void colour_pass(const f32* age, const f32* life, Rgba8* colour, u32 begin, u32 end, const f32* c) {
  const f32 r = c[0], g = c[1], b = c[2], a = c[3], dr = c[4], dg = c[5], db = c[6], da = c[7];
  for (u32 i = begin; i < end; ++i) {
    const f32 w = tween::ease_at<E>(age[i] / life[i]);
    colour[i] = {to_channel(r + dr * w), to_channel(g + dg * w), to_channel(b + db * w),
                 to_channel(a + da * w)};
  }
}

template <usize... I>
constexpr auto size_passes(std::index_sequence<I...>) {
  return std::array{&size_pass<static_cast<Ease>(I)>...};
}
template <usize... I>
constexpr auto colour_passes(std::index_sequence<I...>) {
  return std::array{&colour_pass<static_cast<Ease>(I)>...};
}
constexpr auto kSizePasses = size_passes(std::make_index_sequence<tween::kEaseCount>());
constexpr auto kColourPasses = colour_passes(std::make_index_sequence<tween::kEaseCount>());

}  // namespace

ParticlePool::ParticlePool(const EffectDef& def) : def_(def) {
  const Status valid = check_effect(def);
  KEEL_ASSERT(valid.has_value(), "ParticlePool of an invalid effect: {}", valid.error().message());
  if (!valid) {  // release builds: something harmless
    def_ = EffectDef{};
    def_.capacity = std::clamp<u32>(def.capacity, 1, kMaxEffectCapacity);
  }
  const usize n = def_.capacity;
  position_.resize(n);
  velocity_.resize(n);
  age_.resize(n);
  life_.resize(n);
  rgba_.resize(n);
  size_.resize(n);
  size_pass_ = kSizePasses[static_cast<usize>(def_.size_ease)];
  colour_pass_ = kColourPasses[static_cast<usize>(def_.colour_ease)];
  const Rgba8 s = def_.colour_start;
  const Rgba8 e = def_.colour_end;
  const std::array<u8, 4> start = {s.r, s.g, s.b, s.a};
  const std::array<u8, 4> end = {e.r, e.g, e.b, e.a};
  for (usize c = 0; c < 4; ++c) {
    colour_curve_[c] = static_cast<f32>(start[c]);
    colour_curve_[c + 4] = static_cast<f32>(end[c]) - static_cast<f32>(start[c]);
  }
}

bool ParticlePool::add(Vec2 position, Vec2 velocity, f32 life) {
  if (count_ == capacity()) {
    ++dropped_;
    return false;
  }
  const u32 i = count_++;
  position_[i] = position;
  velocity_[i] = velocity;
  age_[i] = 0;
  life_[i] = life - kLifeSlack;
  rgba_[i] = def_.colour_start;
  size_[i] = def_.size_start;
  return true;
}

bool ParticlePool::restore_particle(Vec2 position, Vec2 velocity, f32 age, f32 end_age,
                                    Rgba8 colour, f32 size) {
  const bool finite = std::isfinite(position.x) && std::isfinite(position.y) &&
                      std::isfinite(velocity.x) && std::isfinite(velocity.y) &&
                      std::isfinite(age) && std::isfinite(end_age) && std::isfinite(size);
  if (count_ == capacity() || !finite || age < 0) return false;
  const u32 i = count_++;
  position_[i] = position;
  velocity_[i] = velocity;
  age_[i] = age;
  life_[i] = end_age;
  rgba_[i] = colour;
  size_[i] = size;
  return true;
}

void ParticlePool::update(f32 dt) {
  KEEL_ASSERT(dt >= 0, "ParticlePool::update() with dt {} (must be >= 0)", dt);
  if (!(dt >= 0)) dt = 0;  // NaN too
  const f32 damp = std::exp(-def_.drag * dt);
  const Vec2 dv = def_.gravity * dt;
  const f32 size_start = def_.size_start;
  const f32 size_delta = def_.size_end - def_.size_start;
  Vec2* const pos = position_.data();
  Vec2* const vel = velocity_.data();
  f32* const age = age_.data();
  f32* const life = life_.data();
  u32 n = count_;
  u32 begin = 0;
  while (begin < n) {
    // Motion: age, remove the ended (the last particle moves into the hole and is processed
    // next, inside this block), move.
    u32 i = begin;
    while (i < n && i < begin + kBlock) {
      const f32 a = age[i] + dt;
      if (a >= life[i]) {
        --n;
        pos[i] = pos[n];
        vel[i] = vel[n];
        age[i] = age[n];
        life[i] = life[n];
        continue;
      }
      age[i] = a;
      const Vec2 v = vel[i] * damp + dv;
      vel[i] = v;
      pos[i] += v * dt;
      ++i;
    }
    size_pass_(age, life, size_.data(), begin, i, size_start, size_delta);
    colour_pass_(age, life, rgba_.data(), begin, i, colour_curve_.data());
    begin = i;
  }
  count_ = n;
}

void ParticlePool::clear() {
  count_ = 0;
  dropped_ = 0;
}

}  // namespace keel::world
