#include "keel/world/components.h"
#include "keel/world/systems.h"
#include "keel/world/transform.h"
#include "keel/world/world.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace keel::world {
namespace {

struct Ping {
  int n = 0;
};
struct Pong {
  int n = 0;
};
struct Fuse {
  int id = 0;
};

// The order of a flush, as world.h documents it: events (emission order, follow-ups after),
// then done signals, then kills, repeated while listeners add more; ends last, all at once.
TEST(Events, FlushDeliversInTheDocumentedOrder) {
  World world;
  std::vector<std::string> log;
  const Entity a = world.create();
  const Entity b = world.create();
  world.create<Fuse>(a, 1);
  world.on<Ping>([&](World& w, const Ping& p) {
    log.push_back("ping" + std::to_string(p.n));
    if (p.n == 1) w.emit(Pong{10});  // a follow-up: after the events already queued
  });
  world.on<Pong>([&](World&, const Pong& p) { log.push_back("pong" + std::to_string(p.n)); });
  world.on_done<Fuse>([&](World& w, Entity e, Fuse& f) {
    log.push_back("done" + std::to_string(f.id));
    EXPECT_TRUE(w.has<Fuse>(e)) << "the component is still there";
    w.emit(Ping{3});  // delivered in the next round of the same flush
  });
  world.on_kill([&](World& w, Entity e) {
    log.push_back(e == a ? "kill a" : "kill b");
    EXPECT_TRUE(w.alive(e)) << "the entity is still there";
    EXPECT_EQ(w.has<Fuse>(e), e == a);
  });
  world.kill(b);
  world.done<Fuse>(a);
  world.emit(Ping{1});
  world.emit(Pong{2});
  world.kill(a);
  world.emit(Ping{2});
  EXPECT_TRUE(log.empty()) << "nothing is delivered before the flush";
  world.flush();
  const std::vector<std::string> expected = {"ping1", "pong2",  "ping2",  "pong10",
                                             "done1", "kill b", "kill a", "ping3"};
  EXPECT_EQ(log, expected);
  EXPECT_FALSE(world.alive(a));
  EXPECT_FALSE(world.alive(b));
  log.clear();
  world.flush();
  EXPECT_TRUE(log.empty()) << "each event is delivered once";
}

TEST(Events, ListenersRunInSubscriptionOrderAndCanUnsubscribe) {
  World world;
  std::vector<int> calls;
  ListenerId second;
  world.on<Ping>([&](World& w, const Ping&) {
    calls.push_back(1);
    w.unsubscribe(second);  // the next listener of this very event is skipped
  });
  second = world.on<Ping>([&](World&, const Ping&) { calls.push_back(2); });
  world.on<Ping>([&](World&, const Ping&) { calls.push_back(3); });
  world.emit(Ping{});
  world.flush();
  EXPECT_EQ(calls, (std::vector<int>{1, 3}));
  EXPECT_FALSE(world.unsubscribe(second)) << "already gone";
}

TEST(Events, KillsFromOnKillEndInTheSameFlush) {
  World world;
  const Entity parent = world.create();
  const Entity child = world.create();
  world.on_kill([&](World& w, Entity e) {
    if (e == parent) w.kill(child);
  });
  world.kill(parent);
  world.flush();
  EXPECT_FALSE(world.alive(parent));
  EXPECT_FALSE(world.alive(child));
}

TEST(Events, LifetimeSignalsDoneThenKills) {
  World world;
  const Entity spark = world.create();
  world.create<Lifetime>(spark, Lifetime{.remaining = 0.25f});
  int done = 0;
  int killed = 0;
  world.on_done<Lifetime>([&](World&, Entity, Lifetime&) { ++done; });
  world.on_kill([&](World&, Entity) {
    EXPECT_EQ(done, 1) << "on_done runs before on_kill";
    ++killed;
  });
  tick_lifetimes(world, 0.1f);
  world.flush();
  EXPECT_TRUE(world.alive(spark));
  tick_lifetimes(world, 0.1f);
  tick_lifetimes(world, 0.1f);
  tick_lifetimes(world, 0.1f);  // already signalled: not twice
  world.flush();
  EXPECT_EQ(done, 1);
  EXPECT_EQ(killed, 1);
  EXPECT_FALSE(world.alive(spark));
}

TEST(Events, GunShootPlaysTheAudioCue) {
  World world;
  connect_audio(world);
  std::vector<PlaySound> played;
  world.on<PlaySound>([&](World&, const PlaySound& s) { played.push_back(s); });
  const Entity ship = world.create();
  if (Transform* t = world.create<Transform>(ship)) t->position = {1, 2};
  Gun gun;
  gun.cooldown = 0.5f;
  gun.muzzle = {1, 0};
  gun.bullet_speed = 10;
  gun.trigger = true;
  world.create<Gun>(ship, gun);
  Audio audio;
  audio.add("shoot"_id, "laser"_id);
  world.create<Audio>(ship, audio);
  const Entity silent = world.create();  // a gun without audio: no sound
  world.create<Transform>(silent);
  if (Gun* g = world.create<Gun>(silent)) g->trigger = true;
  std::vector<Shoot> shots;
  world.on<Shoot>([&](World&, const Shoot& s) { shots.push_back(s); });
  tick_guns(world, 0.1f);
  world.flush();
  ASSERT_EQ(shots.size(), 2u);
  EXPECT_EQ(shots[0].shooter, ship);
  EXPECT_FLOAT_EQ(shots[0].position.x, 2.f);
  EXPECT_FLOAT_EQ(shots[0].velocity.x, 10.f);
  ASSERT_EQ(played.size(), 1u);
  EXPECT_EQ(played[0].source, ship);
  EXPECT_EQ(played[0].sound, "laser"_id);
  tick_guns(world, 0.1f);  // cooling down: no shot
  world.flush();
  EXPECT_EQ(shots.size(), 2u);
}

}  // namespace
}  // namespace keel::world
