#include "keel/save/save_file.h"
#include "keel/save/system.h"
#include "keel/world/transform.h"
#include "keel/world/world.h"

#include <gtest/gtest.h>

#include <string>

#include <vector>

namespace keel::world {
namespace {

struct Score {
  u32 points = 0;
};

Transform moving(Vec2 position, Vec2 velocity) {
  Transform t;
  t.position = position;
  t.velocity = velocity;
  return t;
}

void step(World& world, u32 frame) {
  for (auto [e, t] : world.view<Transform>()) {
    t.position += t.velocity * (1.f / 60.f);
    t.angle += t.angular_velocity * (1.f / 60.f);
  }
  if (frame % 7 == 3) {
    const Entity e = world.create();
    world.create<Transform>(e, moving({0, 0}, {f32(frame), 1}));
  }
  if (frame % 5 == 1) {
    world.for_each_entity([&](Entity e) {
      if (e.index == frame % 4) world.kill(e);
    });
  }
  world.flush();
}

World& populate(World& world) {
  for (u32 i = 0; i < 20; ++i) {
    const Entity e = world.create();
    world.create<Transform>(e, moving({f32(i), 0}, {1, f32(i)}));
    if (i % 2 == 0) world.create<Score>(e, i);
  }
  return world;
}

TEST(WorldState, SameInputsSameHash) {
  World a;
  World b;
  populate(a);
  populate(b);
  EXPECT_EQ(a.state_hash(), b.state_hash());
  for (u32 f = 0; f < 30; ++f) {
    step(a, f);
    step(b, f);
  }
  EXPECT_EQ(a.state_hash(), b.state_hash());
  Entity first;
  a.for_each_entity([&](Entity e) {
    if (!first && a.has<Score>(e)) first = e;
  });
  const u64 before = a.state_hash();
  if (Score* score = a.get<Score>(first)) score->points += 1;
  EXPECT_EQ(a.state_hash(), before) << "Score is not tracked";
  if (Transform* t = a.get<Transform>(first)) t->angle += 1e-6f;
  EXPECT_NE(a.state_hash(), before) << "Transform is tracked from the start";
}

TEST(WorldState, TrackedTypesJoinTheHash) {
  World a;
  populate(a);
  a.track_state<Score>();
  const u64 before = a.state_hash();
  Entity first;
  a.for_each_entity([&](Entity e) {
    if (!first && a.has<Score>(e)) first = e;
  });
  if (Score* score = a.get<Score>(first)) score->points += 1;
  EXPECT_NE(a.state_hash(), before);
}

Result<ByteBuffer> save_world(const save::SaveSystem& system, const World& world) {
  save::SaveFile file(system);
  Status st = file.begin_save({});
  if (st) st = world.save(file);
  st = file.end(st);
  if (!st) return Unexpected(st.error());
  return file.bytes();
}

Status load_world(const save::SaveSystem& system, ByteSpan bytes, World& world) {
  save::SaveFile file(system);
  Status st = file.begin_load_bytes(bytes);
  if (st) st = world.load(file);
  return file.end(st);
}

TEST(WorldState, SavedMidRunContinuesToTheSameHash) {
  const save::SaveSystem system({});
  World straight;
  World first_half;
  populate(straight);
  populate(first_half);
  first_half.track_state<Score>();
  straight.track_state<Score>();
  for (u32 f = 0; f < 20; ++f) {
    step(straight, f);
    step(first_half, f);
  }
  auto bytes = save_world(system, first_half);
  ASSERT_TRUE(bytes) << bytes.error().to_string();

  World restored;
  restored.track_state<Score>();
  restored.create();  // whatever was there goes
  ASSERT_TRUE(load_world(system, *bytes, restored));
  EXPECT_EQ(restored.state_hash(), first_half.state_hash());
  EXPECT_EQ(restored.size(), first_half.size());
  first_half.for_each_entity([&](Entity e) {
    EXPECT_TRUE(restored.alive(e)) << "saved ids stay valid";
    EXPECT_EQ(restored.has<Score>(e), first_half.has<Score>(e));
  });
  for (u32 f = 20; f < 40; ++f) {
    step(straight, f);
    step(restored, f);
  }
  EXPECT_EQ(restored.state_hash(), straight.state_hash());
}

TEST(WorldState, DamagedSavesAreErrorsAndLeaveTheWorldEmpty) {
  const save::SaveSystem system({});
  World world;
  populate(world);
  auto bytes = save_world(system, world);
  ASSERT_TRUE(bytes);
  World other;
  other.track_state<Score>();  // one tracked type more than the saved world
  other.create();
  const Status st = load_world(system, *bytes, other);
  ASSERT_FALSE(st);
  EXPECT_NE(st.error().message().find("tracked component types"), std::string::npos)
      << st.error().to_string();
  EXPECT_EQ(other.size(), 0u);
}

}  // namespace
}  // namespace keel::world
