// The animation behaviour: frame-counted clips, key frames, SetAnimation's modifiers.
#include "clip.h"
#include "log_printer.h"
#include "match.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace rumble {
namespace {

namespace fsm = keel::fsm;
using ::testing::HasSubstr;

Clip make_clip(std::string name, u32 frames) {
  Clip c;
  c.name = std::move(name);
  c.frames = frames;
  return c;
}

// Steps `n` ticks after the start tick; returns the last step.
ClipPlayer::Step advance(ClipPlayer& p, u64& tick, u32 n) {
  ClipPlayer::Step s;
  for (u32 i = 0; i < n; ++i) s = p.step(++tick);
  return s;
}

TEST(Animation, KeepFrame_25Of100Into50StartsAt12) {
  // The book's example: 25 frames into a 100-frame animation, a 50-frame one with keepframe
  // starts at frame 12 (25% of 50 is 12.5, truncated).
  EXPECT_EQ(keep_frame(25, 100, 50), 12u);
  const Clip walk = make_clip("walk", 100);
  const Clip run = make_clip("run", 50);
  ClipPlayer player;
  u64 tick = 0;
  player.play(walk, fsm::kAnimDefault, tick);
  advance(player, tick, 25);
  ASSERT_EQ(player.frame(), 25u);
  player.play(run, fsm::kAnimDefault | fsm::kAnimKeepFrame, tick);
  EXPECT_EQ(player.frame(), 12u);
  EXPECT_EQ(player.clip(), &run);
  // Without keepframe the clip starts at 0.
  player.play(walk, fsm::kAnimDefault, tick);
  EXPECT_EQ(player.frame(), 0u);
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

TEST(Animation, ForwardLoopsAndReportsTheLastFrame) {
  const Clip c = make_clip("c", 4);
  ClipPlayer p;
  u64 tick = 10;
  p.play(c, fsm::kAnimDefault, tick);
  EXPECT_FALSE(p.step(tick).moved);  // the start tick shows frame 0
  EXPECT_EQ(advance(p, tick, 2).frame, 2u);
  ClipPlayer::Step last = advance(p, tick, 1);
  EXPECT_EQ(last.frame, 3u);
  EXPECT_TRUE(last.done);
  ClipPlayer::Step wrapped = advance(p, tick, 1);
  EXPECT_EQ(wrapped.frame, 0u);
  EXPECT_FALSE(wrapped.done);
  EXPECT_TRUE(advance(p, tick, 3).done);  // and again each loop
}

TEST(Animation, NoRepeatHoldsTheLastFrame) {
  const Clip c = make_clip("c", 3);
  ClipPlayer p;
  u64 tick = 0;
  p.play(c, fsm::kAnimBlend, tick);  // "-repeat"
  EXPECT_TRUE(advance(p, tick, 2).done);
  for (int i = 0; i < 5; ++i) {
    const ClipPlayer::Step s = advance(p, tick, 1);
    EXPECT_EQ(s.frame, 2u);
    EXPECT_FALSE(s.moved);
    EXPECT_FALSE(s.done);  // anim_done is sent once
  }
}

TEST(Animation, ReversePlaysBackwards) {
  const Clip c = make_clip("c", 5);
  ClipPlayer p;
  u64 tick = 0;
  p.play(c, fsm::kAnimDefault | fsm::kAnimReverse, tick);
  EXPECT_EQ(p.frame(), 4u);
  EXPECT_EQ(advance(p, tick, 1).frame, 3u);
  const ClipPlayer::Step end = advance(p, tick, 3);
  EXPECT_EQ(end.frame, 0u);
  EXPECT_TRUE(end.done);
  EXPECT_EQ(advance(p, tick, 1).frame, 4u);
}

TEST(Animation, BlendingCountsDownAndNoBlendSnaps) {
  Clip c = make_clip("c", 10);
  c.blend = 3;
  ClipPlayer p;
  u64 tick = 0;
  p.play(c, fsm::kAnimDefault, tick);
  EXPECT_EQ(p.blend_left(), 3u);
  advance(p, tick, 2);
  EXPECT_EQ(p.blend_left(), 1u);
  p.play(c, fsm::kAnimRepeat, tick);  // "-blending"
  EXPECT_EQ(p.blend_left(), 0u);
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
