// The simulation's tests: determinism, quick-save and quick-load, difficulty, the autopilot,
// death, the player's controls and the enemies' state machines. The pack is built by the
// voidfarer_data fixture (VOIDFARER_DATA).
#include "sim.h"

#include "keel/world/components.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace keel::voidfarer {
namespace {

std::unique_ptr<Sim> make(Difficulty difficulty = Difficulty::kNormal, u64 seed = 1) {
  auto sim = Sim::create(VOIDFARER_DATA, {.difficulty = difficulty, .seed = seed});
  EXPECT_TRUE(sim) << sim.error().to_string();
  return sim ? std::move(*sim) : nullptr;
}

std::filesystem::path temp_file(std::string_view name) {
  std::filesystem::create_directories(KEEL_TEST_TMPDIR);
  return std::filesystem::path(KEEL_TEST_TMPDIR) / name;
}

// Runs the autopilot for `frames` frames and returns what it pressed.
std::vector<Controls> fly(Sim& sim, u32 frames) {
  std::vector<Controls> pressed;
  for (u32 i = 0; i < frames; ++i) {
    pressed.push_back(sim.autopilot());
    EXPECT_TRUE(sim.step(pressed.back()));
  }
  return pressed;
}

void replay(Sim& sim, const std::vector<Controls>& controls) {
  for (const Controls& c : controls) ASSERT_TRUE(sim.step(c));
}

// Every ship (entities with Health), in store order.
std::vector<world::Entity> ships(const Sim& sim) {
  auto& w = const_cast<world::World&>(sim.world());  // store<C>() makes missing stores
  const auto& e = w.store<Health>().entities();
  return {e.begin(), e.end()};
}

const world::Transform& player_at(const Sim& sim) {
  const world::Transform* t = sim.world().get<world::Transform>(sim.player());
  EXPECT_NE(t, nullptr);
  static const world::Transform none;
  return t != nullptr ? *t : none;
}

TEST(Voidfarer, SameControlsGiveTheSameHash) {
  auto a = make();
  auto b = make();
  ASSERT_TRUE(a && b);
  const std::vector<Controls> recorded = fly(*a, 300);
  replay(*b, recorded);
  EXPECT_EQ(a->state_hash(), b->state_hash());
  EXPECT_EQ(a->summary().killed, b->summary().killed);
  // Other controls give another game.
  auto c = make();
  std::vector<Controls> changed = recorded;
  changed[10].left = !changed[10].left;
  replay(*c, changed);
  EXPECT_NE(c->state_hash(), a->state_hash());
}

// Saves `a` now, runs `after` on it, loads the save into a fresh sim, runs the same controls:
// every state and the final hash must agree.
void save_and_continue(Sim& a, const std::vector<Controls>& after, std::string_view file) {
  const FrameSummary mid = a.summary();
  ASSERT_GT(mid.enemies, 0u) << "the save must be taken during a wave";
  const std::filesystem::path path = temp_file(file);
  ASSERT_TRUE(a.save(path));
  const u64 at_save = a.state_hash();
  std::vector<std::string> states;
  for (const world::Entity e : ships(a)) states.emplace_back(a.ai_state(e));

  auto b = make();
  ASSERT_TRUE(b);
  const Status loaded = b->load_save(path);
  ASSERT_TRUE(loaded) << loaded.error().to_string();
  EXPECT_EQ(b->state_hash(), at_save);
  EXPECT_EQ(b->summary().frame, mid.frame);
  EXPECT_EQ(b->summary().score, mid.score);
  EXPECT_EQ(b->summary().killed, mid.killed);
  EXPECT_EQ(b->summary().wave_step, mid.wave_step);
  EXPECT_EQ(b->player(), a.player());
  const std::vector<world::Entity> loaded_ships = ships(*b);
  ASSERT_EQ(loaded_ships.size(), states.size());
  for (usize i = 0; i < states.size(); ++i) EXPECT_EQ(b->ai_state(loaded_ships[i]), states[i]);

  replay(a, after);
  replay(*b, after);
  EXPECT_EQ(b->state_hash(), a.state_hash());
  EXPECT_EQ(b->summary().killed, a.summary().killed);
  EXPECT_EQ(b->summary().score, a.summary().score);
  EXPECT_EQ(b->summary().wave_step, a.summary().wave_step);
  EXPECT_EQ(b->summary().hull, a.summary().hull);
}

// Two saves: amid the fighters (state machines in several states, IfRandom's dice in play) and
// amid the bombers' runs (their script's reload and stick counters mid-cycle; the player sits
// still so that the bombers reach it).
TEST(Voidfarer, SaveMidWaveContinuesToTheSameHash) {
  auto fighters = make();
  ASSERT_TRUE(fighters);
  fly(*fighters, 100);
  auto twin = make();
  ASSERT_TRUE(twin);
  const std::vector<Controls> after = fly(*twin, 260);
  save_and_continue(*fighters, std::vector<Controls>(after.begin() + 100, after.end()),
                    "mid_wave_a.sav");

  auto bombers = make();
  ASSERT_TRUE(bombers);
  while (bombers->summary().wave_step < 1 && bombers->summary().frame < 1200) {
    ASSERT_TRUE(bombers->step(bombers->autopilot()));
  }
  ASSERT_EQ(bombers->summary().wave_step, 1u);
  // The bombers close in on the sitting player; the save falls amid a stick of bombs (the
  // fighters' last shots are gone after 90 frames).
  for (int i = 0; i < 120; ++i) ASSERT_TRUE(bombers->step({}));
  while (bombers->summary().bullets == 0 && bombers->summary().frame < 1500) {
    ASSERT_TRUE(bombers->step({}));
  }
  ASSERT_GT(bombers->summary().bullets, 0u) << "no bombs";
  for (int i = 0; i < 8; ++i) ASSERT_TRUE(bombers->step({}));
  save_and_continue(*bombers, std::vector<Controls>(150), "mid_wave_b.sav");
}

TEST(Voidfarer, CorruptSaveChangesNothing) {
  auto a = make();
  ASSERT_TRUE(a);
  fly(*a, 120);
  const std::filesystem::path path = temp_file("corrupt.sav");
  ASSERT_TRUE(a->save(path));
  std::string bytes;
  {
    std::ifstream in(path, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  ASSERT_GT(bytes.size(), 64u);
  fly(*a, 30);
  const u64 before = a->state_hash();
  const FrameSummary summary = a->summary();

  const std::filesystem::path flipped = temp_file("corrupt_flipped.sav");
  std::string damaged = bytes;
  damaged[damaged.size() / 2] = static_cast<char>(damaged[damaged.size() / 2] ^ 0x5A);
  std::ofstream(flipped, std::ios::binary) << damaged;
  const std::filesystem::path cut = temp_file("corrupt_cut.sav");
  std::ofstream(cut, std::ios::binary) << bytes.substr(0, bytes.size() / 2);

  std::vector<std::filesystem::path> bad_files = {flipped, cut, temp_file("no_such_file.sav")};
  for (usize i = 1; i < 12; ++i) {  // more cuts and flips all over the file
    const usize at = bytes.size() * i / 12;
    bad_files.push_back(temp_file("corrupt_cut_" + std::to_string(i) + ".sav"));
    std::ofstream(bad_files.back(), std::ios::binary) << bytes.substr(0, at);
    std::string flip = bytes;
    flip[at] = static_cast<char>(flip[at] ^ 0x01);
    bad_files.push_back(temp_file("corrupt_flip_" + std::to_string(i) + ".sav"));
    std::ofstream(bad_files.back(), std::ios::binary) << flip;
  }
  for (const auto& bad : bad_files) {
    EXPECT_FALSE(a->load_save(bad)) << bad;
    EXPECT_EQ(a->state_hash(), before) << bad;
    EXPECT_EQ(a->summary().frame, summary.frame);
    EXPECT_EQ(a->summary().score, summary.score);
  }
  // A save loads only on its own difficulty.
  auto hard = make(Difficulty::kHard);
  ASSERT_TRUE(hard);
  const u64 hard_hash = hard->state_hash();
  EXPECT_FALSE(hard->load_save(path));
  EXPECT_EQ(hard->state_hash(), hard_hash);
  // The untouched game goes on, and the good file still loads.
  fly(*a, 10);
  EXPECT_TRUE(a->load_save(path));
  EXPECT_EQ(a->summary().frame, 120u);
}

TEST(Voidfarer, HardDifficultyTakesAbilitiesAway) {
  auto normal = make(Difficulty::kNormal);
  auto hard = make(Difficulty::kHard);
  auto easy = make(Difficulty::kEasy);
  ASSERT_TRUE(normal && hard && easy);
  EXPECT_TRUE(normal->abilities().reverse);
  EXPECT_FALSE(hard->abilities().reverse);
  EXPECT_GT(normal->abilities().hull_regen, 0);
  EXPECT_EQ(hard->abilities().hull_regen, 0);
  EXPECT_GT(easy->abilities().hull_regen, normal->abilities().hull_regen);
  EXPECT_GT(easy->abilities().shield, 0);
  EXPECT_NE(easy->world().get<Shield>(easy->player()), nullptr);
  EXPECT_EQ(normal->world().get<Shield>(normal->player()), nullptr);
  // A slower gun on Hard.
  const auto* gn = normal->world().get<world::Gun>(normal->player());
  const auto* gh = hard->world().get<world::Gun>(hard->player());
  ASSERT_TRUE(gn && gh);
  EXPECT_FLOAT_EQ(gh->cooldown, 2 * gn->cooldown);
  // Reverse thrust moves the Normal ship backwards and the Hard one not at all.
  const Controls back{.reverse = true};
  for (int i = 0; i < 30; ++i) {
    ASSERT_TRUE(normal->step(back));
    ASSERT_TRUE(hard->step(back));
  }
  EXPECT_LT(player_at(*normal).position.x, -5);
  EXPECT_NEAR(player_at(*hard).position.x, 0, 0.01);
  // Enemies are the same on every level.
  const auto enemy_hp = [](const Sim& s) {
    for (const world::Entity e : ships(s)) {
      if (e != s.player()) return s.world().get<Health>(e)->max;
    }
    return 0.0f;
  };
  EXPECT_GT(enemy_hp(*normal), 0);
  EXPECT_EQ(enemy_hp(*normal), enemy_hp(*hard));
}

TEST(Voidfarer, AutopilotReachesTheBossWave) {
  auto sim = make();
  ASSERT_TRUE(sim);
  u64 reached = 0;
  for (u32 frame = 1; frame <= 1800 && reached == 0; ++frame) {
    ASSERT_TRUE(sim->step(sim->autopilot()));
    if (sim->summary().wave_step >= 2) reached = frame;
  }
  const FrameSummary s = sim->summary();
  EXPECT_GT(reached, 0u) << "wave step " << s.wave_step << ", killed " << s.killed << ", hull "
                         << s.hull;
  EXPECT_TRUE(s.player_alive);
  EXPECT_GE(s.killed, 15u);  // ten fighters and five bombers
  // Points from the data: 100 a fighter, 250 a bomber.
  EXPECT_GE(s.score, 10u * 100 + 5u * 250);
  EXPECT_FALSE(sim->take_sounds().empty());
}

TEST(Voidfarer, PlayerCanDie) {
  auto sim = make(Difficulty::kHard);
  ASSERT_TRUE(sim);
  u32 frame = 0;
  while (sim->summary().player_alive && frame < 3600) {
    ASSERT_TRUE(sim->step({}));  // a sitting duck
    ++frame;
  }
  const FrameSummary dead = sim->summary();
  ASSERT_FALSE(dead.player_alive) << "hull " << dead.hull << " after " << frame << " frames";
  EXPECT_EQ(dead.hull, 0);
  EXPECT_FALSE(sim->world().alive(sim->player()));
  EXPECT_EQ(sim->autopilot(), Controls{});
  // The world runs on without the player.
  for (int i = 0; i < 120; ++i) ASSERT_TRUE(sim->step({.thrust = true, .fire = true}));
  EXPECT_EQ(sim->summary().frame, dead.frame + 120);
  EXPECT_GT(sim->summary().enemies, 0u);
}

TEST(Voidfarer, ThrustAndTurnMoveThePlayer) {
  auto sim = make();
  ASSERT_TRUE(sim);
  ASSERT_TRUE(sim->step({}));
  const world::Transform start = player_at(*sim);
  for (int i = 0; i < 30; ++i) ASSERT_TRUE(sim->step({.thrust = true}));
  const world::Transform thrust = player_at(*sim);
  EXPECT_GT(thrust.position.x - start.position.x, 20);  // along the heading (+x at angle 0)
  EXPECT_NEAR(thrust.position.y, start.position.y, 1);
  for (int i = 0; i < 20; ++i) ASSERT_TRUE(sim->step({.left = true}));
  const f32 left = player_at(*sim).angle;
  EXPECT_GT(left - thrust.angle, 0.5f);  // counter-clockwise
  for (int i = 0; i < 40; ++i) ASSERT_TRUE(sim->step({.right = true}));
  EXPECT_LT(player_at(*sim).angle, left - 0.5f);
  // Fire shoots bullets, with a "laser" each.
  (void)sim->take_sounds();
  for (int i = 0; i < 20; ++i) ASSERT_TRUE(sim->step({.fire = true}));
  const std::vector<SoundEvent> sounds = sim->take_sounds();
  const u32 laser = runtime_id("laser").value;
  EXPECT_GT(std::count_if(sounds.begin(), sounds.end(),
                          [&](const SoundEvent& s) { return s.sound == laser; }),
            0);
}

TEST(Voidfarer, AiStateMachinesRun) {
  auto sim = make();
  ASSERT_TRUE(sim);
  std::vector<world::Entity> fighters;
  for (const world::Entity e : ships(*sim)) {
    if (!sim->ai_state(e).empty()) fighters.push_back(e);
  }
  ASSERT_EQ(fighters.size(), 10u);
  EXPECT_EQ(sim->ai_state(fighters[0]), "Approach");
  EXPECT_EQ(sim->ai_state(sim->player()), "");
  bool attacked = false;
  for (int frame = 0; frame < 600 && !attacked; ++frame) {
    ASSERT_TRUE(sim->step(sim->autopilot()));
    for (const world::Entity e : fighters) attacked = attacked || sim->ai_state(e) == "Attack";
  }
  EXPECT_TRUE(attacked);
}

}  // namespace
}  // namespace keel::voidfarer
