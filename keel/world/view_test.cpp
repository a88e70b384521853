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
  // arrays and visits only the entities that were there when it started (ASan checks it). The
  // walks keep copies of the arrays' addresses; each visit must hand out the current places.
  for (auto [e, p, v] : world.view<Position, Velocity>()) {
    EXPECT_EQ(world.get<Position>(e), &p);
    EXPECT_EQ(world.get<Velocity>(e), &v);
    for (u32 k = 0; k < 50; ++k) {
      const Entity n = world.create();
      world.create<Position>(n);
      world.create<Velocity>(n);
    }
    ++visits;
  }
  world.view<Position, Velocity>().each([&](Entity e, Position& p, Velocity& v) {
    EXPECT_EQ(world.get<Position>(e), &p);
    EXPECT_EQ(world.get<Velocity>(e), &v);
    p.x += 1;  // before the growth: afterwards this reference is stale (view.h)
    const Entity n = world.create();
    world.create<Velocity>(n);
    world.create<Position>(n);
    ++visits;
  });
  EXPECT_EQ(visits, 4u + 204u);
}

// Killing many entities at once (a quarter of the live ones or more) compacts every store in one
// pass; a few kills swap-remove one by one. Both keep the survivors' components, handles, group
// order and views exact.
TEST_P(Views, ManyAndFewKillsKeepTheSurvivors) {
  World world;
  if (GetParam()) {
    ASSERT_TRUE((world.group<Position, Velocity>()));
  }
  constexpr u32 kCount = 100;
  std::vector<Entity> es;
  std::vector<ComponentHandle<Position>> handles;
  for (u32 i = 0; i < kCount; ++i) {
    es.push_back(world.create());
    world.create<Position>(es[i], f32(i), 0.f);
    if (i % 3 != 0) world.create<Velocity>(es[i], f32(i), 1.f);
    if (i % 5 == 0) world.create<Rare>(es[i], int(i));
    handles.push_back(world.handle<Position>(es[i]));
  }
  const auto check = [&](const char* when) {
    SCOPED_TRACE(when);
    std::vector<u32> expected;
    for (u32 i = 0; i < kCount; ++i) {
      if (!world.alive(es[i])) {
        EXPECT_EQ(world.get(handles[i]), nullptr);
        EXPECT_EQ(world.get<Position>(es[i]), nullptr);
        continue;
      }
      EXPECT_EQ(deref(world.get(handles[i])).x, f32(i)) << "a survivor's handle still works";
      EXPECT_EQ(world.has<Velocity>(es[i]), i % 3 != 0);
      EXPECT_EQ(deref(world.get<Velocity>(es[i])).x, i % 3 != 0 ? f32(i) : 0.f);
      EXPECT_EQ(deref(world.get<Rare>(es[i])).id, i % 5 == 0 ? int(i) : 0);
      if (i % 3 != 0) expected.push_back(es[i].index);
    }
    EXPECT_EQ(visited(world), expected);
    usize each_count = 0;
    world.view<Position, Velocity>().each([&](Entity e, Position& p, Velocity& v) {
      EXPECT_EQ(p.x, v.x);
      EXPECT_EQ(p.x, f32(e.index));
      ++each_count;
    });
    EXPECT_EQ(each_count, expected.size());
    // Rare drives this walk (the smallest store): its entity indices must follow its removals.
    usize rare_count = 0;
    world.view<Position, Rare>().each([&](Entity e, Position& p, Rare& r) {
      EXPECT_EQ(p.x, f32(e.index));
      EXPECT_EQ(r.id, int(e.index));
      ++rare_count;
    });
    EXPECT_EQ(rare_count, usize(std::ranges::count_if(
                              es, [&](Entity e) { return world.alive(e) && e.index % 5 == 0; })));
    if (const Group* g = world.store<Position>().group()) {
      EXPECT_EQ(g->size, expected.size());
      const auto pe = world.store<Position>().entities();
      const auto ve = world.store<Velocity>().entities();
      for (u32 i = 0; i < g->size; ++i) ASSERT_EQ(pe[i], ve[i]);
    }
  };
  for (u32 i = 0; i < kCount; i += 2) {  // half: the one-pass compaction
    ASSERT_NE(world.props(es[i]), nullptr);
    world.kill(es[i]);
  }
  world.remove<Velocity>(es[1]);  // a removal in the same flush, before the kills
  world.flush();
  EXPECT_EQ(world.size(), kCount / 2);
  world.create<Velocity>(es[1], 1.f, 1.f);
  check("after 50 kills");
  ASSERT_NE(world.props(es[25]), nullptr);
  world.kill(es[7]);  // a few: one by one
  world.kill(es[25]);
  world.flush();
  check("after 2 more kills");
  EXPECT_EQ(world.size(), kCount / 2 - 2);
  for (u32 k = 0; k < 3; ++k) {  // slots 25, 7, then 98: nothing of the old entities shows
    const Entity fresh = world.create();
    EXPECT_FALSE(world.has<Position>(fresh));
    EXPECT_FALSE(world.has<Velocity>(fresh));
    EXPECT_FALSE(world.has<Rare>(fresh));
    EXPECT_EQ(world.find_props(fresh), nullptr);
  }
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
