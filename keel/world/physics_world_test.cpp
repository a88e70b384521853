#include "keel/world/physics_world.h"

#include "keel/world/world.h"

#include <gtest/gtest.h>

namespace keel::world {
namespace {

// Copies, so no test dereferences a pointer GCC cannot prove non-null.
Transform transform_of(const World& world, Entity e) {
  const Transform* t = world.get<Transform>(e);
  return t != nullptr ? *t : Transform{};
}

CollisionFilters filters() { return *collision_filters(spatial::citizen_group_table()); }

BodyDef ball(Vec2 at, Vec2 v = {}) {
  BodyDef def;
  def.shape = ShapeDef::circle(5);
  def.start.position = at;
  def.start.velocity = v;
  return def;
}

TEST(PhysicsWorld, BodiesWriteTransformComponentsEachStep) {
  World world;
  PhysicsSystem physics(world, {}, filters());
  const Entity e = world.create();
  ASSERT_TRUE(physics.add(e, ball({}, {60, 0})));
  ASSERT_TRUE(world.has<Body>(e));
  EXPECT_EQ(physics.update(1.0 / 60 + 1e-9), 1u);
  ASSERT_TRUE(world.has<Transform>(e));
  const Transform t = transform_of(world, e);
  EXPECT_NEAR(t.position.x, 1, 1e-3f);
  EXPECT_EQ(physics.interpolated(e).velocity.x, t.velocity.x);
}

TEST(PhysicsWorld, ABodyComponentMadeByTheWorldGetsItsB2Body) {
  World world;
  PhysicsSystem physics(world, {}, filters());
  const Entity e = world.create();
  world.create<Body>(e, Body{ball({3, 4})});
  const Entity bad = world.create();
  BodyDef zero = ball({});
  zero.shape.radius = 0;
  world.create<Body>(bad, Body{zero});
  physics.update(0);
  EXPECT_TRUE(physics.physics().has_body(e));
  EXPECT_FALSE(physics.physics().has_body(bad));
  world.flush();
  EXPECT_FALSE(world.has<Body>(bad));  // refused: the component is removed
  ASSERT_TRUE(world.has<Transform>(e));
  EXPECT_EQ(transform_of(world, e).position, (Vec2{3, 4}));
}

TEST(PhysicsWorld, KilledEntitiesAndRemovedComponentsLoseTheirBodies) {
  World world;
  PhysicsSystem physics(world, {}, filters());
  const Entity a = world.create();
  const Entity b = world.create();
  ASSERT_TRUE(physics.add(a, ball({})));
  ASSERT_TRUE(physics.add(b, ball({50, 0})));
  world.kill(a);
  EXPECT_TRUE(physics.physics().has_body(a));  // until the flush
  world.flush();
  EXPECT_FALSE(physics.physics().has_body(a));
  world.remove<Body>(b);
  world.flush();
  physics.update(0);
  EXPECT_FALSE(physics.physics().has_body(b));
  EXPECT_FALSE(physics.add(a, ball({})));  // dead entity
}

TEST(PhysicsWorld, ContactsBecomeWorldEventsAtTheFlush) {
  World world;
  PhysicsSystem physics(world, {}, filters());
  const Entity a = world.create();
  const Entity b = world.create();
  ASSERT_TRUE(physics.add(a, ball({0, 0}, {30, 0})));
  ASSERT_TRUE(physics.add(b, ball({20, 0}, {-30, 0})));
  std::vector<ContactEvent> seen;
  world.on<ContactEvent>([&](World& w, const ContactEvent& c) {
    seen.push_back(c);
    if (c.phase == ContactPhase::kBegin) w.kill(c.b);  // game code, outside Box2D
  });
  for (int i = 0; i < 30 && seen.empty(); ++i) {
    physics.update(1.0 / 60 + 1e-9);
    EXPECT_TRUE(seen.empty());  // nothing before the flush
    world.flush();
  }
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0].phase, ContactPhase::kBegin);
  EXPECT_FALSE(world.alive(b));
  EXPECT_FALSE(physics.physics().has_body(b));
  EXPECT_EQ(physics.physics().body_count(), 1u);
}

}  // namespace
}  // namespace keel::world
