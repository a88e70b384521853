// Determinism and save/restore of Physics (issue 14, section 3): the same inputs give the same
// state hash; a world saved through keel/save mid-fight and restored continues to the same hash
// as the run that was saved.
#include "keel/core/file.h"
#include "keel/save/save_file.h"
#include "keel/save/system.h"
#include "keel/world/physics.h"
#include "keel/world/physics_state.h"
#include "keel/world/testing/physics_scene.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <memory>

namespace keel::world {
namespace {

using testing::drive_fight;
using testing::FightOptions;
using testing::setup_fight;

constexpr u64 kSteps = 600;
constexpr u64 kSaveAt = 300;

std::unique_ptr<Physics> make_determinism_physics() {
  auto filters = collision_filters(spatial::citizen_group_table());
  EXPECT_TRUE(filters.has_value());
  return std::make_unique<Physics>(PhysicsConfig{}, *filters);
}

const save::SaveSystem& saves() {
  static const save::SaveSystem system({save::type<PhysicsState>()});
  return system;
}

void run_to(Physics& p, u64 until, const FightOptions& options, u64* contacts = nullptr) {
  while (p.steps() < until) {
    drive_fight(p, options);
    p.step();
    if (contacts) *contacts += p.contacts().size();
  }
}

ByteBuffer save_to_bytes(Physics& p) {
  std::unique_ptr<PhysicsState> state = p.save_state();
  save::SaveFile file(saves());
  Status st = file.begin_save("");
  file.declare_object(state.get());
  if (st) st = file.process_objects();
  st = file.end(st);
  EXPECT_TRUE(st) << st.error().to_string();
  return file.bytes();
}

Status restore_from_bytes(Physics& p, ByteSpan bytes) {
  save::SaveFile file(saves());
  Status st = file.begin_load_bytes(bytes);
  if (st) st = file.process_objects();
  st = file.end(st);
  if (!st) return st;
  for (auto& object : file.take_objects()) {
    if (auto* s = dynamic_cast<PhysicsState*>(object.get())) return p.restore(*s);
  }
  return fail(ErrorCode::kNotFound, "no physics state in the save");
}

u64 fight_hash(const FightOptions& options, u64* contacts = nullptr) {
  auto p = make_determinism_physics();
  setup_fight(*p, options);
  run_to(*p, kSteps, options, contacts);
  return p->state_hash();
}

TEST(PhysicsDeterminism, TwoRunsOfTheScriptedFightGiveEqualHashes) {
  EXPECT_TRUE(saves().problems().empty());
  u64 contacts = 0;
  const u64 a = fight_hash({}, &contacts);
  const u64 b = fight_hash({});
  EXPECT_EQ(a, b);
  EXPECT_GT(contacts, 10u);  // it is a fight: shots hit, ships collide
}

TEST(PhysicsDeterminism, APerturbedRunDiffers) {
  EXPECT_NE(fight_hash({}), fight_hash({.perturb = {0.001f, 0}}));
}

TEST(PhysicsDeterminism, SavedMidFightAndRestoredContinuesToTheSameHash) {
  // The run that saves (and so rebuilds its b2World at the save point), then goes on.
  auto saved = make_determinism_physics();
  setup_fight(*saved);
  run_to(*saved, kSaveAt, {});
  const u64 at_save = saved->state_hash();
  const ByteBuffer bytes = save_to_bytes(*saved);
  EXPECT_EQ(saved->state_hash(), at_save);  // the rebuild keeps every body's state
  u64 saved_contacts = 0;
  run_to(*saved, kSteps, {}, &saved_contacts);

  // A fresh Physics (another "process") restored from the file.
  auto restored = make_determinism_physics();
  ASSERT_TRUE(restore_from_bytes(*restored, bytes));
  EXPECT_EQ(restored->steps(), kSaveAt);
  EXPECT_EQ(restored->state_hash(), at_save);
  u64 restored_contacts = 0;
  run_to(*restored, kSteps, {}, &restored_contacts);

  EXPECT_EQ(restored->state_hash(), saved->state_hash());
  EXPECT_EQ(restored_contacts, saved_contacts);
  EXPECT_EQ(restored->body_count(), saved->body_count());
  EXPECT_EQ(restored->turret_count(), saved->turret_count());
}

TEST(PhysicsDeterminism, RebuildDoesNotReportRestingContactsAgain) {
  auto p = make_determinism_physics();
  BodyDef a;
  a.shape = ShapeDef::circle(5);
  BodyDef b = a;
  b.start.position = {9, 0};
  ASSERT_TRUE(p->add_body(Entity{1, 1}, a));
  ASSERT_TRUE(p->add_body(Entity{2, 1}, b));
  p->step();
  ASSERT_EQ(p->contacts().size(), 1u);
  p->step();
  EXPECT_TRUE(p->contacts().empty());
  p->rebuild();
  p->step();
  EXPECT_TRUE(p->contacts().empty());  // still touching: no second Begin
  // A rebuilt world that lost a touching pair reports its End.
  auto q = make_determinism_physics();
  ASSERT_TRUE(q->add_body(Entity{1, 1}, a));
  ASSERT_TRUE(q->add_body(Entity{2, 1}, b));
  q->step();
  std::unique_ptr<PhysicsState> state = q->save_state();
  state->bodies[1].def.start.position = {50, 0};
  ASSERT_TRUE(q->restore(*state));
  q->step();
  ASSERT_EQ(q->contacts().size(), 1u);
  EXPECT_EQ(q->contacts()[0].phase, ContactPhase::kEnd);
}

TEST(PhysicsDeterminism, DamagedStatesAreRefusedAndChangeNothing) {
  auto p = make_determinism_physics();
  setup_fight(*p, {.ships_per_side = 2});
  run_to(*p, 20, {.ships_per_side = 2});
  const std::unique_ptr<PhysicsState> good = p->save_state();
  const u64 hash = p->state_hash();

  auto expect_refused = [&](auto&& damage, const char* what) {
    PhysicsState bad = *good;
    damage(bad);
    Status st = p->restore(bad);
    EXPECT_FALSE(st) << what;
    EXPECT_EQ(p->state_hash(), hash) << what;
    EXPECT_EQ(p->body_count(), good->bodies.size()) << what;
  };
  expect_refused([](PhysicsState& s) { s.bodies[1].entity = s.bodies[0].entity; }, "duplicate");
  expect_refused([](PhysicsState& s) { s.bodies[0].def.group = 16; }, "group");
  expect_refused([](PhysicsState& s) { s.bodies[0].def.shape.radius = -1; }, "radius");
  expect_refused(
      [](PhysicsState& s) {
        s.bodies[0].def.shape.kind = ShapeKind::kPolygon;
        s.bodies[0].def.shape.vertex_count = 9;
      },
      "polygon");
  expect_refused([](PhysicsState& s) { s.bodies[0].def.start.position.x = std::nanf(""); }, "nan");
  expect_refused([](PhysicsState& s) { s.bodies[0].awake = 7; }, "flag");
  expect_refused([](PhysicsState& s) { s.turrets[0].ship = Entity{999, 1}; }, "joint");
  // Two generations of one entity index: the rebuilt world finds bodies by index, so the second
  // hid the ship its turret names (a crash found by the physics_state fuzz target in CI).
  expect_refused(
      [](PhysicsState& s) {
        const Entity ship = s.turrets[0].ship;
        for (usize i = 0; i + 1 < s.bodies.size(); ++i) {
          if (s.bodies[i].entity == ship) {
            s.bodies.insert(s.bodies.begin() + static_cast<std::ptrdiff_t>(i) + 1, s.bodies[i]);
            s.bodies[i + 1].entity = Entity{ship.index, ship.generation + 1};
            break;
          }
        }
      },
      "two generations of one entity index");
  expect_refused([](PhysicsState& s) { s.accumulator = -1; }, "accumulator");
  expect_refused([](PhysicsState& s) { s.bodies[0].entity = Entity{}; }, "null entity");
  expect_refused(
      [](PhysicsState& s) {
        s.touching.push_back({Entity{5000, 1}, Entity{5001, 1}});
      },
      "touching");
  EXPECT_TRUE(p->restore(*good));
  EXPECT_EQ(p->state_hash(), hash);
}

TEST(PhysicsDeterminism, ASaveWithAForgedBoolIsRefused) {
  auto p = make_determinism_physics();
  setup_fight(*p, {.ships_per_side = 1});
  std::unique_ptr<PhysicsState> state = p->save_state();
  u8 two = 2;
  std::memcpy(&state->bodies[0].def.bullet, &two, 1);
  save::SaveFile out(saves());
  Status st = out.begin_save("");
  out.declare_object(state.get());
  if (st) st = out.process_objects();
  ASSERT_TRUE(out.end(st));
  auto q = make_determinism_physics();
  Status loaded = restore_from_bytes(*q, out.bytes());
  ASSERT_FALSE(loaded);
  EXPECT_NE(loaded.error().message().find("flag"), std::string::npos);
  EXPECT_EQ(q->body_count(), 0u);
}

}  // namespace
}  // namespace keel::world

namespace keel::world {
namespace {

// The fuzz target's seeds (fuzz/corpus/physics_state/): a save of a small fight (mode 0) and its
// records back to back (mode 1). Both restore; rewrite with KEEL_WRITE_PHYSICS_CORPUS=1.
TEST(PhysicsCorpus, SeedsRestore) {
  auto p = make_determinism_physics();
  setup_fight(*p, {.ships_per_side = 2});
  run_to(*p, 30, {.ships_per_side = 2});
  ByteBuffer whole{std::byte{0}};
  const ByteBuffer file = save_to_bytes(*p);
  whole.insert(whole.end(), file.begin(), file.end());
  std::unique_ptr<PhysicsState> state = p->save_state();
  ByteBuffer records{std::byte{1}};
  auto append = [&](const auto& list) {
    records.push_back(static_cast<std::byte>(list.size()));
    const auto bytes = std::as_bytes(std::span(list));
    records.insert(records.end(), bytes.begin(), bytes.end());
  };
  append(state->bodies);
  append(state->turrets);
  append(state->touching);
  const std::filesystem::path dir =
      std::filesystem::path(KEEL_SOURCE_DIR) / "fuzz/corpus/physics_state";
  if (std::getenv("KEEL_WRITE_PHYSICS_CORPUS") != nullptr) {
    std::filesystem::create_directories(dir);
    ASSERT_TRUE(write_file_atomic(dir / "fight_save", whole));
    ASSERT_TRUE(write_file_atomic(dir / "fight_records", records));
  }
  for (const char* name : {"fight_save", "fight_records"}) {
    auto text = read_file(dir / name);
    ASSERT_TRUE(text) << name;
    ASSERT_FALSE(text->empty());
    const ByteSpan all = as_bytes(*text);
    auto q = make_determinism_physics();
    const ByteSpan in = all.subspan(1);
    if (all[0] == std::byte{0}) {
      EXPECT_TRUE(restore_from_bytes(*q, in)) << name;
    } else {
      EXPECT_EQ(in.size(), records.size() - 1) << name;
    }
  }
}

}  // namespace
}  // namespace keel::world
