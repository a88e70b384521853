// The sparse view's two walks per block (view.h): blocks whose entities sit in the same order in
// every store are walked as parallel arrays, the others entity by entity. Each test builds stores
// whose orders agree, disagree or agree in part, and checks exactly which entities each() visits,
// in which order (the driver's dense order), and that every call got that entity's components.
#include "keel/world/testing/test_components.h"
#include "keel/world/world.h"

#include <gtest/gtest.h>

#include <numeric>
#include <vector>

namespace keel::world {
namespace {

using fixtures::Position;
using fixtures::Velocity;
struct Drag {
  f32 factor = 1;
};
struct Marker {
  u32 value = 0;
};

using PV = View<Position, Velocity>;
constexpr u32 kBlock = PV::kBlock;

// Distinct starting values per entity slot, so a component paired with the wrong entity shows.
Position start_position(u32 index) { return {f32(index), -f32(index)}; }
Velocity velocity_of(u32 index) { return {1000.f + f32(index), 2.f * f32(index)}; }

void add_position(World& world, Entity e) { world.create<Position>(e, start_position(e.index)); }
void add_velocity(World& world, Entity e) { world.create<Velocity>(e, velocity_of(e.index)); }

// What view<Position, Velocity>().each must visit: the driver's entities (the smaller store, the
// first type on a tie) that have the other type, in the driver's dense order.
std::vector<Entity> expected_visits(World& world) {
  const auto& ps = world.store<Position>();
  const auto& vs = world.store<Velocity>();
  const bool position_drives = ps.size() <= vs.size();
  std::vector<Entity> out;
  for (const Entity e : position_drives ? ps.entities() : vs.entities()) {
    if (position_drives ? vs.contains(e) : ps.contains(e)) out.push_back(e);
  }
  return out;
}

// Runs position += velocity through each() (with the Entity), checks the visits and every
// written value, and returns how many entities were visited.
usize step_and_check(World& world, std::span<const Entity> all) {
  const std::vector<Entity> expected = expected_visits(world);
  std::vector<Entity> seen;
  world.view<Position, Velocity>().each([&](Entity e, Position& p, const Velocity& v) {
    EXPECT_EQ(world.get<Position>(e), &p) << "entity " << e.index;
    EXPECT_EQ(world.get<Velocity>(e), &v) << "entity " << e.index;
    p.x += v.x;
    p.y += v.y;
    seen.push_back(e);
  });
  EXPECT_EQ(seen, expected);
  for (const Entity e : all) {
    if (!world.alive(e) || !world.has<Position>(e)) continue;
    const Position p = *world.get<Position>(e);
    Position want = start_position(e.index);
    if (world.has<Velocity>(e)) {
      want.x += velocity_of(e.index).x;
      want.y += velocity_of(e.index).y;
    }
    EXPECT_EQ(p.x, want.x) << "entity " << e.index;
    EXPECT_EQ(p.y, want.y) << "entity " << e.index;
    world.get<Position>(e)->x = start_position(e.index).x;  // back, for the next check
    world.get<Position>(e)->y = start_position(e.index).y;
  }
  return seen.size();
}

std::vector<Entity> make_entities(World& world, u32 count) {
  std::vector<Entity> es;
  for (u32 i = 0; i < count; ++i) es.push_back(world.create());
  return es;
}

TEST(ViewOrder, SameOrderInEveryStore) {
  World world;
  const auto es = make_entities(world, 3 * kBlock + 7);  // full blocks and a short last one
  for (const Entity e : es) {
    add_position(world, e);
    add_velocity(world, e);
  }
  EXPECT_EQ(step_and_check(world, es), es.size());
  // The forms without the Entity and with const components see the same entities.
  usize calls = 0;
  world.view<Position, Velocity>().each([&](Position& p, const Velocity& v) {
    p.x += v.x;
    ++calls;
  });
  EXPECT_EQ(calls, es.size());
  for (const Entity e : es) {
    EXPECT_EQ(world.get<Position>(e)->x, start_position(e.index).x + velocity_of(e.index).x);
  }
  // A single-type view is one run: every entity, in store order.
  std::vector<Entity> single;
  world.view<Velocity>().each([&](Entity e, Velocity&) { single.push_back(e); });
  EXPECT_EQ(single, std::vector<Entity>(es.begin(), es.end()));
}

TEST(ViewOrder, ShuffledOrder) {
  World world;
  const u32 n = 2 * kBlock + 31;
  const auto es = make_entities(world, n);
  for (const Entity e : es) add_position(world, e);
  for (u32 i = 0; i < n; ++i) add_velocity(world, es[(i * 97 + 13) % n]);  // 97 is prime to n
  ASSERT_EQ(world.store<Velocity>().size(), n);
  EXPECT_EQ(step_and_check(world, es), n);
}

TEST(ViewOrder, ReversedOrder) {
  World world;
  const auto es = make_entities(world, kBlock + 1);
  for (const Entity e : es) add_position(world, e);
  for (usize i = es.size(); i-- > 0;) add_velocity(world, es[i]);
  EXPECT_EQ(step_and_check(world, es), es.size());
}

TEST(ViewOrder, HolesInEitherStore) {
  World world;
  const u32 n = 4 * kBlock;
  const auto es = make_entities(world, n);
  for (u32 i = 0; i < n; ++i) {
    if (i % 37 != 5) add_position(world, es[i]);
    if (i % 53 != 0) add_velocity(world, es[i]);
  }
  usize want = 0;
  for (u32 i = 0; i < n; ++i) want += i % 37 != 5 && i % 53 != 0 ? 1 : 0;
  EXPECT_EQ(step_and_check(world, es), want);
}

// The other store holds extra entities before the shared ones: the same order at a constant
// offset, and after it entities the driver lacks.
TEST(ViewOrder, SameOrderAtAnOffset) {
  World world;
  const auto extra = make_entities(world, kBlock / 2 + 3);
  const auto shared = make_entities(world, 2 * kBlock + 9);
  for (const Entity e : extra) add_velocity(world, e);
  for (const Entity e : shared) {
    add_position(world, e);
    add_velocity(world, e);
  }
  for (const Entity e : extra) add_position(world, e);  // at the end of the Position store
  std::vector<Entity> all = extra;
  all.insert(all.end(), shared.begin(), shared.end());
  EXPECT_EQ(step_and_check(world, all), all.size());
}

// The stores agree up to a block boundary and disagree after it, or the other way round.
TEST(ViewOrder, OrderChangesAtABlockBoundary) {
  for (const bool agree_first : {true, false}) {
    SCOPED_TRACE(agree_first ? "agree, then not" : "disagree, then agree");
    World world;
    const auto es = make_entities(world, 3 * kBlock);
    for (const Entity e : es) add_position(world, e);
    std::vector<u32> order(es.size());
    std::iota(order.begin(), order.end(), 0u);
    // Swap pairs inside one block: the second or the first.
    const u32 mixed = agree_first ? kBlock : 0;
    for (u32 i = mixed; i + 1 < mixed + kBlock; i += 2) std::swap(order[i], order[i + 1]);
    for (const u32 i : order) add_velocity(world, es[i]);
    EXPECT_EQ(step_and_check(world, es), es.size());
  }
  // One entity out of place, last of a block and first of the next.
  for (const u32 at : {kBlock - 1, kBlock}) {
    World world;
    const auto es = make_entities(world, 2 * kBlock + 1);
    for (const Entity e : es) add_position(world, e);
    for (u32 i = 0; i < es.size(); ++i) {
      if (i != at) add_velocity(world, es[i]);
    }
    add_velocity(world, es[at]);
    EXPECT_EQ(step_and_check(world, es), es.size()) << "moved: " << at;
  }
}

TEST(ViewOrder, KillsInsideARun) {
  for (const u32 kills : {3u, 300u}) {  // swap-removes, then the one-pass compaction
    SCOPED_TRACE(kills);
    World world;
    const auto es = make_entities(world, 4 * kBlock);
    for (const Entity e : es) {
      add_position(world, e);
      add_velocity(world, e);
    }
    for (u32 k = 0; k < kills; ++k) world.kill(es[(k * 5 + kBlock / 2) % es.size()]);
    // Killed but not flushed: still alive, still visited.
    EXPECT_EQ(step_and_check(world, es), es.size());
    world.flush();
    EXPECT_EQ(world.size(), es.size() - kills);
    EXPECT_EQ(step_and_check(world, es), es.size() - kills);
    // New entities reuse the slots; both stores get them in the same order again.
    std::vector<Entity> all = es;
    for (u32 k = 0; k < kills; ++k) {
      const Entity e = world.create();
      add_position(world, e);
      add_velocity(world, e);
      all.push_back(e);
    }
    EXPECT_EQ(step_and_check(world, all), es.size());
  }
}

// Entities made one after the other with their components in that order: each store's run
// (StoreBase::run_) proves the blocks with no read. A removal and re-add ends one store's run at
// the place that moved; a group's swap ends it at the front; the walk must still pair exactly.
TEST(ViewOrder, RunsEndWhereComponentsMove) {
  World world;
  const auto es = make_entities(world, 3 * kBlock + 5);
  for (const Entity e : es) {
    add_position(world, e);
    add_velocity(world, e);
  }
  EXPECT_EQ(step_and_check(world, es), es.size());
  world.remove<Velocity>(es[kBlock + 3]);  // the last Velocity swaps into its place
  world.flush();
  EXPECT_EQ(step_and_check(world, es), es.size() - 1);
  add_velocity(world, es[kBlock + 3]);  // back, at the end
  EXPECT_EQ(step_and_check(world, es), es.size());
  world.remove<Position>(es[2 * kBlock]);
  world.flush();
  add_position(world, es[2 * kBlock]);
  EXPECT_EQ(step_and_check(world, es), es.size());
  // A group owning Position with a type only some entities have: they swap to the front.
  ASSERT_TRUE((world.group<Position, Marker>()));
  for (u32 i = 0; i < es.size(); i += 41) world.create<Marker>(es[i]);
  EXPECT_EQ(step_and_check(world, es), es.size());
}

// Runs and lookups in one walk, with a third type: the smallest store drives.
TEST(ViewOrder, MixedWithAThirdType) {
  World world;
  const u32 n = 5 * kBlock + 17;
  const auto es = make_entities(world, n);
  for (const Entity e : es) add_position(world, e);
  for (u32 i = 0; i < n; ++i) {
    // The second block shuffled, the rest in order; a hole in the fourth.
    const u32 j = i / kBlock == 1 ? kBlock + (i * 7) % kBlock : i;
    if (j != 3 * kBlock + 11) add_velocity(world, es[j]);
  }
  for (u32 i = 0; i < n; ++i) {
    if (i < 2 * kBlock || i % 3 == 0) world.create<Drag>(es[i], f32(i));
  }
  EXPECT_EQ(step_and_check(world, es), n - 1);

  std::vector<Entity> seen;
  world.view<Position, Velocity, Drag>().each([&](Entity e, Position& p, Velocity& v, Drag& d) {
    EXPECT_EQ(world.get<Position>(e), &p);
    EXPECT_EQ(world.get<Velocity>(e), &v);
    EXPECT_EQ(world.get<Drag>(e), &d);
    EXPECT_EQ(d.factor, f32(e.index));
    seen.push_back(e);
  });
  std::vector<Entity> want;
  for (const Entity e : world.store<Drag>().entities()) {
    if (world.has<Position>(e) && world.has<Velocity>(e)) want.push_back(e);
  }
  EXPECT_EQ(seen, want);
}

// A function that adds a component of a grouped type swaps components inside a store the walk
// is reading as a run (no array moves): the walk must notice and look the rest up.
TEST(ViewOrder, GroupSwapsDuringARun) {
  World world;
  ASSERT_TRUE((world.group<Velocity, Marker>()));  // owns Velocity, so the view is sparse
  const auto es = make_entities(world, 2 * kBlock);
  for (const Entity e : es) {
    add_position(world, e);
    add_velocity(world, e);
  }
  std::vector<Entity> seen;
  world.view<Position, Velocity>().each([&](Entity e, Position& p, Velocity& v) {
    ASSERT_EQ(world.get<Position>(e), &p) << "entity " << e.index;
    ASSERT_EQ(world.get<Velocity>(e), &v) << "entity " << e.index;
    EXPECT_EQ(v.x, velocity_of(e.index).x);
    seen.push_back(e);
    // Every 10th visit: an entity ahead joins the group, its Velocity swaps to the front.
    if (seen.size() % 10 == 0 && seen.size() + 5 < es.size()) {
      world.create<Marker>(es[seen.size() + 5]);
    }
  });
  // Position drives and does not move: every entity once, in creation order.
  EXPECT_EQ(seen, std::vector<Entity>(es.begin(), es.end()));
}

}  // namespace
}  // namespace keel::world
