#include "keel/core/testing/alloc_counter.h"
#include "keel/core/testing/assert_recorder.h"
#include "keel/world/testing/test_components.h"
#include "keel/world/world.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

namespace keel::world {
namespace {

using fixtures::deref;
using fixtures::Position;
using fixtures::Velocity;
struct Rare {
  int id = 0;
};

std::vector<u32> visited(World& world) {
  std::vector<u32> out;
  for (auto [e, p, v] : world.view<Position, Velocity>()) {
    EXPECT_EQ(world.get<Position>(e), &p);
    EXPECT_EQ(world.get<Velocity>(e), &v);
    out.push_back(e.index);
  }
  std::ranges::sort(out);
  return out;
}

class Views : public ::testing::TestWithParam<bool> {};  // grouped or not

TEST_P(Views, SkipDeadAndMissing) {
  World world;
  if (GetParam()) {
    ASSERT_TRUE((world.group<Position, Velocity>()));
  }
  std::vector<Entity> es;
  for (u32 i = 0; i < 10; ++i) {
    es.push_back(world.create());
    world.create<Position>(es[i], f32(i), 0.f);
    if (i % 2 == 0) world.create<Velocity>(es[i], 1.f, 0.f);
  }
  EXPECT_EQ(visited(world), (std::vector<u32>{0, 2, 4, 6, 8}));
  world.kill(es[4]);
  world.remove<Velocity>(es[6]);
  world.create<Velocity>(es[3]);
  world.flush();
  EXPECT_EQ(visited(world), (std::vector<u32>{0, 2, 3, 8}));
  world.view<Position, Velocity>().each([](Position& p, const Velocity& v) { p.x += v.x; });
  EXPECT_EQ(deref(world.get<Position>(es[8])).x, 9.f);
  EXPECT_EQ(deref(world.get<Position>(es[1])).x, 1.f) << "not in the view: untouched";
  EXPECT_EQ((world.view<Position, Velocity>().size()), 4u);
  EXPECT_EQ(world.view<Position>().size(), 9u);
}

TEST_P(Views, ThirdSparseComponent) {
  World world;
  if (GetParam()) world.group<Position, Velocity>();
  for (u32 i = 0; i < 100; ++i) {
    const Entity e = world.create();
    world.create<Position>(e);
    world.create<Velocity>(e);
    if (i % 10 == 0) world.create<Rare>(e, int(i));
  }
  int sum = 0;
  world.view<Position, Velocity, Rare>().each(
      [&](Entity, Position&, Velocity&, Rare& r) { sum += r.id; });
  EXPECT_EQ(sum, 450);
}

TEST_P(Views, NoAllocationPerFrameInSteadyState) {
  World world;
  if (GetParam()) world.group<Position, Velocity>();
  std::vector<Entity> es;
  for (u32 i = 0; i < 64; ++i) {
    es.push_back(world.create());
    world.create<Position>(es[i]);
    world.create<Velocity>(es[i], 1.f, 1.f);
  }
  const auto frame = [&](u32 n) {
    for (auto [e, p, v] : world.view<Position, Velocity>()) p.x += v.x;
    world.view<Position, Velocity>().each([](Position& p, Velocity& v) { p.y += v.y; });
    // churn: one entity ends and one is made per frame, with its components
    world.kill(es[n % es.size()]);
    world.flush();
    es[n % es.size()] = world.create();
    world.create<Position>(es[n % es.size()]);
    world.create<Velocity>(es[n % es.size()]);
  };
  for (u32 n = 0; n < 8; ++n) frame(n);  // warm up: vectors reach their size
  testing::AllocationScope scope;
  for (u32 n = 8; n < 72; ++n) frame(n);
  EXPECT_EQ(scope.count(), 0u) << scope.counts();
}

TEST_P(Views, CreatingDuringAWalkIsSafe) {
  World world;
  if (GetParam()) world.group<Position, Velocity>();
  for (u32 i = 0; i < 4; ++i) {
    const Entity e = world.create();
    world.create<Position>(e);
    world.create<Velocity>(e);
  }
  usize visits = 0;
  // Every visit adds entities with both types (the stores grow and move): the walk re-reads its
  // arrays and visits only the entities that were there when it started (ASan checks it).
  for (auto [e, p, v] : world.view<Position, Velocity>()) {
    (void)p;
    (void)v;
    for (u32 k = 0; k < 50; ++k) {
      const Entity n = world.create();
      world.create<Position>(n);
      world.create<Velocity>(n);
    }
    ++visits;
  }
  world.view<Position, Velocity>().each([&](Entity, Position& p, Velocity&) {
    p.x += 1;  // before the growth: afterwards this reference is stale (view.h)
    const Entity n = world.create();
    world.create<Velocity>(n);
    world.create<Position>(n);
    ++visits;
  });
  EXPECT_EQ(visits, 4u + 204u);
}

INSTANTIATE_TEST_SUITE_P(World, Views, ::testing::Values(false, true), [](const auto& param_info) {
  return param_info.param ? "Grouped" : "Sparse";
});

TEST(Groups, KeepMembersFirstThroughChurn) {
  World world;
  std::vector<Entity> es;
  for (u32 i = 0; i < 50; ++i) {
    es.push_back(world.create());
    world.create<Position>(es[i], f32(i), 0.f);
    if (i % 3 != 0) world.create<Velocity>(es[i], f32(i), 0.f);
  }
  ASSERT_TRUE((world.group<Position, Velocity>())) << "a group made after the components";
  EXPECT_TRUE((world.group<Position, Velocity>())) << "the same group again";
  const auto check = [&] {
    const Group* g = world.store<Position>().group();
    ASSERT_NE(g, nullptr);
    const auto pe = world.store<Position>().entities();
    const auto ve = world.store<Velocity>().entities();
    for (u32 i = 0; i < g->size; ++i) {
      ASSERT_EQ(pe[i], ve[i]);
      ASSERT_EQ(deref(world.get<Position>(pe[i])).x, deref(world.get<Velocity>(pe[i])).x);
    }
    usize both = 0;
    for (const Entity e : es)
      both += world.alive(e) && world.has<Position>(e) && world.has<Velocity>(e);
    EXPECT_EQ(g->size, both);
  };
  check();
  for (u32 i = 0; i < 50; i += 4) world.kill(es[i]);
  for (u32 i = 1; i < 50; i += 5) world.remove<Velocity>(es[i]);
  world.flush();
  check();
  for (u32 i = 0; i < 50; i += 3) {
    if (world.alive(es[i])) world.create<Velocity>(es[i], f32(i), 0.f);
  }
  check();
}

TEST(Groups, AStoreBelongsToOneGroup) {
  World world;
  ASSERT_TRUE((world.group<Position, Velocity>()));
  keel::testing::AssertRecorder asserts;
  EXPECT_FALSE((world.group<Position, Rare>()));
  asserts.expect_asserted("another group");
}

}  // namespace
}  // namespace keel::world
