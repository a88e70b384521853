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

#include "keel/core/testing/alloc_counter.h"
#include "keel/save/save_file.h"
#include "keel/save/system.h"
#include "keel/world/physics_state.h"

namespace keel::world {
namespace {

constexpr f64 kStep = 1.0f / 60;  // exactly PhysicsConfig's default fixed_dt

struct Game {
  World world;
  PhysicsSystem physics{world, {}, filters()};
  Game() {
    // Game code on contacts: whoever is hit second (b) in a begin dies, unless it is a wall.
    world.on<ContactEvent>([](World& w, const ContactEvent& c) {
      if (c.phase == ContactPhase::kBegin && c.b.index % 5 == 0) w.kill(c.b);
    });
  }
  void populate() {
    for (u32 i = 0; i < 30; ++i) {
      const Entity e = world.create();
      const f32 x = static_cast<f32>(i % 6) * 14 - 35;
      const f32 y = static_cast<f32>(i / 6) * 14 - 28;
      (void)physics.add(e, ball({x, y}, {-x * 2 + y, -y * 2 - x}));
    }
  }
  void frame() {
    physics.update(kStep);
    world.flush();
  }
  u64 hash() const { return world.state_hash() ^ (physics.physics().state_hash() * 31); }
};

const save::SaveSystem& world_saves() {
  static const save::SaveSystem system({save::type<PhysicsState>()});
  return system;
}

TEST(PhysicsWorld, SavedWithItsWorldMidFightContinuesToTheSameHash) {
  Game saved;
  saved.populate();
  for (int i = 0; i < 60; ++i) saved.frame();
  save::SaveFile out(world_saves());
  Status st = out.begin_save("");
  if (st) st = saved.world.save(out);
  std::unique_ptr<PhysicsState> state = saved.physics.physics().save_state();
  out.declare_object(state.get());
  if (st) st = out.process_objects();
  ASSERT_TRUE(out.end(st));
  const usize alive_at_save = saved.world.size();
  for (int i = 0; i < 120; ++i) saved.frame();

  Game restored;
  save::SaveFile in(world_saves());
  st = in.begin_load_bytes(out.bytes());
  if (st) st = restored.world.load(in);
  if (st) st = in.process_objects();
  ASSERT_TRUE(in.end(st));
  EXPECT_EQ(restored.world.size(), alive_at_save);
  for (auto& object : in.take_objects()) {
    if (auto* s = dynamic_cast<PhysicsState*>(object.get())) {
      ASSERT_TRUE(restored.physics.physics().restore(*s));
    }
  }
  EXPECT_EQ(restored.physics.physics().body_count(), state->bodies.size());
  for (int i = 0; i < 120; ++i) restored.frame();
  EXPECT_EQ(restored.hash(), saved.hash());
  EXPECT_LT(saved.world.size(), 30u);  // the fight killed some
}

TEST(PhysicsWorld, SteadyFramesAllocateNothing) {
  Game game;
  game.populate();
  for (u32 i = 0; i < 30; ++i) {
    SteeringCommand c;
    c.desired_velocity = {static_cast<f32>(i % 7) * 5 - 15, static_cast<f32>(i % 3) * 5 - 5};
    c.limits.max_force = 2000;
    c.limits.max_torque = 2000;
    game.physics.physics().steer(game.world.store<Body>().entities()[i], c);
  }
  for (int i = 0; i < 240; ++i) game.frame();  // the fight settles; buffers have grown
  keel::testing::AllocationScope scope;
  for (int i = 0; i < 60; ++i) game.frame();
  EXPECT_EQ(scope.count(), 0u) << scope.counts();
}

}  // namespace
}  // namespace keel::world
