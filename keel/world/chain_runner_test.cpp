#include "keel/world/chain_runner.h"

#include "keel/world/transform.h"

#include <gtest/gtest.h>

namespace keel::world {
namespace {

struct Kind {
  StringId name;
};

ChainAction spawn_of(std::string name, u32 count) {
  ChainAction a;
  a.name = std::move(name);
  a.count = count;
  return a;
}

ChainAction call_of(std::string name) {
  ChainAction a;
  a.kind = ChainActionKind::kCall;
  a.name = std::move(name);
  return a;
}

ChainStep step(std::vector<ChainAction> start, ChainConditionKind kind, u32 count = 0) {
  ChainStep s;
  s.start = std::move(start);
  s.until.kind = kind;
  s.until.count = count;
  return s;
}

class Chains : public ::testing::Test {
 protected:
  Chains() {
    registry.add<Kind>("Kind", [](const Params& p) { return Kind{runtime_id(p.text("name"))}; });
    for (const char* name : {"A", "B", "boss"}) {
      Params p;
      p.set_text("name", name);
      EXPECT_TRUE(defs.add(EntityDef{.name = name, .components = {{.name = "Kind", .params = p}}}));
    }
    runner.on_call("boss_music", [this] { ++music; });
    runner.on_call("victory", [this] { ++victories; });
  }
  // Kills `n` live entities of the current step.
  void kill(u32 n) {
    for (const Entity e : runner.spawned()) {
      if (n == 0) break;
      if (world.alive(e) && !world.dying(e)) {
        world.kill(e);
        --n;
      }
    }
    world.flush();
  }
  u32 count_of(std::string_view kind) {
    u32 n = 0;
    for (auto [e, k] : world.view<Kind>()) n += k.name == runtime_id(kind) ? 1 : 0;
    return n;
  }

  World world;
  SpawnRegistry registry;
  EntityDefs defs;
  ChainRunner runner{world, registry, defs};
  int music = 0;
  int victories = 0;
};

// The blog's example, exactly: "spawn 10 enemies of type A; when the player defeats all, spawn
// 15 enemies of type B; when the player defeats 5 of these, spawn the boss".
TEST_F(Chains, TheBlogsWaves) {
  ChainDef waves{.name = "waves", .steps = {}};
  waves.steps.push_back(step({spawn_of("A", 10)}, ChainConditionKind::kDead));
  waves.steps.push_back(step({spawn_of("B", 15)}, ChainConditionKind::kDead, 5));
  ChainStep boss = step({spawn_of("boss", 1), call_of("boss_music")}, ChainConditionKind::kDead);
  boss.end.push_back(call_of("victory"));
  waves.steps.push_back(boss);

  ASSERT_TRUE(runner.start(waves));
  EXPECT_EQ(count_of("A"), 10u);
  EXPECT_EQ(world.size(), 10u);
  kill(9);
  ASSERT_TRUE(runner.update(0.016f));
  EXPECT_EQ(runner.step(), 0u);  // one A is left
  EXPECT_EQ(count_of("B"), 0u);
  kill(1);
  ASSERT_TRUE(runner.update(0.016f));
  EXPECT_EQ(runner.step(), 1u);
  EXPECT_EQ(count_of("B"), 15u);
  kill(4);
  ASSERT_TRUE(runner.update(0.016f));
  EXPECT_EQ(runner.step(), 1u);  // 4 of 15 B: not yet
  EXPECT_EQ(count_of("boss"), 0u);
  kill(1);
  ASSERT_TRUE(runner.update(0.016f));
  EXPECT_EQ(runner.step(), 2u);  // the fifth B: the boss comes, 10 B still fly
  EXPECT_EQ(count_of("boss"), 1u);
  EXPECT_EQ(count_of("B"), 10u);
  EXPECT_EQ(music, 1);
  EXPECT_EQ(victories, 0);
  kill(1);
  ASSERT_TRUE(runner.update(0.016f));
  EXPECT_TRUE(runner.finished());
  EXPECT_EQ(victories, 1);
  ASSERT_TRUE(runner.update(0.016f));  // finished: nothing more happens
  EXPECT_EQ(victories, 1);
}

// A second runner resumed from the first's progress goes on like it, without running actions.
TEST_F(Chains, ResumeContinuesFromProgress) {
  ChainDef waves{.name = "waves", .steps = {}};
  waves.steps.push_back(step({spawn_of("A", 3)}, ChainConditionKind::kDead));
  waves.steps.push_back(step({spawn_of("B", 2), call_of("boss_music")}, ChainConditionKind::kDead));
  ASSERT_TRUE(runner.start(waves));
  kill(3);
  ASSERT_TRUE(runner.update(0.5f));
  ASSERT_EQ(runner.step(), 1u);
  ASSERT_TRUE(runner.update(0.25f));
  const ChainRunner::Progress progress = runner.progress();
  EXPECT_EQ(progress.step, 1u);
  EXPECT_FLOAT_EQ(progress.step_time, 0.25f);
  ASSERT_EQ(progress.spawned.size(), 2u);

  ChainRunner resumed(world, registry, defs);
  resumed.on_call("boss_music", [this] { ++music; });
  resumed.on_call("victory", [] {});
  ASSERT_TRUE(resumed.resume(waves, progress));
  EXPECT_EQ(music, 1);  // no start action ran again
  EXPECT_EQ(count_of("B"), 2u);
  EXPECT_EQ(resumed.step(), 1u);
  EXPECT_EQ(resumed.spawned(), progress.spawned);
  kill(2);
  ASSERT_TRUE(resumed.update(0.1f));
  EXPECT_TRUE(resumed.finished());

  // Bad progress changes nothing.
  ChainRunner bad(world, registry, defs);
  EXPECT_FALSE(bad.resume(waves, {.step = 3, .step_time = 0, .spawned = {}}));
  EXPECT_FALSE(bad.resume(waves, {.step = 0, .step_time = -1, .spawned = {}}));
  EXPECT_FALSE(bad.running());
}

TEST_F(Chains, DyingEntitiesCountAsDeadBeforeTheFlush) {
  ChainDef c{.name = "c", .steps = {step({spawn_of("A", 2)}, ChainConditionKind::kDead)}};
  ASSERT_TRUE(runner.start(c));
  for (const Entity e : runner.spawned()) world.kill(e);
  EXPECT_EQ(runner.dead(), 2u);
  ASSERT_TRUE(runner.update(0));
  EXPECT_TRUE(runner.finished());
}

TEST_F(Chains, TimeAndCheckConditions) {
  bool door_open = false;
  runner.on_check("door_open", [&] { return door_open; });
  ChainStep wait = step({}, ChainConditionKind::kTime);
  wait.until.seconds = 1.0f;
  ChainStep check = step({}, ChainConditionKind::kCheck);
  check.until.name = "door_open";
  ChainDef c{.name = "c", .steps = {wait, check, step({}, ChainConditionKind::kNone)}};
  ASSERT_TRUE(runner.start(c));
  ASSERT_TRUE(runner.update(0.5f));
  EXPECT_EQ(runner.step(), 0u);
  ASSERT_TRUE(runner.update(0.5f));
  EXPECT_EQ(runner.step(), 1u);
  ASSERT_TRUE(runner.update(10));
  EXPECT_EQ(runner.step(), 1u);
  door_open = true;
  ASSERT_TRUE(runner.update(0));
  EXPECT_TRUE(runner.finished());  // the last step has no condition: it ends at once
}

TEST_F(Chains, DefaultPlacerPutsASpawnOnARing) {
  ChainAction a = spawn_of("A", 4);
  a.at = true;
  a.position = {100, 0};
  a.spread = 10;
  ChainDef c{.name = "c", .steps = {step({a}, ChainConditionKind::kDead)}};
  ASSERT_TRUE(runner.start(c));
  ASSERT_EQ(runner.spawned().size(), 4u);
  const Transform* first = world.get<Transform>(runner.spawned()[0]);
  const Transform* second = world.get<Transform>(runner.spawned()[1]);
  EXPECT_NEAR(first->position.x, 110, 1e-4);
  EXPECT_NEAR(second->position.y, 10, 1e-4);
}

TEST_F(Chains, EntryPointsChainNeedsEverythingItNames) {
  ChainStep s = step({spawn_of("nobody", 1), call_of("nothing")}, ChainConditionKind::kCheck);
  s.until.name = "never_registered";
  Params p;
  ASSERT_TRUE(defs.add(EntityDef{.name = "bodied", .components = {{.name = "Body", .params = p}}}));
  s.start.push_back(spawn_of("bodied", 1));
  ChainDef c{.name = "c", .steps = {s}};
  Status st = runner.start(c);
  ASSERT_FALSE(st);
  EXPECT_EQ(st.error().code(), ErrorCode::kNotFound);
  const std::string& m = st.error().message();
  EXPECT_NE(m.find("entity definition `nobody`"), std::string::npos) << m;
  EXPECT_NE(m.find("function `nothing`"), std::string::npos) << m;
  EXPECT_NE(m.find("predicate `never_registered`"), std::string::npos) << m;
  EXPECT_NE(m.find("Body"), std::string::npos) << m;
  EXPECT_EQ(world.size(), 0u);
  EXPECT_FALSE(runner.running());
  EXPECT_TRUE(runner.update(1));  // before a successful start: nothing
}

}  // namespace
}  // namespace keel::world
