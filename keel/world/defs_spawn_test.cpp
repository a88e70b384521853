#include "keel/world/defs_spawn.h"

#include "keel/world/components.h"
#include "keel/world/transform.h"

#include <gtest/gtest.h>

#include <cstdlib>

namespace keel::world {
namespace {

// The object a test just checked exists (aborts otherwise, so the compiler sees no null).
template <typename T>
T& must(T* p) {
  if (p == nullptr) std::abort();
  return *p;
}

struct SpawnHealth {
  f32 hp = 0;
};

EntityDef def_of(std::string name, std::vector<ComponentDef> components) {
  return EntityDef{.name = std::move(name), .components = std::move(components)};
}

ComponentDef component(std::string name, Params params = {}) {
  return ComponentDef{.name = std::move(name), .params = std::move(params)};
}

class Spawning : public ::testing::Test {
 protected:
  Spawning() {
    register_world_components(registry);
    registry.add<SpawnHealth>("Health",
                              [](const Params& p) { return SpawnHealth{p.number("hp", 10)}; });
    Params gun;
    gun.set_text("bullet", "bullet").set_number("cooldown", 0.5).set_vec2("muzzle", {0, 16});
    Params sprite;
    sprite.set_text("name", "ships/fighter").set_vec2("size", {32, 32}).set_number("layer", 2);
    Params audio;
    audio.set_text("shoot", "laser");
    Params health;
    health.set_number("hp", 30);
    Params obstacle;
    obstacle.set_number("group", 3).set_number("radius", 12);
    EXPECT_TRUE(defs.add(def_of(
        "fighter", {component("Gun", gun), component("Sprite", sprite), component("Audio", audio),
                    component("Health", health), component("Obstacle", obstacle)})));
  }
  World world;
  SpawnRegistry registry;
  EntityDefs defs;
};

TEST_F(Spawning, SpawnByNameBuildsTheRightComponents) {
  Result<Entity> e = spawn(world, registry, defs, "fighter", {100, -5}, 0.5f);
  ASSERT_TRUE(e) << e.error().to_string();
  ASSERT_TRUE(world.alive(*e));
  const Transform* t = world.get<Transform>(*e);
  ASSERT_NE(t, nullptr);
  EXPECT_FLOAT_EQ(t->position.x, 100);
  EXPECT_FLOAT_EQ(t->angle, 0.5f);
  const Gun* gun = world.get<Gun>(*e);
  ASSERT_NE(gun, nullptr);
  EXPECT_EQ(gun->bullet, runtime_id("bullet"));
  EXPECT_FLOAT_EQ(gun->cooldown, 0.5f);
  EXPECT_FLOAT_EQ(gun->muzzle.y, 16);
  const Sprite* sprite = world.get<Sprite>(*e);
  ASSERT_NE(sprite, nullptr);
  EXPECT_EQ(sprite->texture, runtime_id("ships/fighter"));
  EXPECT_EQ(sprite->layer, 2);
  EXPECT_EQ(sprite->colour, Rgba8{});  // white without a colour
  EXPECT_EQ(must(world.get<Audio>(*e)).sound_for("shoot"_id), runtime_id("laser"));
  EXPECT_FLOAT_EQ(must(world.get<SpawnHealth>(*e)).hp, 30);
  EXPECT_EQ(must(world.get<Obstacle>(*e)).group, 3);
  EXPECT_FALSE(world.has<Target>(*e));
}

TEST_F(Spawning, GeneralFactoriesSeeTheWorldAndTheEntity) {
  Entity seen;
  registry.add("Marker", [&](World& w, Entity e, const Params&) -> Status {
    seen = e;
    w.create<Target>(e, Target{});
    return ok();
  });
  ASSERT_TRUE(defs.add(def_of("marked", {component("Marker")})));
  Result<Entity> e = spawn(world, registry, defs, "marked", {});
  ASSERT_TRUE(e);
  EXPECT_EQ(seen, *e);
  EXPECT_TRUE(world.has<Target>(*e));
}

TEST(EntryPoints, SpawnUnknownDefinition) {
  World world;
  SpawnRegistry registry;
  EntityDefs defs;
  Result<Entity> e = spawn(world, registry, defs, "nobody", {});
  ASSERT_FALSE(e);
  EXPECT_EQ(e.error().code(), ErrorCode::kNotFound);
  EXPECT_NE(e.error().message().find("nobody"), std::string::npos);
  EXPECT_EQ(world.size(), 0u);
}

TEST_F(Spawning, EntryPointsSpawnMissingRegistryEntry) {
  ASSERT_TRUE(
      defs.add(def_of("ghost", {component("Health"), component("Vehicle"), component("Body")})));
  Result<Entity> e = spawn(world, registry, defs, "ghost", {});
  ASSERT_FALSE(e);
  EXPECT_EQ(e.error().code(), ErrorCode::kNotFound);
  EXPECT_NE(e.error().message().find("Vehicle, Body"), std::string::npos) << e.error().message();
  EXPECT_EQ(world.size(), 0u);  // checked before anything is made
}

TEST_F(Spawning, EntryPointsFactoryErrorKillsTheNewEntity) {
  Params bad;
  bad.set_text("kind", "hologram").set_text("name", "x");
  ASSERT_TRUE(defs.add(def_of("hud", {component("HudElement", bad)})));
  Result<Entity> e = spawn(world, registry, defs, "hud", {});
  ASSERT_FALSE(e);
  EXPECT_NE(e.error().message().find("HudElement"), std::string::npos);
  world.flush();
  EXPECT_EQ(world.size(), 0u);
}

TEST_F(Spawning, ClampsOutOfRangeNumbersOfHandMadeDefinitions) {
  Params wild;
  wild.set_number("group", 1e12).set_number("radius", 2);
  Params sprite;
  sprite.set_text("name", "x").set_number("colour", -5).set_number("layer", 1e30);
  ASSERT_TRUE(defs.add(def_of("wild", {component("Obstacle", wild), component("Sprite", sprite)})));
  Result<Entity> e = spawn(world, registry, defs, "wild", {});
  ASSERT_TRUE(e);
  EXPECT_EQ(must(world.get<Obstacle>(*e)).group, spatial::kMaxGroups - 1);
  EXPECT_EQ(must(world.get<Sprite>(*e)).colour, (Rgba8{0, 0, 0, 0}));
  EXPECT_EQ(must(world.get<Sprite>(*e)).layer, 1000000);
}

TEST_F(Spawning, ColoursAreWrittenRedInTheHighByte) {
  Params sprite;
  sprite.set_text("name", "x").set_number("colour", 0x11223344u);
  Params hud;
  hud.set_text("name", "y").set_number("colour", 0xFF000080u);
  ASSERT_TRUE(
      defs.add(def_of("tinted", {component("Sprite", sprite), component("HudElement", hud)})));
  Result<Entity> e = spawn(world, registry, defs, "tinted", {});
  ASSERT_TRUE(e);
  EXPECT_EQ(must(world.get<Sprite>(*e)).colour, (Rgba8{0x11, 0x22, 0x33, 0x44}));
  EXPECT_EQ(must(world.get<HudElement>(*e)).colour, (Rgba8{0xFF, 0, 0, 0x80}));
}

}  // namespace
}  // namespace keel::world

namespace keel::world {
namespace {

TEST(BulletSpawner, AShotSpawnsTheGunsBulletDefinition) {
  World world;
  SpawnRegistry registry;
  register_world_components(registry);
  EntityDefs defs;
  Params life;
  life.set_number("seconds", 1);
  ASSERT_TRUE(
      defs.add(EntityDef{.name = "bullet", .components = {{.name = "Lifetime", .params = life}}}));
  u32 failed = 0;
  connect_bullet_spawner(world, registry, defs, &failed);
  const Entity gunner = world.create();
  world.emit(
      Shoot{.shooter = gunner, .bullet = "bullet"_id, .position = {1, 2}, .velocity = {0, 5}});
  world.emit(Shoot{.shooter = gunner, .bullet = "missing"_id, .position = {}, .velocity = {}});
  world.flush();
  EXPECT_EQ(failed, 1u);
  u32 bullets = 0;
  for (auto [e, l, t] : world.view<Lifetime, Transform>()) {
    ++bullets;
    EXPECT_FLOAT_EQ(t.position.y, 2);
    EXPECT_FLOAT_EQ(t.velocity.y, 5);
    EXPECT_NEAR(t.angle, 1.5707964f, 1e-5);
  }
  EXPECT_EQ(bullets, 1u);
}

}  // namespace
}  // namespace keel::world
