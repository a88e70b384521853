// The fighting-game character of chapter 7 (checks 46-51, 66) from examples/default_character.fsm.
// The same checks run against a child FSM that only names DefaultCharacter as its parent (check
// 60).
#include "keel/fsm/testing/fsm_fixture.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace keel::fsm {
namespace {

using ::testing::ElementsAre;
using testing::kAnimate;
using testing::kControls;
using testing::kDead;
using testing::kPhysics;
using testing::Recorder;

constexpr const char* kEmptyChild = R"(
FSM("EmptyChild", "Character")
{
    Parent("DefaultCharacter");
    InitialState("Stance");
}
)";

// Runs every test on DefaultCharacter and on a child that adds nothing (check 60).
class FsmCharacter : public ::testing::TestWithParam<const char*> {
 protected:
  void SetUp() override {
    library_ = testing::load({testing::read_example("default_character.fsm"), kEmptyChild},
                             testing::character_types());
    ASSERT_NE(library_, nullptr);
    r_.declare({"ChooseTarget", "FaceTarget", "DoDamage"});
    ASSERT_TRUE(fighter_.init(nullptr, *library_->find(GetParam()), r_.env));
  }

  void attack() {
    ASSERT_EQ(fighter_.event("input_attack"), EventResult::kChangedState);
    ASSERT_EQ(fighter_.state_name(), "Attack");
    r_.take();
  }

  std::unique_ptr<FsmLibrary> library_;
  Recorder r_;
  FsmInstance fighter_;
};

TEST_P(FsmCharacter, Check46_InitEntersStance) {
  EXPECT_EQ(fighter_.state_name(), "Stance");
  EXPECT_THAT(r_.take(), ElementsAre("anim:Stance"));
  EXPECT_EQ(fighter_.behavior(), kAnimate | kPhysics | kControls);
  EXPECT_EQ(fighter_.behavior(), 0x7u);
  EXPECT_TRUE(fighter_.has_behavior("controls"));
}

TEST_P(FsmCharacter, Check47_AttackEntry) {
  r_.take();
  EXPECT_EQ(fighter_.event("input_attack"), EventResult::kChangedState);
  EXPECT_EQ(fighter_.state_name(), "Attack");
  EXPECT_THAT(r_.take(), ElementsAre("call:ChooseTarget", "anim:Attack"));
  EXPECT_EQ(fighter_.behavior(), kAnimate | kPhysics);  // no controls
}

TEST_P(FsmCharacter, Check48_AttackRunAndStrike) {
  attack();
  EXPECT_EQ(fighter_.run(), EventResult::kSucceeded);
  EXPECT_THAT(r_.take(), ElementsAre("call:FaceTarget"));
  EXPECT_EQ(fighter_.event("keyframe_strike"), EventResult::kSucceeded);
  EXPECT_THAT(r_.take(), ElementsAre("call:DoDamage"));
  EXPECT_EQ(fighter_.state_name(), "Attack");
  EXPECT_EQ(fighter_.event("anim_done"), EventResult::kChangedState);
  EXPECT_EQ(fighter_.state_name(), "Stance");
  EXPECT_THAT(r_.take(), ElementsAre("anim:Stance"));  // no error: the strike happened
}

TEST_P(FsmCharacter, Check49_DamageAndDeath) {
  attack();
  EXPECT_EQ(fighter_.event("event_damage"), EventResult::kChangedState);
  EXPECT_EQ(fighter_.state_name(), "Damaged");
  EXPECT_THAT(r_.take(), ElementsAre("anim:Damaged"));
  EXPECT_EQ(fighter_.event("anim_done"), EventResult::kChangedState);
  EXPECT_EQ(fighter_.state_name(), "Stance");

  // Death from Stance, Attack and Damaged.
  for (const char* from : {"Stance", "Attack", "Damaged"}) {
    SCOPED_TRACE(from);
    fighter_.reset();
    if (std::string_view(from) == "Attack") fighter_.event("input_attack");
    if (std::string_view(from) == "Damaged") fighter_.event("event_damage");
    ASSERT_EQ(fighter_.state_name(), from);
    r_.take();
    EXPECT_EQ(fighter_.event("event_death"), EventResult::kChangedState);
    EXPECT_EQ(fighter_.state_name(), "Die");
    EXPECT_EQ(fighter_.behavior(), kAnimate | kPhysics | kDead);
    EXPECT_THAT(r_.take(), ElementsAre("anim:Die"));
    EXPECT_FALSE(r_.last_animation.repeat());  // "-repeat": the body stays down
    EXPECT_EQ(fighter_.event("anim_done"), EventResult::kChangedState);
    EXPECT_EQ(fighter_.state_name(), "Dead");
    EXPECT_EQ(fighter_.behavior(), kDead);
    for (const char* e :
         {"anim_done", "event_damage", "event_death", "input_attack", "state_run"}) {
      EXPECT_EQ(fighter_.event(e), EventResult::kNotFound) << e;
    }
    EXPECT_EQ(fighter_.run(), EventResult::kNotFound);
    EXPECT_EQ(fighter_.state_name(), "Dead");
  }
}

TEST_P(FsmCharacter, Check50_MissingStrikeIsReported) {
  attack();
  EXPECT_EQ(fighter_.event("anim_done"), EventResult::kChangedState);
  EXPECT_THAT(r_.take(), ElementsAre("error:Attack missing strike key-frame", "anim:Stance"));
  EXPECT_EQ(fighter_.state_name(), "Stance");

  attack();
  fighter_.event("keyframe_strike");
  EXPECT_TRUE(fighter_.flag("strikeHappened"));
  fighter_.event("anim_done");
  EXPECT_THAT(r_.take(), ElementsAre("call:DoDamage", "anim:Stance"));

  // Flags are cleared on entry: the strike of the previous attack does not count.
  attack();
  EXPECT_FALSE(fighter_.flag("strikeHappened"));
  EXPECT_EQ(fighter_.flags(), 0u);
  fighter_.event("anim_done");
  EXPECT_THAT(r_.take(), ElementsAre("error:Attack missing strike key-frame", "anim:Stance"));
}

TEST_P(FsmCharacter, Check51_ComboWindow) {
  attack();
  EXPECT_EQ(fighter_.event("input_attack"), EventResult::kSucceeded);
  EXPECT_TRUE(fighter_.flag("userHitAttack"));
  EXPECT_EQ(fighter_.event("keyframe_link"), EventResult::kChangedState);
  EXPECT_EQ(fighter_.state_name(), "Attack2");
  EXPECT_THAT(r_.take(), ElementsAre("call:ChooseTarget", "anim:Attack2"));
  EXPECT_FALSE(r_.last_animation.blend());  // "-blending"

  // Without the second press the link frame passes and the first attack plays out.
  fighter_.reset();
  attack();
  EXPECT_EQ(fighter_.event("keyframe_link"), EventResult::kSucceeded);
  EXPECT_EQ(fighter_.state_name(), "Attack");

  // A press in Stance only starts the attack: the flag starts clear in Attack.
  fighter_.reset();
  EXPECT_EQ(fighter_.event("input_attack"), EventResult::kChangedState);
  EXPECT_FALSE(fighter_.flag("userHitAttack"));
  EXPECT_EQ(fighter_.event("keyframe_link"), EventResult::kSucceeded);
  EXPECT_EQ(fighter_.state_name(), "Attack");
}

TEST_P(FsmCharacter, Check66_ResetAndRun) {
  attack();
  fighter_.event("event_death");
  fighter_.event("anim_done");
  ASSERT_EQ(fighter_.state_name(), "Dead");
  r_.take();
  fighter_.reset();
  EXPECT_EQ(fighter_.state_name(), "Stance");
  EXPECT_EQ(fighter_.behavior(), kAnimate | kPhysics | kControls);
  EXPECT_THAT(r_.take(), ElementsAre("anim:Stance"));  // its state_enter ran

  // Run() delivers "state_run" (the name the scripts use), here FaceTarget in Attack.
  attack();
  EXPECT_EQ(fighter_.run(), EventResult::kSucceeded);
  EXPECT_EQ(fighter_.event("state_run"), EventResult::kSucceeded);
  EXPECT_THAT(r_.take(), ElementsAre("call:FaceTarget", "call:FaceTarget"));

  // The documented loop: GetBehavior, apply, Run - once per frame.
  int physics_frames = 0;
  for (int frame = 0; frame < 3; ++frame) {
    if ((fighter_.behavior() & kPhysics) != 0) ++physics_frames;
    fighter_.run();
  }
  EXPECT_EQ(physics_frames, 3);
}

INSTANTIATE_TEST_SUITE_P(BookAndChild, FsmCharacter,
                         ::testing::Values("DefaultCharacter", "EmptyChild"),
                         [](const auto& param_info) { return std::string(param_info.param); });

}  // namespace
}  // namespace keel::fsm
