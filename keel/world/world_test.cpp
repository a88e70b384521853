#include "keel/world/world.h"
#include "keel/world/testing/test_components.h"

#include "keel/core/testing/alloc_counter.h"
#include "keel/props/container.h"
#include "keel/world/components.h"
#include "keel/world/transform.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace keel::world {
namespace {

using fixtures::deref;
using fixtures::Position;
using fixtures::Velocity;
struct Tag {
  int value = 0;
};
// A game type keel/world has never heard of: movable only, with a constructor.
struct Named {
  explicit Named(std::string n) : name(std::move(n)) {}
  Named(Named&&) = default;
  Named& operator=(Named&&) = default;
  std::string name;
};

TEST(World, GenerationsMakeOldIdsDead) {
  World world;
  const Entity a = world.create();
  EXPECT_TRUE(world.alive(a));
  EXPECT_TRUE(world.kill(a));
  EXPECT_TRUE(world.alive(a)) << "a kill ends at the flush";
  EXPECT_TRUE(world.dying(a));
  world.flush();
  EXPECT_FALSE(world.alive(a));
  EXPECT_EQ(world.status(a), HandleStatus::kStale);
  const Entity b = world.create();
  EXPECT_EQ(b.index, a.index) << "the slot is reused";
  EXPECT_NE(b.generation, a.generation);
  EXPECT_FALSE(world.alive(a));
  EXPECT_TRUE(world.alive(b));
  EXPECT_EQ(world.size(), 1u);
}

TEST(World, CreateReachesTheManagerByType) {
  World world;
  const Entity e = world.create();
  Position* p = world.create<Position>(e, 1.f, 2.f);
  ASSERT_NE(p, nullptr);
  world.create<Velocity>(e, Velocity{3, 4});
  Named* n = world.create<Named>(e, "ship");
  ASSERT_NE(n, nullptr);
  EXPECT_EQ(world.get<Named>(e), n);
  EXPECT_EQ(n->name, "ship");
  EXPECT_EQ(deref(world.get<Position>(e)).y, 2.f);
  EXPECT_EQ(deref(world.get<Velocity>(e)).x, 3.f);
  EXPECT_EQ(world.get<Tag>(e), nullptr);
  EXPECT_EQ(&world.store<Position>(), &world.store<Position>());
  EXPECT_EQ(world.store<Position>().size(), 1u);
}

TEST(World, WeakHandlesDieWithTheirComponent) {
  World world;
  const Entity e = world.create();
  world.create<Tag>(e, 7);
  const ComponentHandle<Tag> h = world.handle<Tag>(e);
  ASSERT_TRUE(world.alive(h));
  EXPECT_EQ(deref(world.get(h)).value, 7);
  EXPECT_TRUE(world.remove<Tag>(e));
  EXPECT_TRUE(world.alive(h)) << "removal ends at the flush";
  world.flush();
  EXPECT_FALSE(world.alive(h));
  EXPECT_EQ(world.get(h), nullptr);
  world.create<Tag>(e, 8);
  EXPECT_FALSE(world.alive(h)) << "a new component is not the old one";
  EXPECT_TRUE(world.alive(world.handle<Tag>(e)));
}

TEST(World, WeakHandlesDieWithTheirEntity) {
  World world;
  const Entity e = world.create();
  world.create<Tag>(e, 1);
  const ComponentHandle<Tag> h = world.handle<Tag>(e);
  world.kill(e);
  world.flush();
  EXPECT_FALSE(world.alive(h));
  const Entity reuse = world.create();
  ASSERT_EQ(reuse.index, e.index);
  world.create<Tag>(reuse, 2);
  EXPECT_FALSE(world.alive(h)) << "never the entity that reuses the slot";
  EXPECT_EQ(world.get(h), nullptr);
}

TEST(World, ReplacingAComponentKillsItsHandles) {
  World world;
  const Entity e = world.create();
  world.create<Tag>(e, 1);
  const ComponentHandle<Tag> h = world.handle<Tag>(e);
  world.create<Tag>(e, 2);
  EXPECT_FALSE(world.alive(h));
  EXPECT_EQ(deref(world.get<Tag>(e)).value, 2);
  EXPECT_EQ(world.store<Tag>().size(), 1u);
}

TEST(World, PropertiesAreMadeLazily) {
  World world;
  const Entity e = world.create();
  EXPECT_EQ(world.find_props(e), nullptr);
  props::PropertyContainer* p = world.props(e);
  ASSERT_NE(p, nullptr);
  ASSERT_TRUE(p->req<int>("health", 100));
  EXPECT_EQ(world.find_props(e), p);
  world.kill(e);
  world.flush();
  EXPECT_EQ(world.props(e), nullptr);
  const Entity reuse = world.create();
  EXPECT_EQ(world.find_props(reuse), nullptr) << "a new entity starts with no properties";
}

TEST(World, KillRemovesEveryComponent) {
  World world;
  const Entity a = world.create();
  const Entity b = world.create();
  world.create<Position>(a);
  world.create<Velocity>(a);
  world.create<Position>(b, 5.f, 5.f);
  world.kill(a);
  world.flush();
  EXPECT_EQ(world.store<Position>().size(), 1u);
  EXPECT_EQ(world.store<Velocity>().size(), 0u);
  EXPECT_EQ(deref(world.get<Position>(b)).x, 5.f) << "the moved component keeps its entity";
}

TEST(World, ManyEntitiesKeepTheirComponents) {
  World world;
  std::vector<Entity> es;
  for (int i = 0; i < 1000; ++i) {
    es.push_back(world.create());
    world.create<Tag>(es.back(), i);
    if (i % 3 == 0) world.create<Position>(es.back(), f32(i), 0.f);
  }
  for (int i = 0; i < 1000; i += 2) world.kill(es[i]);
  world.flush();
  for (int i = 0; i < 1000; ++i) {
    if (i % 2 == 0) {
      EXPECT_FALSE(world.alive(es[i]));
    } else {
      ASSERT_NE(world.get<Tag>(es[i]), nullptr);
      EXPECT_EQ(deref(world.get<Tag>(es[i])).value, i);
      EXPECT_EQ(world.has<Position>(es[i]), i % 3 == 0);
    }
  }
}

}  // namespace
}  // namespace keel::world
