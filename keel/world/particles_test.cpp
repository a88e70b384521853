// Particles: emission counts for rate and burst over fixed steps, exact life ends, curves,
// inherited velocity and emitter frames, no allocation per frame, deterministic replays.
#include "keel/world/particles.h"
#include "keel/core/testing/alloc_counter.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

namespace keel::world {
namespace {

using spatial::Vec2;
using tween::Ease;

EffectDef simple(f32 rate, u32 burst, f32 life = 10.0f) {
  EffectDef d;
  d.rate = rate;
  d.burst = burst;
  d.life_min = life;
  d.life_max = life;
  d.capacity = 4096;
  return d;
}

struct Fixture {
  ParticleSystem system{1};
  EffectId effect;
  Emitter emitter;
  Transform at;
  explicit Fixture(const EffectDef& def) {
    effect = *system.add_effect("fx", def);
    emitter = system.make_emitter(effect);
  }
  void frame(f32 dt) {
    system.update(dt);
    system.emit(emitter, at, dt);
  }
  u32 live() const { return system.pool(effect).size(); }
};

TEST(Particles, RateEmitsRateTimesTimeOverFixedSteps) {
  Fixture f(simple(10.0f, 0));
  for (int i = 0; i < 10; ++i) f.frame(0.1f);
  EXPECT_EQ(f.live(), 10u);
  Fixture g(simple(30.0f, 0));
  for (int i = 0; i < 60; ++i) g.frame(1.0f / 60.0f);
  EXPECT_EQ(g.live(), 30u);
  for (int i = 0; i < 120; ++i) g.frame(1.0f / 60.0f);
  EXPECT_EQ(g.live(), 90u);
}

// A pool copied particle by particle into another system (a save and a load) hashes and goes on
// exactly like the original; new emitters continue the same random streams.
TEST(Particles, RestoredParticlesContinueExactly) {
  Fixture a(simple(120, 10, 0.7f));
  for (int i = 0; i < 20; ++i) a.frame(1.0f / 60);
  ParticleSystem b(1);
  const EffectId fx = *b.add_effect("fx", simple(120, 10, 0.7f));
  const ParticlePool& from = a.system.pool(a.effect);
  ASSERT_GT(from.size(), 0u);
  for (u32 i = 0; i < from.size(); ++i) {
    ASSERT_TRUE(b.pool_for_restore(0).restore_particle(from.positions()[i], from.velocities()[i],
                                                       from.ages()[i], from.end_ages()[i],
                                                       from.colours()[i], from.sizes()[i]));
  }
  b.set_emitters_made(a.system.emitters_made());
  EXPECT_EQ(b.state_hash(), a.system.state_hash());
  Emitter copy = a.emitter;
  for (int i = 0; i < 30; ++i) {
    a.frame(1.0f / 60);
    b.update(1.0f / 60);
    b.emit(copy, a.at, 1.0f / 60);
  }
  EXPECT_EQ(b.state_hash(), a.system.state_hash());
  EXPECT_EQ(b.make_emitter(fx).random, a.system.make_emitter(a.effect).random);
  EXPECT_FALSE(b.pool_for_restore(0).restore_particle({NAN, 0}, {}, 0, 1, {}, 1));
}

TEST(Particles, FractionalRateCarriesOverFrames) {
  Fixture f(simple(2.5f, 0));  // 0.25 per frame: one every fourth frame
  u32 seen = 0;
  for (int i = 1; i <= 16; ++i) {
    f.frame(0.1f);
    if (i % 4 == 0) ++seen;
    EXPECT_EQ(f.live(), seen) << "frame " << i;
  }
}

TEST(Particles, BurstOnStartAndOnRequest) {
  Fixture f(simple(0, 25));
  f.frame(0.1f);
  EXPECT_EQ(f.live(), 25u);  // the start burst
  f.frame(0.1f);
  EXPECT_EQ(f.live(), 25u);
  ParticleSystem::burst(f.emitter, 2);
  f.frame(0.1f);
  EXPECT_EQ(f.live(), 75u);
  f.emitter.on = false;  // bursts are emitted while off too
  ParticleSystem::burst(f.emitter);
  f.frame(0.1f);
  EXPECT_EQ(f.live(), 100u);
  f.emitter.on = true;  // switching on again restarts: a new start burst
  f.frame(0.1f);
  EXPECT_EQ(f.live(), 125u);
}

TEST(Particles, DurationStopsTheRate) {
  EffectDef d = simple(10.0f, 0);
  d.duration = 0.5f;
  Fixture f(d);
  for (int i = 0; i < 20; ++i) f.frame(0.1f);
  EXPECT_EQ(f.live(), 5u);
}

TEST(Particles, LifeEndsExactly) {
  Fixture f(simple(0, 10, 0.5f));
  f.frame(0.1f);  // emitted at age 0
  for (int i = 1; i <= 4; ++i) {
    f.frame(0.1f);
    EXPECT_EQ(f.live(), 10u) << "age " << 0.1 * i;
  }
  f.frame(0.1f);  // age 0.5: ends
  EXPECT_EQ(f.live(), 0u);

  Fixture g(simple(0, 3, 1.0f));
  g.frame(1.0f / 60.0f);
  for (int i = 1; i < 60; ++i) g.frame(1.0f / 60.0f);
  EXPECT_EQ(g.live(), 3u);
  g.frame(1.0f / 60.0f);
  EXPECT_EQ(g.live(), 0u);
}

TEST(Particles, SwapRemoveKeepsTheOthers) {
  EffectDef d = simple(0, 0);
  ParticlePool pool(d);
  for (int i = 0; i < 6; ++i) {
    ASSERT_TRUE(pool.add({static_cast<f32>(i), 0}, {}, i % 2 == 0 ? 0.15f : 1.0f));
  }
  pool.update(0.1f);
  EXPECT_EQ(pool.size(), 6u);
  pool.update(0.1f);  // the even ones end
  ASSERT_EQ(pool.size(), 3u);
  f32 sum = 0;
  for (Vec2 p : pool.positions()) sum += p.x;
  EXPECT_FLOAT_EQ(sum, 1 + 3 + 5);
}

TEST(Particles, CapacityIsFixedAndOverflowIsDropped) {
  EffectDef d = simple(0, 8);
  d.capacity = 10;
  Fixture f(d);
  f.frame(0.1f);
  ParticleSystem::burst(f.emitter);
  f.frame(0.1f);
  EXPECT_EQ(f.live(), 10u);
  EXPECT_EQ(f.system.pool(f.effect).dropped(), 6u);
  EXPECT_EQ(f.system.pool(f.effect).capacity(), 10u);
}

TEST(Particles, ColourAndSizeFollowTheCurves) {
  EffectDef d = simple(0, 1, 1.0f);
  d.size_start = 2;
  d.size_end = 10;
  d.size_ease = Ease::kOutQuad;
  d.colour_start = {255, 0, 0, 255};
  d.colour_end = {0, 0, 255, 0};
  d.colour_ease = Ease::kInCubic;
  Fixture f(d);
  f.frame(0.25f);
  const ParticlePool& pool = f.system.pool(f.effect);
  ASSERT_EQ(pool.size(), 1u);
  EXPECT_EQ(pool.sizes()[0], 2.0f);  // start values at age 0
  EXPECT_EQ(pool.colours()[0], (Rgba8{255, 0, 0, 255}));
  for (f32 t : {0.25f, 0.5f, 0.75f}) {
    f.frame(0.25f);
    ASSERT_EQ(pool.size(), 1u);
    EXPECT_NEAR(pool.ages()[0], t, 1e-5f);
    const f32 ws = tween::ease(Ease::kOutQuad, t);
    EXPECT_NEAR(pool.sizes()[0], 2 + 8 * ws, 1e-4f) << t;
    const f32 wc = tween::ease(Ease::kInCubic, t);
    EXPECT_NEAR(pool.colours()[0].r, 255 * (1 - wc), 0.5f) << t;
    EXPECT_NEAR(pool.colours()[0].b, 255 * wc, 0.5f) << t;
    EXPECT_EQ(pool.colours()[0].g, 0);
  }
}

TEST(Particles, EmitterFollowsTheEntityFrameAndInheritsVelocity) {
  EffectDef d = simple(0, 1);
  d.speed_min = d.speed_max = 2;
  d.inherit = 0.5f;
  Fixture f(d);
  f.emitter.offset = {1, 0};
  f.at.position = {10, 20};
  f.at.angle = std::numbers::pi_v<f32> / 2;  // facing +y
  f.at.velocity = {4, 0};
  f.frame(0.1f);
  const ParticlePool& pool = f.system.pool(f.effect);
  ASSERT_EQ(pool.size(), 1u);
  EXPECT_NEAR(pool.positions()[0].x, 10, 1e-5f);  // the offset turned with the entity
  EXPECT_NEAR(pool.positions()[0].y, 21, 1e-5f);
  EXPECT_NEAR(pool.velocities()[0].x, 2, 1e-5f);  // half the entity's velocity
  EXPECT_NEAR(pool.velocities()[0].y, 2, 1e-5f);  // plus the effect's speed along the facing
  f.frame(0.5f);
  EXPECT_NEAR(pool.positions()[0].x, 11, 1e-5f);
  EXPECT_NEAR(pool.positions()[0].y, 22, 1e-5f);
}

TEST(Particles, RateParticlesSpreadAlongTheFramePath) {
  Fixture f(simple(600, 0));  // 10 per frame at 60 Hz
  f.at.position = {10, 0};
  f.at.velocity = {60, 0};  // 1 unit per frame
  f.system.emit(f.emitter, f.at, 1.0f / 60.0f);
  const ParticlePool& pool = f.system.pool(f.effect);
  ASSERT_EQ(pool.size(), 10u);
  for (u32 i = 0; i < 10; ++i) {
    EXPECT_NEAR(pool.positions()[i].x, 10 - 0.1f * static_cast<f32>(i), 1e-4f) << i;
  }
}

TEST(Particles, SpreadDragAndGravity) {
  EffectDef d = simple(0, 500);
  d.speed_min = 1;
  d.speed_max = 3;
  d.direction = std::numbers::pi_v<f32>;  // backwards
  d.spread = std::numbers::pi_v<f32> / 2;
  d.radius = 0.5f;
  Fixture f(d);
  f.frame(0.1f);
  const ParticlePool& pool = f.system.pool(f.effect);
  ASSERT_EQ(pool.size(), 500u);
  for (u32 i = 0; i < pool.size(); ++i) {
    const Vec2 v = pool.velocities()[i];
    const f32 speed = spatial::length(v);
    EXPECT_GE(speed, 1 - 1e-4f);
    EXPECT_LE(speed, 3 + 1e-4f);
    EXPECT_LE(std::fabs(spatial::angle_of(-v)), std::numbers::pi_v<f32> / 4 + 1e-4f);
    EXPECT_LE(spatial::length(pool.positions()[i]), 0.5f + 1e-5f);
  }
  EffectDef g = simple(0, 1);
  g.speed_min = g.speed_max = 1;
  g.drag = 2;
  g.gravity = {0, -10};
  Fixture h(g);
  h.frame(0.1f);
  h.frame(0.1f);
  const Vec2 v = h.system.pool(h.effect).velocities()[0];
  EXPECT_NEAR(v.x, std::exp(-0.2f), 1e-5f);
  EXPECT_NEAR(v.y, -1.0f, 1e-5f);
}

u64 run(u64 seed) {
  EffectDef d = simple(200, 50, 0.7f);
  d.life_min = 0.3f;
  d.speed_max = 5;
  d.spread = 1;
  d.radius = 0.2f;
  ParticleSystem system(seed);
  const EffectId fx = *system.add_effect("fx", d);
  Emitter a = system.make_emitter(fx);
  Emitter b = system.make_emitter(fx, {.offset = {1, 0}, .angle = 2});
  Transform at;
  for (int i = 0; i < 100; ++i) {
    at.position = {static_cast<f32>(i) * 0.1f, 0};
    at.velocity = {1, 0};
    system.update(1.0f / 60.0f);
    system.emit(a, at, 1.0f / 60.0f);
    system.emit(b, at, 1.0f / 60.0f);
  }
  return system.state_hash();
}

TEST(Particles, DeterministicReplays) {
  EXPECT_EQ(run(7), run(7));
  EXPECT_NE(run(7), run(8));
}

TEST(Particles, NoAllocationPerFrame) {
  EffectDef d = simple(3000, 100, 0.5f);
  d.capacity = 2000;  // full part of the time: drops do not allocate either
  d.speed_max = 4;
  d.size_ease = Ease::kOutBounce;
  Fixture f(d);
  EffectDef other = simple(500, 0, 0.2f);
  const EffectId fx2 = *f.system.add_effect("other", other);
  Emitter e2 = f.system.make_emitter(fx2);
  for (int i = 0; i < 30; ++i) f.frame(1.0f / 60.0f);  // warm up
  keel::testing::AllocationScope scope;
  for (int i = 0; i < 600; ++i) {
    if (i % 50 == 0) ParticleSystem::burst(f.emitter);
    f.frame(1.0f / 60.0f);
    f.system.emit(e2, f.at, 1.0f / 60.0f);
  }
  EXPECT_EQ(scope.count(), 0u) << scope.counts();
  EXPECT_GT(f.live(), 0u);
}

TEST(ParticleEffects, FindByNameAndRejectDuplicates) {
  ParticleSystem system;
  const EffectId a = *system.add_effect("sparks", simple(1, 0));
  const EffectId b = *system.add_effect("trail", simple(1, 0));
  EXPECT_EQ(system.find_effect("sparks"), a);
  EXPECT_EQ(system.find_effect("trail"), b);
  EXPECT_FALSE(system.find_effect("smoke"));
  EXPECT_EQ(system.effect_name(b), "trail");
  Result<EffectId> again = system.add_effect("sparks", simple(1, 0));
  ASSERT_FALSE(again);
  EXPECT_EQ(again.error().code(), ErrorCode::kAlreadyExists);
}

TEST(ParticleEffects, ChunkRoundTripAndChecks) {
  EffectDef d = simple(12.5f, 3, 0.4f);
  d.life_max = 0.9f;
  d.gravity = {1, -2};
  d.colour_end = {1, 2, 3, 4};
  d.colour_ease = Ease::kInOutBack;
  d.capacity = 77;
  const ByteBuffer chunk = encode_effect(d);
  Result<EffectDef> back = decode_effect(chunk, "fx");
  ASSERT_TRUE(back) << back.error().to_string();
  EXPECT_EQ(encode_effect(*back), chunk);

  ByteBuffer bad = chunk;
  bad[12 + 4 * 3 + 3] = std::byte{0xFF};  // life_min: a NaN
  Result<EffectDef> nan = decode_effect(bad, "fx");
  ASSERT_FALSE(nan);
  EXPECT_EQ(nan.error().where().offset, 24u);
  EXPECT_NE(nan.error().message().find("life_min"), std::string::npos);
  EXPECT_FALSE(decode_effect(ByteSpan(chunk).first(20), "fx"));
  bad = chunk;
  bad[0] = std::byte{0};
  EXPECT_FALSE(decode_effect(bad));
  EffectDef wrong = d;
  wrong.life_max = 0.1f;  // below life_min
  EXPECT_FALSE(check_effect(wrong));
}

}  // namespace
}  // namespace keel::world
