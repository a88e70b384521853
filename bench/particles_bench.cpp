// Particle update throughput: one ParticlePool::update over 100,000 live particles (drag,
// gravity, an eased size curve and an eased colour curve), against a plain loop over the same
// structure-of-arrays data computing the same thing with the curves inlined (tween::ease_at).
// Lives are long so nobody ends mid-benchmark; BM_ParticleSystemFrame100k is a whole frame of a
// steady state instead: 100 emitters at 1,000 particles per second with 1-second lives (about
// 100,000 live, about 1,700 emitted and ended per frame), update + emit.
#include "bench_support.h"
#include "keel/tween/easing.h"
#include "keel/world/particles.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace {

using keel::f32;
using keel::u32;
using keel::u8;
using keel::usize;
using keel::spatial::Vec2;
using keel::tween::Ease;
using namespace keel::world;

constexpr u32 kCount = 100'000;
constexpr f32 kDt = 1.0f / 60.0f;

EffectDef effect(u32 capacity) {
  EffectDef d;
  d.life_min = d.life_max = 1e6f;
  d.drag = 0.5f;
  d.gravity = {0, -9.8f};
  d.size_start = 0.5f;
  d.size_end = 2.0f;
  d.size_ease = Ease::kOutQuad;
  d.colour_start = {255, 240, 200, 255};
  d.colour_end = {255, 40, 0, 0};
  d.colour_ease = Ease::kInCubic;
  d.capacity = capacity;
  return d;
}

Vec2 start_velocity(u32 i) {
  return {static_cast<f32>(i % 17) - 8.0f, static_cast<f32>(i % 11) - 5.0f};
}

void BM_ParticlePoolUpdate100k(benchmark::State& state) {
  ParticlePool pool(effect(kCount));
  for (u32 i = 0; i < kCount; ++i) {
    pool.add({static_cast<f32>(i % 1000), 0}, start_velocity(i), 100.0f + static_cast<f32>(i % 97));
  }
  for (auto _ : state) {
    pool.update(kDt);
    benchmark::ClobberMemory();
  }
  benchmark::DoNotOptimize(pool.positions()[kCount / 2]);
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * kCount);
}

// The plain loop: the same arrays and the same work, written out by hand.
struct Plain {
  std::vector<Vec2> pos, vel;
  std::vector<f32> age, life, size;
  std::vector<Rgba8> colour;
  u32 count = kCount;
  Plain() {
    for (u32 i = 0; i < kCount; ++i) {
      pos.push_back({static_cast<f32>(i % 1000), 0});
      vel.push_back(start_velocity(i));
      age.push_back(0);
      life.push_back(100.0f + static_cast<f32>(i % 97));
      size.push_back(0.5f);
      colour.push_back({255, 240, 200, 255});
    }
  }
};

u8 channel(f32 from, f32 to, f32 w) {
  return static_cast<u8>(std::clamp(from + (to - from) * w, 0.0f, 255.0f) + 0.5f);
}

void BM_PlainSoALoop100k(benchmark::State& state) {
  Plain p;
  const f32 damp = std::exp(-0.5f * kDt);
  const Vec2 dv = Vec2{0, -9.8f} * kDt;
  for (auto _ : state) {
    Vec2* const pos = p.pos.data();
    Vec2* const vel = p.vel.data();
    f32* const age = p.age.data();
    f32* const life = p.life.data();
    f32* const size = p.size.data();
    Rgba8* const colour = p.colour.data();
    u32 n = p.count;
    u32 i = 0;
    while (i < n) {
      const f32 a = age[i] + kDt;
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
      pos[i] += v * kDt;
      const f32 t = a / life[i];
      size[i] = 0.5f + 1.5f * keel::tween::ease_at<Ease::kOutQuad>(t);
      const f32 w = keel::tween::ease_at<Ease::kInCubic>(t);
      colour[i] = {channel(255, 255, w), channel(240, 40, w), channel(200, 0, w),
                   channel(255, 0, w)};
      ++i;
    }
    p.count = n;
    benchmark::ClobberMemory();
  }
  benchmark::DoNotOptimize(p.pos[kCount / 2]);
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * kCount);
}

void BM_ParticleSystemFrame100k(benchmark::State& state) {
  ParticleSystem particles(1);
  EffectDef d = effect(120'000);
  d.rate = 1000;
  d.life_min = d.life_max = 1.0f;
  d.speed_min = 1;
  d.speed_max = 4;
  d.spread = 6.28f;
  const EffectId fx = *particles.add_effect("bench", d);
  std::vector<Emitter> emitters;
  std::vector<Transform> at(100);
  for (usize e = 0; e < 100; ++e) {
    emitters.push_back(particles.make_emitter(fx));
    at[e].position = {static_cast<f32>(e), 0};
  }
  const auto frame = [&] {
    particles.update(kDt);
    for (usize e = 0; e < emitters.size(); ++e) particles.emit(emitters[e], at[e], kDt);
  };
  for (int i = 0; i < 70; ++i) frame();  // past one life: steady state
  for (auto _ : state) {
    frame();
    benchmark::ClobberMemory();
  }
  state.counters["live"] = static_cast<double>(particles.live_count());
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) *
                          static_cast<int64_t>(particles.live_count()));
}

BENCHMARK(BM_ParticlePoolUpdate100k)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_PlainSoALoop100k)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_ParticleSystemFrame100k)->Unit(benchmark::kMicrosecond);

KEEL_BENCH_RATIO("particle pool update vs plain SoA loop (100k)", "BM_ParticlePoolUpdate100k",
                 "BM_PlainSoALoop100k");
KEEL_BENCH_RATIO("particle frame (update + emit, 100k live) vs plain SoA loop",
                 "BM_ParticleSystemFrame100k", "BM_PlainSoALoop100k");

}  // namespace

KEEL_BENCH_MAIN()
