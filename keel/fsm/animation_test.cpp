// SetAnimation through the Animator (check 64) and per-character alias tables (check 65).
#include "keel/fsm/animation.h"
#include "keel/fsm/random.h"
#include "keel/fsm/testing/fsm_fixture.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace keel::fsm {
namespace {

using ::testing::ElementsAre;
using testing::Recorder;

constexpr const char* kSource = R"(
FSM("Mover", "Character")
{
    InitialState("Idle");
    State("Idle")
    {
        On("state_enter")      SetAnimation("Idle");
        On("walk")             SetAnimation("Walk");
        On("walk_once")        SetAnimation("Walk", "-repeat");
        On("walk_back")        SetAnimation("Walk", "reverse");
        On("snap")             SetAnimation("Walk", "-blending");
        On("run_keep")         SetAnimation("Run", "keepframe");
        On("attack")           Transition("Attack");
        On("anim_done")        Execute("Done");
    }
    State("Attack")
    {
        On("state_enter")      SetAnimation("Attack", "-repeat");
        On("keyframe_strike")  Execute("Strike");
        On("keyframe_link")    Execute("Link");
        On("anim_done")        Transition("Idle");
    }
}
)";

class FsmAnimation : public ::testing::Test {
 protected:
  void SetUp() override {
    library_ = testing::load({kSource}, testing::character_types());
    ASSERT_NE(library_, nullptr);
    ASSERT_TRUE(clips_.add({.name = "idle", .frame_count = 10}));
    ASSERT_TRUE(clips_.add({.name = "walk", .frame_count = 100}));
    ASSERT_TRUE(clips_.add({.name = "run", .frame_count = 50}));
    ASSERT_TRUE(clips_.add(
        {.name = "orc_attack", .frame_count = 8, .marks = {{3, "strike"}, {5, "link"}}}));
    ASSERT_TRUE(clips_.add({.name = "elf_attack", .frame_count = 6, .marks = {{2, "strike"}}}));
    for (AliasTable* t : {&orc_, &elf_}) {
      t->set("Idle", "idle");
      t->set("Walk", "walk");
      t->set("Run", "run");
    }
    orc_.set("Attack", "orc_attack");
    elf_.set("Attack", "elf_attack");
    r_.declare({"Done", "Strike", "Link"});
  }

  void start(FsmInstance& i, Animator& a) {
    i.set_animation_target(&a);
    ASSERT_TRUE(i.init(nullptr, *library_->find("Mover"), r_.env));
  }
  static void frames(FsmInstance& i, Animator& a, int n) {
    for (int k = 0; k < n; ++k) a.update(i);
  }

  std::unique_ptr<FsmLibrary> library_;
  AnimationLibrary clips_;
  AliasTable orc_;
  AliasTable elf_;
  Recorder r_;
};

TEST_F(FsmAnimation, Check64_DefaultPlaysForwardAndLoops) {
  Animator a(clips_, orc_);
  FsmInstance i;
  start(i, a);
  i.event("walk");
  ASSERT_EQ(a.clip()->name, "walk");
  EXPECT_EQ(a.frame(), 0u);
  EXPECT_TRUE(a.repeating());
  EXPECT_FALSE(a.reversed());
  frames(i, a, 98);
  EXPECT_EQ(a.frame(), 98u);
  EXPECT_TRUE(r_.take().empty());
  frames(i, a, 1);  // the last frame sends anim_done
  EXPECT_EQ(a.frame(), 99u);
  EXPECT_THAT(r_.take(), ElementsAre("call:Done"));
  frames(i, a, 1);
  EXPECT_EQ(a.frame(), 0u);  // loops
  frames(i, a, 99);
  EXPECT_THAT(r_.take(), ElementsAre("call:Done"));  // every time round
}

TEST_F(FsmAnimation, Check64_NoRepeatHoldsTheLastFrame) {
  Animator a(clips_, orc_);
  FsmInstance i;
  start(i, a);
  i.event("walk_once");
  frames(i, a, 150);
  EXPECT_EQ(a.frame(), 99u);
  EXPECT_TRUE(a.holding());
  EXPECT_THAT(r_.take(), ElementsAre("call:Done"));  // once
}

TEST_F(FsmAnimation, Check64_ReversePlaysBackwards) {
  Animator a(clips_, orc_);
  FsmInstance i;
  start(i, a);
  i.event("walk_back");
  EXPECT_TRUE(a.reversed());
  EXPECT_EQ(a.frame(), 99u);
  frames(i, a, 9);
  EXPECT_EQ(a.frame(), 90u);
  frames(i, a, 90);
  EXPECT_EQ(a.frame(), 0u);
  EXPECT_THAT(r_.take(), ElementsAre("call:Done"));
}

TEST_F(FsmAnimation, Check64_BlendingAndKeepFrame) {
  Animator a(clips_, orc_);
  FsmInstance i;
  start(i, a);
  i.event("walk");
  EXPECT_EQ(a.blend_frames_left(), Animator::kDefaultBlendFrames);  // blends out of Idle
  i.event("snap");
  EXPECT_EQ(a.blend_frames_left(), 0u);  // "-blending" snaps
  frames(i, a, 25);
  ASSERT_EQ(a.frame(), 25u);
  i.event("run_keep");  // frame 25 of 100 -> frame 12 of 50 (12.5 truncated)
  ASSERT_EQ(a.clip()->name, "run");
  EXPECT_EQ(a.frame(), 12u);
  i.event("walk");  // without keepframe: frame 0
  EXPECT_EQ(a.frame(), 0u);
}

TEST_F(FsmAnimation, Check64_KeyframesAndAnimDone) {
  Animator a(clips_, orc_);
  FsmInstance i;
  start(i, a);
  i.event("attack");
  ASSERT_EQ(a.clip()->name, "orc_attack");
  frames(i, a, 3);
  EXPECT_THAT(r_.take(), ElementsAre("call:Strike"));
  frames(i, a, 2);
  EXPECT_THAT(r_.take(), ElementsAre("call:Link"));
  frames(i, a, 1);
  EXPECT_EQ(i.state_name(), "Attack");
  frames(i, a, 1);  // frame 7 of 8: anim_done -> Idle, which starts its own clip
  EXPECT_EQ(i.state_name(), "Idle");
  EXPECT_EQ(a.clip()->name, "idle");
  EXPECT_EQ(a.frame(), 0u);
}

TEST_F(FsmAnimation, Check65_IndirectLookupPerCharacter) {
  Animator orc_animator(clips_, orc_);
  Animator elf_animator(clips_, elf_);
  FsmInstance orc;
  FsmInstance elf;
  start(orc, orc_animator);
  start(elf, elf_animator);  // the same FSM
  orc.event("attack");
  elf.event("attack");
  EXPECT_EQ(orc_animator.clip()->name, "orc_attack");
  EXPECT_EQ(elf_animator.clip()->name, "elf_attack");
  frames(elf, elf_animator, 2);
  EXPECT_THAT(r_.take(), ElementsAre("call:Strike"));  // the elf strikes on its own frame
}

TEST_F(FsmAnimation, MissingAliasIsReported) {
  AliasTable empty;
  Animator a(clips_, empty);
  FsmInstance i;
  start(i, a);
  EXPECT_THAT(r_.take(), ElementsAre("error:no clip for animation alias 'Idle'"));
  EXPECT_EQ(a.clip(), nullptr);
  frames(i, a, 3);  // nothing to play, nothing happens
  EXPECT_FALSE(clips_.add({.name = "bad", .frame_count = 4, .marks = {{4, "strike"}}}));
  EXPECT_FALSE(clips_.add({.name = "idle", .frame_count = 4}));
}

TEST_F(FsmAnimation, ClipBlendFramesOverrideTheDefaultAndCountDownWhileHolding) {
  ASSERT_TRUE(clips_.add({.name = "slow", .frame_count = 3, .blend_frames = 5}));
  orc_.set("Walk", "slow");
  Animator a(clips_, orc_);
  FsmInstance i;
  start(i, a);
  EXPECT_EQ(a.blend_frames_left(), 0u);  // the first clip has nothing to blend from
  i.event("walk_once");
  EXPECT_EQ(a.blend_frames_left(), 5u);  // the clip's own blend, not kDefaultBlendFrames
  frames(i, a, 2);
  EXPECT_TRUE(a.holding());
  frames(i, a, 2);
  EXPECT_EQ(a.blend_frames_left(), 1u);  // the blend finishes on the held frame
}

// Records what update() sends, around the FSM's handling of it.
class ListenerLog final : public AnimationListener {
 public:
  void before_event(FsmInstance& i, const AnimationEvent& e) override {
    lines.push_back(fmt::format("before {} frame {} in {}", e.mark ? e.mark->name : "done", e.frame,
                                i.state_name()));
  }
  void after_event(FsmInstance& i, const AnimationEvent& e, EventResult r) override {
    lines.push_back(fmt::format("after {} {} in {}", e.mark ? e.mark->name : "done", to_string(r),
                                i.state_name()));
  }
  std::vector<std::string> lines;
};

TEST_F(FsmAnimation, ListenerSeesEveryEventAroundItsHandling) {
  Animator a(clips_, orc_);
  FsmInstance i;
  start(i, a);
  i.event("attack");
  ListenerLog log;
  for (int f = 0; f < 7; ++f) a.update(i, &log);
  EXPECT_THAT(log.lines,
              ElementsAre("before strike frame 3 in Attack", "after strike succeeded in Attack",
                          "before link frame 5 in Attack", "after link succeeded in Attack",
                          "before done frame 7 in Attack", "after done changed-state in Idle"));
  EXPECT_EQ(a.clip()->name, "idle");  // the new state's clip; nothing more of the old one
}

TEST_F(FsmAnimation, GenerationChangesWithEveryStartedClip) {
  Animator a(clips_, orc_);
  FsmInstance i;
  start(i, a);
  const u32 g = a.generation();
  i.event("walk");
  EXPECT_EQ(a.generation(), g + 1);
  i.event("walk");  // the same clip again is a new start
  EXPECT_EQ(a.generation(), g + 2);
}

// Save games: an instance and its animator restored from snapshots into fresh objects carry on
// exactly like the originals (same callbacks, same states, same frames), without any handler
// running at the restore itself.
TEST_F(FsmAnimation, Snapshot_RestoredInstanceContinuesLikeTheOriginal) {
  Animator a(clips_, orc_);
  FsmInstance i;
  start(i, a);
  i.event("attack");
  frames(i, a, 4);  // past the strike mark (frame 3), before the link mark (frame 5)
  EXPECT_THAT(r_.take(), ElementsAre("call:Strike"));
  const FsmInstance::Snapshot brain = i.snapshot();
  const Animator::Snapshot anim = a.snapshot();
  EXPECT_EQ(i.state_name(), "Attack");
  EXPECT_EQ(anim.clip, string_hash("orc_attack"));
  EXPECT_EQ(anim.frame, 4u);

  Animator a2(clips_, orc_);
  FsmInstance i2;
  start(i2, a2);  // enters Idle and plays "idle"
  r_.take();
  ASSERT_TRUE(i2.restore(brain));
  ASSERT_TRUE(a2.restore(anim));
  EXPECT_TRUE(r_.take().empty());  // no state_enter or state_exit ran
  EXPECT_EQ(i2.snapshot(), brain);
  EXPECT_EQ(a2.snapshot(), anim);

  frames(i, a, 6);
  const auto original = r_.take();
  frames(i2, a2, 6);
  EXPECT_EQ(r_.take(), original);
  EXPECT_THAT(original, ElementsAre("call:Link"));
  EXPECT_EQ(i2.state_name(), "Idle");  // anim_done of the attack went back to Idle
  EXPECT_EQ(i2.snapshot(), i.snapshot());
  EXPECT_EQ(a2.snapshot(), a.snapshot());
}

TEST_F(FsmAnimation, Snapshot_BadSnapshotsChangeNothing) {
  Animator a(clips_, orc_);
  FsmInstance i;
  start(i, a);
  i.event("walk");
  frames(i, a, 3);
  const FsmInstance::Snapshot brain = i.snapshot();
  const Animator::Snapshot anim = a.snapshot();

  FsmInstance::Snapshot other_fsm = brain;
  other_fsm.fsm = string_hash("Flyer");
  EXPECT_FALSE(i.restore(other_fsm));
  FsmInstance::Snapshot no_state = brain;
  no_state.state = string_hash("Dancing");
  EXPECT_FALSE(i.restore(no_state));
  FsmInstance::Snapshot bad_flags = brain;
  bad_flags.flags = 0x80000000u;  // "Idle" has no flags
  EXPECT_FALSE(i.restore(bad_flags));
  EXPECT_EQ(i.snapshot(), brain);

  Animator::Snapshot no_clip = anim;
  no_clip.clip = string_hash("moonwalk");
  EXPECT_FALSE(a.restore(no_clip));
  Animator::Snapshot past_end = anim;
  past_end.frame = 100;  // "walk" has 100 frames
  EXPECT_FALSE(a.restore(past_end));
  EXPECT_EQ(a.snapshot(), anim);

  FsmInstance fresh;  // before init(): refused, never a crash
  EXPECT_EQ(fresh.snapshot(), FsmInstance::Snapshot{});
  EXPECT_FALSE(fresh.restore(brain));
}

TEST(FsmRandomSource, Snapshot_StateReplaysTheSameNumbers) {
  RandomSource dice(7);
  dice.next_u64();
  const u64 saved = dice.state();
  const u64 a = dice.next_u64();
  const u64 b = dice.next_u64();
  RandomSource restored;
  restored.seed(saved);
  EXPECT_EQ(restored.next_u64(), a);
  EXPECT_EQ(restored.next_u64(), b);
}

}  // namespace
}  // namespace keel::fsm
