// The animation behaviour: frame-counted clips, key frames, SetAnimation's modifiers.
#include "log_printer.h"
#include "match.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace rumble {
namespace {

namespace fsm = keel::fsm;
using ::testing::HasSubstr;

// A match of one FSM and a roster, fighters "A" and "B".
std::unique_ptr<Match> make_match(std::string fsm, std::string roster, std::string inputs) {
  MatchSetup setup;
  setup.fsm_sources = {{"test.fsm", std::move(fsm)}};
  setup.roster_source = std::move(roster);
  setup.fighters = {"A", "B"};
  auto in = ScriptedInput::parse(std::move(inputs), "in", setup.fighters);
  if (!in) return nullptr;
  setup.inputs = std::make_unique<ScriptedInput>(std::move(*in));
  auto match = Match::create(std::move(setup));
  if (!match) {
    ADD_FAILURE() << match.error().to_string();
    return nullptr;
  }
  return std::move(*match);
}

constexpr const char* kLooper = R"(
FSM("Looper", "Character")
{
    InitialState("Loop");
    DefaultBehavior("animate");
    State("Loop")
    {
        On("state_enter")    SetAnimation("Loop");
        On("input_attack")   Transition("Once");
    }
    State("Once")
    {
        On("state_enter")    SetAnimation("Once", "-repeat");
        On("anim_done")      Error("once done");
    }
}
)";

TEST(Animation, RosterClipsPlayOnTheEngineAnimator) {
  // The roster's frames, Blend and keys reach fsm::Animator; a clip started on a tick shows its
  // first frame for that tick.
  auto m = make_match(kLooper, R"(
Fighter("A", "Looper") { Animation("Loop", "a_loop"); Animation("Once", "a_once"); }
Fighter("B", "Looper") { Animation("Loop", "a_loop"); Animation("Once", "a_once"); Position(50); }
Clip("a_loop", 4);
Clip("a_once", 3) { Blend(2); Key(1, "mid"); }
)",
                      "Press(10, \"A\", \"attack\");");
  ASSERT_NE(m, nullptr);
  m->advance_to(3);  // ticks 0 (start), 1, 2
  EXPECT_EQ(m->fighter(0).animation.frame(), 2u);
  m->advance_to(6);  // 3, then 0 again: the clip loops
  EXPECT_EQ(m->fighter(0).animation.frame(), 1u);
  m->advance_to(11);  // tick 10: "Once" starts and holds frame 0 for the tick
  const Fighter& a = m->fighter(0);
  EXPECT_EQ(a.animation.clip()->name, "a_once");
  EXPECT_EQ(a.animation.frame(), 0u);
  EXPECT_EQ(a.animation.blend_frames_left(), 2u);  // the roster's Blend(2)
  m->advance_to(14);                               // frames 1, 2, then it holds
  EXPECT_TRUE(a.animation.holding());
  EXPECT_EQ(a.animation.blend_frames_left(), 0u);
  const std::string log = format_log(*m);
  EXPECT_THAT(log, HasSubstr("A key frame mid (a_once frame 1)"));
  EXPECT_THAT(log, HasSubstr("once done"));
  EXPECT_EQ(m->fighter(1).animation.clip()->name, "a_loop");
}

TEST(Animation, KeepFrameThroughTheFsm) {
  // SetAnimation("Run", "keepframe") from an FSM, through the fighter's alias table.
  MatchSetup setup;
  setup.fsm_sources = {{"walker.fsm", R"(
FSM("Walker", "Character")
{
    InitialState("Walk");
    DefaultBehavior("animate");
    State("Walk")
    {
        On("state_enter")   SetAnimation("Walk");
        On("input_attack")  Transition("Run");
    }
    State("Run")
    {
        On("state_enter")   SetAnimation("Run", "keepframe");
    }
}
)"}};
  setup.roster_source = R"(
Fighter("A", "Walker") { Animation("Walk", "a_walk"); Animation("Run", "a_run"); }
Fighter("B", "Walker") { Animation("Walk", "a_walk"); Animation("Run", "a_run"); Position(50); }
Clip("a_walk", 100);
Clip("a_run", 50);
)";
  setup.fighters = {"A", "B"};
  auto inputs = ScriptedInput::parse("Press(25, \"A\", \"attack\");", "in", setup.fighters);
  ASSERT_TRUE(inputs.has_value());
  setup.inputs = std::make_unique<ScriptedInput>(std::move(*inputs));
  auto match = Match::create(std::move(setup));
  ASSERT_TRUE(match.has_value()) << match.error().to_string();
  Match& m = **match;
  m.advance_to(26);  // the walk started before tick 0, so it shows frame 25 on tick 25
  const Fighter& a = m.fighter(0);
  EXPECT_EQ(a.brain.state_name(), "Run");
  EXPECT_EQ(a.animation.clip()->name, "a_run");
  EXPECT_EQ(a.animation.frame(), 12u);
  EXPECT_EQ(m.fighter(1).animation.frame(), 25u);  // B kept walking
  EXPECT_THAT(format_log(m), HasSubstr("A plays a_run as Run from frame 12 (blend, keepframe)"));
}

TEST(Animation, KeyFramesBecomeFsmEventsInTheLog) {
  // The jab's strike (frame 8) and link (frame 14) marks reach the Hero's FSM.
  MatchSetup setup = MatchSetup::from_data_dir(std::string(KEEL_SOURCE_DIR) + "/games/rumble/data");
  auto inputs = ScriptedInput::parse("Press(20, \"Hero\", \"attack\");", "in", setup.fighters);
  ASSERT_TRUE(inputs.has_value());
  setup.inputs = std::make_unique<ScriptedInput>(std::move(*inputs));
  auto match = Match::create(std::move(setup));
  ASSERT_TRUE(match.has_value());
  (*match)->run(60);
  const std::string log = format_log(**match);
  EXPECT_THAT(log, HasSubstr("   28   0.47s  Hero key frame strike (hero_jab frame 8)"));
  EXPECT_THAT(log, HasSubstr("   34   0.57s  Hero key frame link (hero_jab frame 14)"));
  EXPECT_THAT(log, HasSubstr("   43   0.72s  Hero Attack -> Stance"));  // frame 23 = anim_done
  EXPECT_THAT(log, HasSubstr("Hero misses Brute with hero_jab (distance 40)"));
}

}  // namespace
}  // namespace rumble
