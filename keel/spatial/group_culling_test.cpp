#include "keel/spatial/group_culling.h"

#include "keel/core/testing/alloc_counter.h"
#include "keel/core/testing/assert_recorder.h"
#include "keel/spatial/testing/clustered_scene.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

namespace keel::spatial {
namespace {

std::vector<Contact> sorted(std::vector<Contact> v) {
  std::ranges::sort(v);
  return v;
}

Obstacle at(GroupId g, f32 x, f32 y, f32 r = 2.0f, Vec2 v = {}) {
  return Obstacle{.position = {x, y}, .velocity = v, .radius = r, .group = g};
}

void expect_same_as_brute_force(CullOptions options, u64 frames) {
  for (const usize n : {70u, 300u, 2000u}) {
    for (u32 seed = 1; seed <= 3; ++seed) {
      testing::ClusteredScene scene = testing::clustered_scene(n, seed);
      GroupCuller culler(citizen_group_table(), options);
      std::vector<Contact> culled;
      std::vector<Contact> reference;
      for (u64 frame = 0; frame < frames; ++frame) {
        culler.find_contacts(scene.obstacles, culled);
        brute_force_contacts(scene.obstacles, citizen_group_table(), reference);
        ASSERT_EQ(sorted(culled), sorted(reference)) << "n=" << n << " seed=" << seed;
        ASSERT_EQ(culler.stats().contacts, reference.size());
        resolve_contacts(scene.obstacles, culled);
        advance(scene.obstacles, 1.0f / 30.0f, scene.bounds);
      }
    }
  }
}

TEST(GroupCulling, Check27_PairsEqualFilteredBruteForceOnClusteredScenes) {
  expect_same_as_brute_force({}, 8);
}
TEST(GroupCulling, Check27_PairsEqualBruteForceAlwaysSwept) {
  expect_same_as_brute_force({.sweep_threshold = 0}, 4);
}
TEST(GroupCulling, Check27_PairsEqualBruteForceNeverSwept) {
  expect_same_as_brute_force({.sweep_threshold = ~u64{0}}, 4);
}

TEST(GroupCulling, Check27_PairsEqualBruteForceSeedLoop) {
  expect_same_as_brute_force({.seed_one_sided = true}, 2);
}

TEST(GroupCulling, Check27_EnemyFireOverEnemiesMakesNoEnemyFireEnemyTest) {
  std::vector<Obstacle> scene;
  scene.push_back(at(kAllies, 900, 900));
  for (int i = 0; i < 10; ++i) scene.push_back(at(kEnemies, 100.0f + 6.0f * i, 100, 3));
  for (int i = 0; i < 20; ++i) scene.push_back(at(kEnemyFire, 100.0f + 3.0f * i, 101, 1));
  GroupCuller culler(citizen_group_table());
  std::vector<Contact> contacts;
  culler.find_contacts(scene, contacts);
  // Only enemies against enemies reach the narrow phase: 10 * 9 / 2.
  EXPECT_EQ(culler.stats().narrow_tests, 45u);
  for (const Contact& c : contacts) {
    EXPECT_EQ(scene[c.a].group, kEnemies);
    EXPECT_EQ(scene[c.b].group, kEnemies);
  }
  CullStats all;
  GroupTable everything;
  for (GroupId a = 0; a < 6; ++a)
    for (GroupId b = a; b < 6; ++b) everything.allow(a, b);
  std::vector<Contact> touching;
  brute_force_contacts(scene, everything, touching, &all);
  EXPECT_GT(std::ranges::count_if(
                touching, [&](const Contact& c) { return scene[c.a].group != scene[c.b].group; }),
            0);  // enemy fire does overlap enemies: the table alone keeps them apart
}

// The seed's frame: one player, ten enemies firing from two guns each (30 shots in flight), the
// player's shots flying up at them (29): 70 obstacles.
std::vector<Obstacle> seed_scene() {
  std::mt19937 rng(70);
  std::uniform_real_distribution<f32> jitter(-1.0f, 1.0f);
  std::vector<Obstacle> scene;
  scene.push_back(at(kAllies, 320, 40, 8));
  for (int e = 0; e < 10; ++e) {
    scene.push_back(at(kEnemies, 200.0f + 25.0f * e + 8 * jitter(rng), 300 + 20 * jitter(rng), 8));
  }
  for (int s = 0; s < 30; ++s) {  // enemy shots stream down towards the player
    const f32 t = static_cast<f32>(s) / 30.0f;
    scene.push_back(at(kEnemyFire, 220.0f + 200.0f * t + 30 * jitter(rng), 280 - 240 * t, 2));
  }
  for (int s = 0; s < 29; ++s) {  // the player's shots fly up
    scene.push_back(at(kAlliedFire, 320 + 4 * jitter(rng), 60.0f + 9.0f * static_cast<f32>(s), 2));
  }
  return scene;
}

TEST(GroupCulling, Check27_SeedNumbersFor70Obstacles) {
  const std::vector<Obstacle> scene = seed_scene();
  ASSERT_EQ(scene.size(), 70u);
  GroupTable everything;
  for (GroupId a = 0; a < 6; ++a)
    for (GroupId b = a; b < 6; ++b) everything.allow(a, b);
  CullStats no_culling;
  CullStats table_only;
  std::vector<Contact> contacts;
  brute_force_contacts(scene, everything, contacts, &no_culling);
  brute_force_contacts(scene, citizen_group_table(), contacts, &table_only);
  GroupCuller culler(citizen_group_table());
  culler.find_contacts(scene, contacts);
  const CullStats& s = culler.stats();
  GroupCuller seed_loop(citizen_group_table(), {.seed_one_sided = true});
  std::vector<Contact> seed_contacts;
  seed_loop.find_contacts(scene, seed_contacts);
  EXPECT_EQ(sorted(seed_contacts), sorted(contacts));
  std::printf(
      "70 obstacles: %llu narrow tests without culling, %llu with the group table only, %llu with "
      "the seed's one-sided group culling, %llu with Keel's (%llu group boxes, %llu member boxes "
      "tested)\n",
      static_cast<unsigned long long>(no_culling.narrow_tests),
      static_cast<unsigned long long>(table_only.narrow_tests),
      static_cast<unsigned long long>(seed_loop.stats().narrow_tests),
      static_cast<unsigned long long>(s.narrow_tests),
      static_cast<unsigned long long>(s.group_box_tests),
      static_cast<unsigned long long>(s.member_box_tests));
  EXPECT_EQ(no_culling.narrow_tests, 2415u);        // 70 * 69 / 2
  EXPECT_LT(seed_loop.stats().narrow_tests, 300u);  // the seed: "somewhere between 100-300"
  EXPECT_GT(seed_loop.stats().narrow_tests, 100u);
  EXPECT_LE(s.narrow_tests, seed_loop.stats().narrow_tests);
  EXPECT_GT(s.narrow_tests, 45u);  // at least the enemies among themselves
  EXPECT_EQ(sorted(contacts), sorted([&] {
              std::vector<Contact> r;
              brute_force_contacts(scene, citizen_group_table(), r);
              return r;
            }()));
}

TEST(GroupCulling, DisjointGroupBoxesSkipTheWholePair) {
  std::vector<Obstacle> scene = {at(kAllies, 0, 0), at(kAllies, 1, 0), at(kEnemies, 100, 100),
                                 at(kEnemies, 101, 100)};
  GroupCuller culler(citizen_group_table());
  std::vector<Contact> contacts;
  culler.find_contacts(scene, contacts);
  EXPECT_EQ(culler.stats().group_pairs, 3u);  // allies-allies, allies-enemies, enemies-enemies
  EXPECT_EQ(culler.stats().group_box_tests, 3u);
  EXPECT_EQ(culler.stats().member_box_tests, 0u);  // rejected at group level
  EXPECT_EQ(culler.stats().narrow_tests, 2u);
  EXPECT_EQ(sorted(contacts), (std::vector<Contact>{{0, 1}, {2, 3}}));
}

TEST(GroupCulling, MembersOutsideTheOtherGroupBoxAreSkipped) {
  // Allies spread along x; enemies sit on the right end only.
  std::vector<Obstacle> scene;
  for (int i = 0; i < 10; ++i) scene.push_back(at(kAllies, 20.0f * i, 0, 1));
  scene.push_back(at(kEnemies, 180, 0, 1));
  GroupCuller culler(GroupTable::parse("allies-enemies", citizen_group_names()).value());
  std::vector<Contact> contacts;
  culler.find_contacts(scene, contacts);
  EXPECT_EQ(culler.stats().member_box_tests, 11u);
  EXPECT_EQ(culler.stats().narrow_tests, 1u);  // only the ally at x = 180
  EXPECT_EQ(contacts, (std::vector<Contact>{{9, 10}}));
}

TEST(GroupCulling, ResponseMirrorsVelocityAndProjectsApart) {
  std::vector<Obstacle> pair = {at(kAllies, 0, 0, 1, {1, 0.5f}), at(kAllies, 1.5f, 0, 1, {-2, 0})};
  const std::vector<Contact> contacts = {{0, 1}};
  resolve_contacts(pair, contacts);
  EXPECT_FLOAT_EQ(pair[0].velocity.x, -1);  // mirrored along the normal (x)
  EXPECT_FLOAT_EQ(pair[0].velocity.y, 0.5f);
  EXPECT_FLOAT_EQ(pair[1].velocity.x, 2);
  EXPECT_FALSE(circles_touch(pair[0], pair[1]));  // projected apart: they cannot stick
  // Already separating: velocities stay, positions still pushed apart.
  std::vector<Obstacle> apart = {at(kAllies, 0, 0, 1, {-1, 0}), at(kAllies, 1, 0, 1, {1, 0})};
  resolve_contacts(apart, contacts);
  EXPECT_FLOAT_EQ(apart[0].velocity.x, -1);
  EXPECT_FLOAT_EQ(apart[1].velocity.x, 1);
  EXPECT_FALSE(circles_touch(apart[0], apart[1]));
  // Same centre: any normal, but apart afterwards.
  std::vector<Obstacle> same = {at(kAllies, 5, 5, 1), at(kAllies, 5, 5, 1)};
  resolve_contacts(same, contacts);
  EXPECT_FALSE(circles_touch(same[0], same[1]));
}

TEST(GroupCulling, GroupTableParse) {
  const Result<GroupTable> t =
      GroupTable::parse("allies-allies  allies-enemies\nenemy_fire-allies", citizen_group_names());
  ASSERT_TRUE(t.has_value()) << t.error().to_string();
  EXPECT_TRUE(t->allows(kAllies, kAllies));
  EXPECT_TRUE(t->allows(kEnemies, kAllies));
  EXPECT_TRUE(t->allows(kAllies, kEnemyFire));
  EXPECT_FALSE(t->allows(kEnemies, kEnemyFire));
  EXPECT_FALSE(t->allows(kEnemies, kEnemies));
  const Result<GroupTable> bad =
      GroupTable::parse("allies-allies\n  allies-ghosts", citizen_group_names());
  ASSERT_FALSE(bad.has_value());
  EXPECT_EQ(bad.error().code(), ErrorCode::kNotFound);
  EXPECT_EQ(bad.error().where().line, 2u);
  EXPECT_EQ(bad.error().where().column, 10u);
  EXPECT_FALSE(GroupTable::parse("allies", citizen_group_names()).has_value());
}

TEST(GroupCulling, SteadyFramesAllocateNothing) {
  testing::ClusteredScene scene = testing::clustered_scene(2000, 9);
  GroupCuller culler(citizen_group_table());
  std::vector<Contact> contacts;
  contacts.reserve(scene.obstacles.size() * 4);
  culler.find_contacts(scene.obstacles, contacts);  // warm-up sizes the buffers
  advance(scene.obstacles, 1.0f / 30.0f, scene.bounds);
  culler.find_contacts(scene.obstacles, contacts);
  keel::testing::AllocationScope scope;
  for (int frame = 0; frame < 5; ++frame) {
    advance(scene.obstacles, 1.0f / 60.0f, scene.bounds);
    culler.find_contacts(scene.obstacles, contacts);
  }
  EXPECT_EQ(scope.count(), 0u) << scope.counts();
}

TEST(EntryPoints, GroupCullerEmptyOddAndChangingInputs) {
  GroupCuller culler(citizen_group_table());
  std::vector<Contact> contacts = {{1, 2}};
  culler.find_contacts({}, contacts);
  EXPECT_TRUE(contacts.empty());
  std::vector<Obstacle> one = {at(kAllies, 0, 0)};
  culler.find_contacts(one, contacts);
  EXPECT_TRUE(contacts.empty());
  // The count changes between frames: the kept order starts over.
  std::vector<Obstacle> three = {at(kAllies, 0, 0), at(kAllies, 1, 0), at(kEnemies, 0, 1)};
  culler.find_contacts(three, contacts);
  EXPECT_EQ(contacts.size(), 3u);
  // An empty table: nothing collides.
  GroupCuller none(GroupTable{});
  none.find_contacts(three, contacts);
  EXPECT_TRUE(contacts.empty());
  // Resolving nothing, or a contact that is not one.
  resolve_contacts(three, {});
  const std::vector<Contact> self = {{1, 1}};
  resolve_contacts(three, self);
}

TEST(EntryPoints, GroupCullerBadGroupIdsAndContacts) {
  keel::testing::AssertRecorder asserts;
  std::vector<Obstacle> scene = {at(kAllies, 0, 0), at(200, 0, 0), at(kAllies, 1, 0)};
  GroupCuller culler(citizen_group_table());
  std::vector<Contact> contacts;
  culler.find_contacts(scene, contacts);
  asserts.expect_asserted("collides with nothing");
  EXPECT_EQ(contacts, (std::vector<Contact>{{0, 2}}));  // group 200 collides with nothing
  GroupTable table;
  table.allow(40, 1);
  asserts.expect_asserted(">= 32");
  EXPECT_FALSE(table.allows(40, 1));
  const std::vector<Contact> outside = {{0, 7}};
  resolve_contacts(scene, outside);
  asserts.expect_asserted("outside the 3 obstacles");
}

}  // namespace
}  // namespace keel::spatial
