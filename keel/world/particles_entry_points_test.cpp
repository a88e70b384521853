// EntryPoints.Particles*: bad calls to the particle system assert in debug builds and do
// nothing harmful in release builds.
#include "keel/core/testing/assert_recorder.h"
#include "keel/world/particles.h"

#include <gtest/gtest.h>

#include <cmath>

namespace keel::world {
namespace {

EffectDef with(f32 rate, u32 burst) {
  EffectDef def;
  def.rate = rate;
  def.burst = burst;
  return def;
}

TEST(EntryPoints, ParticlesEffects) {
  ParticleSystem system;
  EffectDef bad;
  bad.life_min = 0;
  EXPECT_EQ(system.add_effect("x", bad).error().code(), ErrorCode::kOutOfRange);
  EXPECT_EQ(system.add_effect("", EffectDef{}).error().code(), ErrorCode::kInvalidArgument);
  EXPECT_FALSE(system.load_effect("x", {}));
  EXPECT_EQ(system.effect_count(), 0u);
  EXPECT_EQ(system.effect_name({}), "");
}

TEST(EntryPoints, ParticlesEmitWithoutEffect) {
  keel::testing::AssertRecorder asserts;
  ParticleSystem system;
  ParticleSystem other;
  const EffectId theirs = *other.add_effect("fx", with(0, 5));  // no "fx" in `system`
  Emitter null_emitter;
  system.emit(null_emitter, {}, 0.1f);
  asserts.expect_asserted("unknown here");
  Emitter foreign = other.make_emitter(theirs);
  system.emit(foreign, {}, 0.1f);
  asserts.expect_asserted("unknown here");
  (void)system.make_emitter(theirs);
  asserts.expect_asserted("unknown here");
  EXPECT_EQ(system.live_count(), 0u);
  EXPECT_EQ(system.pool(theirs).size(), 0u);
  asserts.expect_asserted("unknown here");
  EXPECT_EQ(system.pool(3).size(), 0u);
  asserts.expect_asserted("pool(3)");
}

TEST(EntryPoints, ParticlesIdsOfAnotherSystemResolveByName) {
  ParticleSystem a;
  ParticleSystem b;
  (void)*a.add_effect("smoke", with(0, 1));
  const EffectId a_fire = *a.add_effect("fire", with(0, 3));
  const EffectId b_fire = *b.add_effect("fire", with(0, 4));  // index 0 here, 1 in a
  Emitter e = a.make_emitter(a_fire);
  b.emit(e, {}, 0.1f);  // an emitter loaded from a save of another run: found by name
  EXPECT_EQ(e.effect, b_fire);
  EXPECT_EQ(b.live_count(), 4u);
  EXPECT_EQ(b.effect_name(a_fire), "fire");
}

TEST(EntryPoints, ParticlesBadTimeSteps) {
  keel::testing::AssertRecorder asserts;
  ParticleSystem system;
  const EffectId fx = *system.add_effect("fx", with(10, 2));
  Emitter e = system.make_emitter(fx);
  system.emit(e, {}, -1.0f);
  asserts.expect_asserted("dt -1");
  EXPECT_EQ(system.live_count(), 2u);  // the start burst; no rate for a negative dt
  system.update(std::nanf(""));
  asserts.expect_asserted("dt nan");
  EXPECT_EQ(system.live_count(), 2u);
  EXPECT_TRUE(std::isfinite(system.pool(fx).positions()[0].x));
}

TEST(EntryPoints, ParticlesPoolOfInvalidEffect) {
  keel::testing::AssertRecorder asserts;
  EffectDef bad;
  bad.capacity = 0;
  ParticlePool pool(bad);
  asserts.expect_asserted("invalid effect");
  EXPECT_GE(pool.capacity(), 1u);
  pool.update(0.1f);
  EXPECT_TRUE(pool.add({}, {}, 1));
}

}  // namespace
}  // namespace keel::world
