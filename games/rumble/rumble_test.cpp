// keel-rumble: determinism, the combo windows, throws through links, death, the kernel tasks.
#include "log_printer.h"
#include "match.h"

#include "keel/core/file.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace rumble {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

const std::string kDataDir = std::string(KEEL_SOURCE_DIR) + "/games/rumble/data";

std::unique_ptr<Match> make_match(u64 seed) {
  MatchSetup setup = MatchSetup::from_data_dir(kDataDir);
  setup.seed = seed;
  auto match = Match::create(std::move(setup));
  EXPECT_TRUE(match.has_value()) << (match ? "" : match.error().to_string());
  return match ? std::move(*match) : nullptr;
}

std::unique_ptr<Match> make_scripted(const std::string& script, std::string roster = {}) {
  MatchSetup setup = MatchSetup::from_data_dir(kDataDir);
  setup.roster_source = std::move(roster);
  auto inputs = ScriptedInput::parse(script, "inputs", setup.fighters);
  EXPECT_TRUE(inputs.has_value()) << (inputs ? "" : inputs.error().to_string());
  if (!inputs) return nullptr;
  setup.inputs = std::make_unique<ScriptedInput>(std::move(*inputs));
  auto match = Match::create(std::move(setup));
  EXPECT_TRUE(match.has_value()) << (match ? "" : match.error().to_string());
  return match ? std::move(*match) : nullptr;
}

// "Attack", "Attack2", ... : the states fighter `f` entered, in order.
std::vector<std::string> states(const Match& m, s32 f) {
  std::vector<std::string> out;
  for (const MatchEvent& e : m.events()) {
    if (e.kind == EventKind::kState && e.fighter == f) out.emplace_back(e.b);
  }
  return out;
}

usize count(const Match& m, EventKind kind, s32 f = -2) {
  return static_cast<usize>(std::count_if(m.events().begin(), m.events().end(), [&](auto& e) {
    return e.kind == kind && (f == -2 || e.fighter == f);
  }));
}

std::string roster_text() {
  auto text = keel::read_file(kDataDir + "/roster.txt");
  EXPECT_TRUE(text.has_value());
  return text ? *text : std::string();
}

std::string replace(std::string s, std::string_view from, std::string_view to) {
  const usize at = s.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) s.replace(at, from.size(), to);
  return s;
}

// Walks the Hero into reach (ticks 0-16) before the presses under test.
const std::string kWalkIn = "Hold(0, 16, \"Hero\", \"forward\");\n";

// ---- determinism ----

TEST(Rumble, SameSeedGivesByteIdenticalLog) {
  auto a = make_match(7);
  auto b = make_match(7);
  ASSERT_TRUE(a && b);
  a->run(7200);
  b->run(7200);
  const std::string log_a = format_log(*a);
  EXPECT_EQ(log_a, format_log(*b));
  EXPECT_EQ(format_log(*a, {.verbose = true}), format_log(*b, {.verbose = true}));
  EXPECT_THAT(log_a, HasSubstr("strikes at"));
  EXPECT_GT(a->events().size(), 50u);
}

TEST(Rumble, DifferentSeedsDiffer) {
  auto a = make_match(7);
  auto b = make_match(8);
  ASSERT_TRUE(a && b);
  a->run(7200);
  b->run(7200);
  EXPECT_NE(format_log(*a), format_log(*b));
}

TEST(Rumble, SeededFightEndsWithAWinner) {
  auto m = make_match(7);
  ASSERT_TRUE(m);
  m->run(7200);
  ASSERT_TRUE(m->over());
  EXPECT_EQ(m->events().back().kind, EventKind::kKnockOut);
  EXPECT_THAT(format_log(*m), HasSubstr("Winner: "));
}

// ---- the kernel tasks ----

TEST(Rumble, RunsAsKernelTasksOnAFixed60HzStep) {
  auto m = make_match(1);
  ASSERT_TRUE(m);
  const std::string tasks = m->kernel().describe();
  const usize input = tasks.find("rumble.input");
  const usize brain = tasks.find("rumble.brain");
  const usize animation = tasks.find("rumble.animation");
  const usize combat = tasks.find("rumble.combat");
  ASSERT_NE(combat, std::string::npos) << tasks;
  EXPECT_LT(input, brain);
  EXPECT_LT(brain, animation);
  EXPECT_LT(animation, combat);
  for (u64 i = 0; i < 10; ++i) {
    ASSERT_TRUE(m->step());
    EXPECT_FALSE(m->over());
    EXPECT_EQ(m->kernel().frame().fixed_steps, 1u);
    EXPECT_DOUBLE_EQ(m->kernel().frame().fixed_dt, kTickSeconds);
    EXPECT_EQ(m->ticks(), i + 1);
  }
}

// ---- the three-hit combo ----

TEST(Combo, PressesInsideTheLinkWindowsGiveAttackAttack2Attack3) {
  // Jab: link frame 14 (tick 34 when started on tick 20); cross: link frame 13 (tick 47).
  auto m = make_scripted(kWalkIn +
                         "Press(20, \"Hero\", \"attack\");"
                         "Press(26, \"Hero\", \"attack\");"
                         "Press(44, \"Hero\", \"attack\");");
  ASSERT_TRUE(m);
  m->run(120);
  const std::vector<std::string> hero = states(*m, 0);
  EXPECT_EQ(hero, (std::vector<std::string>{"Stance", "Attack", "Attack2", "Attack3", "Stance"}));
  EXPECT_EQ(count(*m, EventKind::kComboStep, 0), 2u);
  const std::string log = format_log(*m);
  EXPECT_THAT(log, HasSubstr("Hero COMBO Attack -> Attack2"));
  EXPECT_THAT(log, HasSubstr("Hero COMBO Attack2 -> Attack3"));
  EXPECT_EQ(count(*m, EventKind::kStrike, 0), 3u);    // jab, cross, uppercut
  EXPECT_EQ(m->fighter(1).health, 120 - 5 - 7 - 12);  // all three land
  EXPECT_EQ(count(*m, EventKind::kError), 0u);
}

TEST(Combo, PressAfterTheLinkFrameDoesNotChain) {
  // The second press comes on tick 36, after the jab's link frame (tick 34).
  auto m = make_scripted(kWalkIn +
                         "Press(20, \"Hero\", \"attack\");"
                         "Press(36, \"Hero\", \"attack\");");
  ASSERT_TRUE(m);
  m->run(120);
  EXPECT_EQ(states(*m, 0), (std::vector<std::string>{"Stance", "Attack", "Stance"}));
  EXPECT_EQ(count(*m, EventKind::kComboStep), 0u);
}

TEST(Combo, SecondHitWithoutThirdPressEndsAfterAttack2) {
  auto m = make_scripted(kWalkIn +
                         "Press(20, \"Hero\", \"attack\");"
                         "Press(30, \"Hero\", \"attack\");"
                         "Press(48, \"Hero\", \"attack\");");  // after the cross's link (47)
  ASSERT_TRUE(m);
  m->run(120);
  EXPECT_EQ(states(*m, 0), (std::vector<std::string>{"Stance", "Attack", "Attack2", "Stance"}));
}

TEST(Combo, PressInStanceOnlyStartsTheAttack) {
  // Two presses on consecutive ticks: the first starts the jab in Stance; the second lands in
  // Attack (inside the window). Pressing in Stance never sets the combo flag by itself.
  auto once = make_scripted(kWalkIn + "Press(20, \"Hero\", \"attack\");");
  ASSERT_TRUE(once);
  once->run(120);
  EXPECT_EQ(states(*once, 0), (std::vector<std::string>{"Stance", "Attack", "Stance"}));
  auto twice = make_scripted(kWalkIn +
                             "Press(20, \"Hero\", \"attack\");"
                             "Press(21, \"Hero\", \"attack\");");
  ASSERT_TRUE(twice);
  twice->run(50);
  EXPECT_EQ(states(*twice, 0)[2], "Attack2");
}

TEST(Combo, TheBruteHasNoCombo) {
  // DefaultCharacter has one attack: extra presses during it change nothing.
  auto m = make_scripted(
      "Hold(0, 16, \"Brute\", \"forward\");"
      "Press(20, \"Brute\", \"attack\");"
      "Press(25, \"Brute\", \"attack\");");
  ASSERT_TRUE(m);
  m->run(120);
  EXPECT_EQ(states(*m, 1), (std::vector<std::string>{"Stance", "Attack", "Stance"}));
}

TEST(Combo, AttackWithoutStrikeFrameReportsTheError) {
  // The book's error detection: an attack clip with no strike frame is an animator error.
  auto m = make_scripted(kWalkIn + "Press(20, \"Hero\", \"attack\");",
                         replace(roster_text(), "Key(8, \"strike\");  ", ""));
  ASSERT_TRUE(m);
  m->run(80);
  ASSERT_EQ(count(*m, EventKind::kError, 0), 1u);
  EXPECT_THAT(format_log(*m), HasSubstr("Hero FSM error: Attack missing strike key-frame"));
  EXPECT_EQ(m->fighter(0).brain.state_name(), "Stance");
}

// ---- the throw ----

TEST(Throw, LinksBothFightersAndTheThrownOneReceivesItsEvent) {
  auto m = make_scripted(kWalkIn + "Press(20, \"Hero\", \"throw\");");
  ASSERT_TRUE(m);
  Fighter& hero = m->fighter(0);
  Fighter& brute = m->fighter(1);
  m->advance_to(21);  // tick 20: Hero enters Throw and links
  EXPECT_EQ(hero.brain.state_name(), "Throw");
  EXPECT_TRUE(hero.brain.has_link("throw"));
  EXPECT_TRUE(brute.brain.has_link("throw"));
  EXPECT_EQ(brute.brain.state_name(), "Stance");
  m->advance_to(37);  // the throw's strike frame 16: tick 36
  EXPECT_EQ(brute.brain.state_name(), "Thrown");
  EXPECT_TRUE(brute.brain.has_link("throw"));  // still held while thrown
  const auto thrown = std::find_if(m->events().begin(), m->events().end(), [](const auto& e) {
    return e.kind == EventKind::kFsmEvent && e.fighter == 1 && e.a == "event_thrown";
  });
  ASSERT_NE(thrown, m->events().end());
  EXPECT_EQ(thrown->tick, 36u);
  EXPECT_EQ(brute.health, 120 - 14);
  m->advance_to(120);  // the throw ends: the thrower lets go, both links are gone
  EXPECT_FALSE(hero.brain.has_link("throw"));
  EXPECT_FALSE(brute.brain.has_link("throw"));
  EXPECT_GE(count(*m, EventKind::kUnlink, 0), 1u);
  const std::string log = format_log(*m);
  EXPECT_THAT(log, HasSubstr("Hero links 'throw' to Brute"));
  EXPECT_THAT(log, HasSubstr("Brute handles event_thrown"));
  EXPECT_THAT(log, HasSubstr("Brute Stance -> Thrown"));
}

TEST(Throw, RefusedWhenTheTargetIsNotStanding) {
  // The Brute is mid-swing when the Hero grabs: Attack has no link_throw handler, no link.
  auto m = make_scripted(kWalkIn +
                         "Press(18, \"Brute\", \"attack\");"
                         "Press(20, \"Hero\", \"throw\");");
  ASSERT_TRUE(m);
  m->run(80);
  EXPECT_THAT(format_log(*m), HasSubstr("Hero tries to link 'throw' to Brute: refused"));
  EXPECT_EQ(count(*m, EventKind::kUnlink), 0u);
  const std::vector<std::string> brute = states(*m, 1);
  EXPECT_EQ(std::count(brute.begin(), brute.end(), "Thrown"), 0);
}

TEST(Throw, EscapingBeforeTheStrikeFrameBreaksTheLink) {
  // The Brute accepts, then attacks before the strike frame: leaving Stance breaks the link.
  auto m = make_scripted(kWalkIn +
                         "Press(20, \"Hero\", \"throw\");"
                         "Press(25, \"Brute\", \"attack\");");
  ASSERT_TRUE(m);
  m->advance_to(25);
  EXPECT_TRUE(m->fighter(0).brain.has_link("throw"));  // accepted at tick 20
  m->advance_to(26);
  EXPECT_FALSE(m->fighter(0).brain.has_link("throw"));
  EXPECT_FALSE(m->fighter(1).brain.has_link("throw"));
  m->run(80);
  const std::vector<std::string> brute = states(*m, 1);
  EXPECT_EQ(std::count(brute.begin(), brute.end(), "Thrown"), 0);
}

// ---- death ----

TEST(Death, EndsTheFight) {
  // A Brute with 5 health: the jab (5 damage) kills it; Die plays out, Dead ends the fight.
  auto m = make_scripted(kWalkIn +
                             "Press(20, \"Hero\", \"attack\");"
                             "Press(200, \"Hero\", \"attack\");",
                         replace(roster_text(), "Health(120);", "Health(5);"));
  ASSERT_TRUE(m);
  m->run(1000);
  ASSERT_TRUE(m->over());
  EXPECT_EQ(m->winner(), 0u);
  EXPECT_EQ(states(*m, 1), (std::vector<std::string>{"Stance", "Die", "Dead"}));
  EXPECT_EQ(count(*m, EventKind::kDeath, 1), 1u);
  EXPECT_EQ(m->events().back().kind, EventKind::kKnockOut);
  // Strike on tick 28 (jab frame 8), the 50-frame death clip ends 49 ticks later.
  EXPECT_EQ(m->events().back().tick, 28u + 49u);
  EXPECT_EQ(m->ticks(), 28u + 50u);  // nothing runs after the knock-out (the tick-200 press)
  EXPECT_EQ(m->kernel().running_count(), 0u);
  EXPECT_FALSE(m->step());
  EXPECT_THAT(format_log(*m), HasSubstr("K.O.! Hero wins with 100 health left\n"));
}

TEST(Death, TimeUpGoesToTheHealthierFighter) {
  auto m = make_scripted(kWalkIn + "Press(20, \"Hero\", \"attack\");");
  ASSERT_TRUE(m);
  m->run(200);
  ASSERT_TRUE(m->over());
  EXPECT_EQ(m->events().back().kind, EventKind::kTimeUp);
  // Hero 100 vs Brute 115 (of 120): more health left wins, whatever the maximum.
  EXPECT_EQ(m->winner(), 1u);
}

// ---- data errors ----

TEST(Data, InputScriptErrorsAreLocated) {
  const std::vector<std::string> fighters = {"Hero", "Brute"};
  auto bad = ScriptedInput::parse("Press(1, \"Hero\", \"attack\");\nPress(2, \"Zed\", \"attack\");",
                                  "in.txt", fighters);
  ASSERT_FALSE(bad.has_value());
  EXPECT_THAT(bad.error().to_string(), HasSubstr("in.txt:2:10"));
  EXPECT_THAT(bad.error().to_string(), HasSubstr("no fighter called 'Zed'"));
  auto button = ScriptedInput::parse("Hold(1, 3, \"Hero\", \"jump\");", "in.txt", fighters);
  ASSERT_FALSE(button.has_value());
  EXPECT_THAT(button.error().to_string(), HasSubstr("unknown button 'jump'"));
  auto good = ScriptedInput::parse("Hold(1, 3, \"Brute\", \"back\");", "in.txt", fighters);
  ASSERT_TRUE(good.has_value());
  std::vector<Press> presses;
  good->poll(0, {}, presses);
  good->poll(3, {}, presses);
  ASSERT_EQ(presses.size(), 1u);
  EXPECT_EQ(presses[0].fighter, 1u);
  EXPECT_EQ(presses[0].button, Button::kBack);
}

TEST(Data, RosterErrorsAreLocated) {
  MatchSetup setup = MatchSetup::from_data_dir(kDataDir);
  setup.roster_source = replace(roster_text(), "Key(12, \"strike\")", "Key(40, \"strike\")");
  auto match = Match::create(std::move(setup));
  ASSERT_FALSE(match.has_value());
  EXPECT_THAT(match.error().to_string(), HasSubstr("key frame 40 is past the end"));
  EXPECT_THAT(match.error().to_string(), HasSubstr("roster:"));

  MatchSetup missing = MatchSetup::from_data_dir(kDataDir);
  missing.roster_source = replace(roster_text(), "\"hero_hit\");", "\"hero_ouch\");");
  auto m2 = Match::create(std::move(missing));
  ASSERT_FALSE(m2.has_value());
  EXPECT_THAT(m2.error().to_string(), HasSubstr("uses clip 'hero_ouch', which is not defined"));
}

TEST(Data, FighterWithUnknownFsmIsRefused) {
  MatchSetup setup = MatchSetup::from_data_dir(kDataDir);
  setup.roster_source = replace(roster_text(), "Fighter(\"Brute\", \"DefaultCharacter\")",
                                "Fighter(\"Brute\", \"Ogre\")");
  auto match = Match::create(std::move(setup));
  ASSERT_FALSE(match.has_value());
  EXPECT_THAT(match.error().to_string(), HasSubstr("Ogre"));
}

}  // namespace
}  // namespace rumble
