#include "keel/world/particles_pool.h"

#include "keel/core/assert.h"

#include <algorithm>
#include <cmath>

namespace keel::world {

using spatial::Vec2;

namespace {

std::array<f32, 4> channels(Rgba8 c) {
  return {static_cast<f32>(c.r), static_cast<f32>(c.g), static_cast<f32>(c.b),
          static_cast<f32>(c.a)};
}

u8 to_channel(f32 v) { return static_cast<u8>(std::clamp(v, 0.0f, 255.0f) + 0.5f); }

}  // namespace

ParticlePool::Curve ParticlePool::bake(tween::Ease ease) {
  Curve curve{};
  for (u32 i = 0; i <= kCurveSamples; ++i) {
    curve[i] = tween::ease(ease, static_cast<f32>(i) / static_cast<f32>(kCurveSamples));
  }
  return curve;
}

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
  colour_.resize(n);
  size_.resize(n);
  size_curve_ = bake(def_.size_ease);
  colour_curve_ = bake(def_.colour_ease);
  colour0_ = channels(def_.colour_start);
  const std::array<f32, 4> end = channels(def_.colour_end);
  for (usize c = 0; c < 4; ++c) colour_delta_[c] = end[c] - colour0_[c];
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
  colour_[i] = def_.colour_start;
  size_[i] = def_.size_start;
  return true;
}

void ParticlePool::remove(u32 i) {
  const u32 last = --count_;
  position_[i] = position_[last];
  velocity_[i] = velocity_[last];
  age_[i] = age_[last];
  life_[i] = life_[last];
}

void ParticlePool::update(f32 dt) {
  KEEL_ASSERT(dt >= 0, "ParticlePool::update() with dt {} (must be >= 0)", dt);
  if (!(dt >= 0)) dt = 0;  // NaN too
  const f32 damp = std::exp(-def_.drag * dt);
  const Vec2 dv = def_.gravity * dt;
  const f32 size0 = def_.size_start;
  const f32 size_delta = def_.size_end - def_.size_start;
  Vec2* const pos = position_.data();
  Vec2* const vel = velocity_.data();
  f32* const age = age_.data();
  f32* const life = life_.data();
  Rgba8* const colour = colour_.data();
  f32* const size = size_.data();
  u32 i = 0;
  while (i < count_) {
    const f32 a = age[i] + dt;
    if (a >= life[i]) {  // ends: the last particle moves here and is processed next
      remove(i);
      continue;
    }
    age[i] = a;
    const Vec2 v = vel[i] * damp + dv;
    vel[i] = v;
    pos[i] += v * dt;
    const f32 t = a / life[i];
    size[i] = size0 + size_delta * sample(size_curve_, t);
    const f32 w = sample(colour_curve_, t);
    colour[i] = {to_channel(colour0_[0] + colour_delta_[0] * w),
                 to_channel(colour0_[1] + colour_delta_[1] * w),
                 to_channel(colour0_[2] + colour_delta_[2] * w),
                 to_channel(colour0_[3] + colour_delta_[3] * w)};
    ++i;
  }
}

void ParticlePool::clear() {
  count_ = 0;
  dropped_ = 0;
}

}  // namespace keel::world
