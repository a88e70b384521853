// Bad caller input at the World's entry points: null, stale and foreign entities and handles,
// removing what is not there, calls in the wrong order. Nothing crashes; create<C> asserts (in
// debug builds) with a message naming the mistake.
#include "keel/core/testing/assert_recorder.h"
#include "keel/world/world.h"

#include <gtest/gtest.h>

namespace keel::world {
namespace {

struct Health {
  int hp = 10;
};

TEST(EntryPoints, WorldEntitiesRefuseNullStaleAndForeignIds) {
  World world;
  World other;
  const Entity mine = world.create();
  const Entity theirs = other.create();
  const Entity stale = world.create();
  world.kill(stale);
  world.flush();
  for (const Entity e : {Entity{}, theirs, stale, Entity{12345, 0x301}}) {
    EXPECT_FALSE(world.alive(e));
    EXPECT_FALSE(world.kill(e));
    EXPECT_FALSE(world.dying(e));
    EXPECT_EQ(world.props(e), nullptr);
    EXPECT_EQ(world.find_props(e), nullptr);
  }
  EXPECT_EQ(world.status(Entity{}), HandleStatus::kNull);
  EXPECT_EQ(world.status(stale), HandleStatus::kStale);
  EXPECT_EQ(world.status(mine), HandleStatus::kAlive);
  if ((theirs.generation & 0xFFu) != (mine.generation & 0xFFu)) {
    EXPECT_EQ(world.status(theirs), HandleStatus::kForeign);
  }
  EXPECT_TRUE(world.kill(mine));
  EXPECT_TRUE(world.kill(mine)) << "twice before the flush is harmless";
  int kills = 0;
  world.on_kill([&](World&, Entity) { ++kills; });
  world.flush();
  EXPECT_EQ(kills, 1);
}

TEST(EntryPoints, WorldComponentsOfBadEntities) {
  World world;
  World other;
  const Entity theirs = other.create();
  other.create<Health>(theirs);
  keel::testing::AssertRecorder asserts;
  EXPECT_EQ(world.create<Health>(Entity{}, 5), nullptr);
  asserts.expect_asserted("null");
  EXPECT_EQ(world.create<Health>(theirs, 5), nullptr);
  asserts.expect_assert_count(2, "World::create<C>");
  EXPECT_EQ(world.get<Health>(theirs), nullptr) << "the foreign id never reaches our slot 0";
  const Entity mine = world.create();
  world.create<Health>(mine, 3);
  EXPECT_EQ(world.get<Health>(theirs), nullptr);
  EXPECT_FALSE(world.remove<Health>(theirs));
  EXPECT_FALSE(world.done<Health>(Entity{}));
  EXPECT_TRUE(world.alive(world.handle<Health>(mine)));
  EXPECT_FALSE(world.alive(other.handle<Health>(theirs)))
      << "a handle of another world (same slot, other salt)";
}

TEST(EntryPoints, WorldRemoveMissingIsANoOp) {
  World world;
  const Entity e = world.create();
  EXPECT_FALSE(world.remove<Health>(e)) << "no store yet";
  world.create<Health>(world.create());
  EXPECT_FALSE(world.remove<Health>(e)) << "store, but not this entity";
  EXPECT_FALSE(world.has<Health>(e));
  EXPECT_EQ(world.get(ComponentHandle<Health>{}), nullptr);
  EXPECT_FALSE(world.alive(ComponentHandle<Health>{}));
  EXPECT_FALSE(world.unsubscribe(ListenerId{}));
  EXPECT_FALSE(world.unsubscribe(ListenerId{999}));
  world.flush();
  world.flush();  // nothing pending: fine
  EXPECT_TRUE(world.alive(e));
}

TEST(EntryPoints, WorldRemoveThenKillInOneFrame) {
  World world;
  const Entity e = world.create();
  world.create<Health>(e);
  EXPECT_TRUE(world.remove<Health>(e));
  EXPECT_TRUE(world.remove<Health>(e)) << "still there until the flush";
  EXPECT_TRUE(world.done<Health>(e));
  world.kill(e);
  world.flush();
  EXPECT_FALSE(world.alive(e));
  EXPECT_EQ(world.store<Health>().size(), 0u);
}

TEST(EntryPoints, WorldFlushFromAListenerIsRefused) {
  World world;
  struct Go {};
  world.on<Go>([](World& w, const Go&) {
    keel::testing::AssertRecorder asserts;
    w.flush();
    asserts.expect_asserted("inside a flush");
  });
  world.emit(Go{});
  world.flush();
}

}  // namespace
}  // namespace keel::world
