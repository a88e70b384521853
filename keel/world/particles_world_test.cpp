// Emitter components on World entities: tick_particles follows each entity's Transform, gun
// flames burst on Shoot, and a headless scene replays to the same particle state.
#include "keel/core/testing/alloc_counter.h"
#include "keel/world/components.h"
#include "keel/world/particles.h"
#include "keel/world/systems.h"
#include "keel/world/world.h"

#include <gtest/gtest.h>

namespace keel::world {
namespace {

EffectDef trail_effect() {
  EffectDef d;
  d.rate = 60;
  d.life_min = 0.5f;
  d.life_max = 0.5f;
  d.capacity = 1000;
  return d;
}

EffectDef flame_effect() {
  EffectDef d;
  d.burst = 6;
  d.life_min = 0.1f;
  d.life_max = 0.1f;
  d.speed_min = d.speed_max = 3;
  d.capacity = 100;
  return d;
}

TEST(ParticlesWorld, EmittersFollowTheirEntities) {
  World world;
  ParticleSystem particles(3);
  const EffectId trail = *particles.add_effect("trail", trail_effect());
  const Entity ship = world.create();
  Transform t;
  t.position = {5, 5};
  world.create<Transform>(ship, t);
  world.create<Emitter>(ship, particles.make_emitter(trail, {.offset = {-1, 0}}));
  const Entity idle = world.create();  // an emitter without a Transform is not run
  world.create<Emitter>(idle, particles.make_emitter(trail));
  for (int i = 0; i < 6; ++i) tick_particles(world, particles, 1.0f / 60.0f);
  const ParticlePool& pool = particles.pool(trail);
  ASSERT_EQ(pool.size(), 6u);
  EXPECT_FLOAT_EQ(pool.positions().back().x, 4);
  EXPECT_FLOAT_EQ(pool.positions().back().y, 5);
  Emitter* emitter = world.get<Emitter>(ship);
  ASSERT_NE(emitter, nullptr);
  emitter->on = false;
  for (int i = 0; i < 30; ++i) tick_particles(world, particles, 1.0f / 60.0f);
  EXPECT_EQ(pool.size(), 0u);  // no more emission; every particle ended
}

TEST(ParticlesWorld, AddEmitterByEffectName) {
  World world;
  ParticleSystem particles(3);
  const EffectId trail = *particles.add_effect("trail", trail_effect());
  const Entity ship = world.create();
  Emitter* emitter = add_emitter(world, ship, particles, "trail"_id, {.offset = {2, 0}});
  ASSERT_NE(emitter, nullptr);
  EXPECT_EQ(emitter->effect, trail);
  EXPECT_EQ(emitter->offset, (Vec2{2, 0}));
  EXPECT_EQ(add_emitter(world, ship, particles, "smoke"_id), nullptr);  // unknown: data error
  world.kill(ship);
  world.flush();
  EXPECT_EQ(add_emitter(world, ship, particles, "trail"_id), nullptr);  // dead entity
}

TEST(ParticlesWorld, GunFlamesBurstOnShoot) {
  World world;
  ParticleSystem particles(3);
  const EffectId flame = *particles.add_effect("gun_flame", flame_effect());
  connect_particle_bursts(world);
  const Entity ship = world.create();
  world.create<Transform>(ship);
  Gun gun;
  gun.cooldown = 0.5f;
  gun.trigger = true;
  world.create<Gun>(ship, gun);
  world.create<Emitter>(
      ship, particles.make_emitter(
                flame, {.offset = {}, .angle = 0, .on = false, .burst_on_shoot = true}));
  u32 peak = 0;
  for (int i = 0; i < 60; ++i) {  // one second: shots at 0 and 0.5 s
    tick_guns(world, 1.0f / 60.0f);
    world.flush();
    tick_particles(world, particles, 1.0f / 60.0f);
    peak = std::max(peak, particles.pool(flame).size());
  }
  EXPECT_EQ(peak, 6u);
  EXPECT_EQ(particles.pool(flame).dropped(), 0u);
}

u64 scene(u64 seed) {
  World world;
  ParticleSystem particles(seed);
  EffectDef sparks = flame_effect();
  sparks.spread = 6;
  sparks.speed_min = 1;
  const EffectId trail = *particles.add_effect("trail", trail_effect());
  const EffectId flame = *particles.add_effect("sparks", sparks);
  connect_particle_bursts(world);
  for (int s = 0; s < 20; ++s) {
    const Entity e = world.create();
    Transform t;
    t.position = {static_cast<f32>(s), 0};
    t.velocity = {1, static_cast<f32>(s % 3)};
    world.create<Transform>(e, t);
    world.create<Emitter>(e, particles.make_emitter(s % 2 ? trail : flame));
  }
  for (int i = 0; i < 120; ++i) {
    world.view<Transform>().each([](Entity, Transform& t) { t.position += t.velocity / 60.0f; });
    if (i % 30 == 0) {
      world.view<Emitter>().each([](Entity, Emitter& e) { ParticleSystem::burst(e); });
    }
    tick_particles(world, particles, 1.0f / 60.0f);
  }
  return particles.state_hash();
}

TEST(ParticlesWorld, SceneReplaysAndAllocatesNothingPerFrame) {
  EXPECT_EQ(scene(11), scene(11));
  EXPECT_NE(scene(11), scene(12));
  World world;
  ParticleSystem particles(1);
  const EffectId trail = *particles.add_effect("trail", trail_effect());
  for (int s = 0; s < 10; ++s) {
    const Entity e = world.create();
    world.create<Transform>(e);
    world.create<Emitter>(e, particles.make_emitter(trail));
  }
  for (int i = 0; i < 10; ++i) tick_particles(world, particles, 1.0f / 60.0f);
  keel::testing::AllocationScope scope;
  for (int i = 0; i < 200; ++i) tick_particles(world, particles, 1.0f / 60.0f);
  EXPECT_EQ(scope.count(), 0u) << scope.counts();
}

TEST(ParticlesWorld, EmittersTakePartInTheWorldStateHash) {
  const auto run = [](bool extra_burst) {
    World world;
    world.track_state<Emitter>();
    ParticleSystem particles(5);
    EffectDef def = trail_effect();
    def.burst = 5;
    const EffectId trail = *particles.add_effect("trail", def);
    const Entity e = world.create();
    world.create<Transform>(e);
    Emitter* emitter = world.create<Emitter>(e, particles.make_emitter(trail));
    if (extra_burst && emitter != nullptr) ParticleSystem::burst(*emitter);
    for (int i = 0; i < 10; ++i) tick_particles(world, particles, 1.0f / 60.0f);
    return world.state_hash();
  };
  EXPECT_EQ(run(false), run(false));
  EXPECT_NE(run(false), run(true));  // the burst drew random numbers: the emitter's state moved
}

}  // namespace
}  // namespace keel::world
