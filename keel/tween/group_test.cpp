// Sequences and parallel groups: order, exact time carry-over, loops, nesting, waits and calls,
// and kill / pause / reset of groups and of their steps.
#include "keel/tween/steps.h"
#include "keel/tween/tween_system.h"

#include "keel/tween/testing/values.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

namespace keel::tween {
namespace {

using testing::Vec2;

TEST(TweenGroup, SequenceRunsStepsInOrderAndCarriesTime) {
  TweenSystem tweens;
  f32 x = -1.0f;
  f32 y = -1.0f;
  int done = 0;
  const TweenHandle seq =
      tweens.sequence({steps::tween(x, 1.0f, 0.0f, 10.0f), steps::tween(y, 1.0f, 0.0f, 10.0f)},
                      {.on_complete = [&] { ++done; }});
  tweens.update(0.5);
  EXPECT_FLOAT_EQ(x, 5.0f);
  EXPECT_EQ(y, -1.0f);
  tweens.update(0.75);  // x ends at 1.0; y gets the remaining 0.25 s in the same update
  EXPECT_EQ(x, 10.0f);
  EXPECT_FLOAT_EQ(y, 2.5f);
  tweens.update(0.5);
  EXPECT_FLOAT_EQ(y, 7.5f);
  EXPECT_TRUE(tweens.alive(seq));
  EXPECT_EQ(done, 0);
  tweens.update(0.25);
  EXPECT_EQ(y, 10.0f);
  EXPECT_FALSE(tweens.alive(seq));
  EXPECT_EQ(done, 1);
  EXPECT_EQ(tweens.size(), 0u);
}

TEST(TweenGroup, ManyStepsEndingInOneUpdate) {
  TweenSystem tweens;
  f32 a = 0.0f;
  f32 b = 0.0f;
  f32 c = 0.0f;
  tweens.sequence({steps::tween(a, 0.1f, 0.0f, 1.0f), steps::tween(b, 0.2f, 0.0f, 1.0f),
                   steps::tween(c, 1.0f, 0.0f, 10.0f)});
  tweens.update(0.55);  // a and b end inside this update; c is 0.25 s in
  EXPECT_EQ(a, 1.0f);
  EXPECT_EQ(b, 1.0f);
  EXPECT_NEAR(c, 2.5f, 1e-5f);
}

TEST(TweenGroup, ParallelEndsWithItsLongestStep) {
  TweenSystem tweens;
  f32 x = 0.0f;
  Vec2 v;
  int done = 0;
  const TweenHandle par = tweens.parallel(
      {steps::tween(x, 1.0f, 0.0f, 10.0f), steps::tween(v, 2.0f, Vec2{}, Vec2{2, 2})},
      {.on_complete = [&] { ++done; }});
  tweens.update(0.5);
  EXPECT_FLOAT_EQ(x, 5.0f);
  EXPECT_EQ(v, (Vec2{0.5f, 0.5f}));
  tweens.update(1.0);
  EXPECT_EQ(x, 10.0f);
  EXPECT_TRUE(tweens.alive(par));
  tweens.update(0.5);
  EXPECT_EQ(v, (Vec2{2, 2}));
  EXPECT_FALSE(tweens.alive(par));
  EXPECT_EQ(done, 1);
}

TEST(TweenGroup, ParallelInsideSequenceCarriesTheLastStepsOvershoot) {
  TweenSystem tweens;
  f32 x = 0.0f;
  f32 y = 0.0f;
  f32 z = 0.0f;
  tweens.sequence(
      {steps::parallel({steps::tween(x, 1.0f, 0.0f, 1.0f), steps::tween(y, 1.25f, 0.0f, 1.0f)}),
       steps::tween(z, 1.0f, 0.0f, 10.0f)});
  tweens.update(1.5);  // the parallel part ends at 1.25: z is 0.25 s in
  EXPECT_EQ(x, 1.0f);
  EXPECT_EQ(y, 1.0f);
  EXPECT_FLOAT_EQ(z, 2.5f);
}

TEST(TweenGroup, WaitAndCall) {
  TweenSystem tweens;
  std::vector<std::string> log;
  f32 x = -1.0f;
  tweens.sequence({steps::call([&] { log.push_back("start"); }), steps::wait(0.5f),
                   steps::call([&] { log.push_back("waited"); }),
                   steps::tween(x, 1.0f, 0.0f, 10.0f)});
  EXPECT_TRUE(log.empty());  // nothing runs before the first update
  tweens.update(0.25);
  EXPECT_EQ(log, (std::vector<std::string>{"start"}));
  EXPECT_EQ(x, -1.0f);
  tweens.update(0.5);  // the wait ends at 0.5: the call runs, x is 0.25 s in
  EXPECT_EQ(log, (std::vector<std::string>{"start", "waited"}));
  EXPECT_FLOAT_EQ(x, 2.5f);
}

TEST(TweenGroup, StepCallbacksRunBeforeTheNextStep) {
  TweenSystem tweens;
  std::vector<std::string> log;
  f32 x = 0.0f;
  tweens.sequence(
      {steps::tween(x, 0.5f, 0.0f, 1.0f, {.on_complete = [&] { log.push_back("tween"); }}),
       steps::call([&] { log.push_back("call"); })},
      {.on_complete = [&] { log.push_back("group"); }});
  tweens.update(1.0);
  EXPECT_EQ(log, (std::vector<std::string>{"tween", "call", "group"}));
}

TEST(TweenGroup, LoopingSequence) {
  TweenSystem tweens;
  f32 x = 0.0f;
  int calls = 0;
  int done = 0;
  const TweenHandle seq =
      tweens.sequence({steps::tween(x, 1.0f, 0.0f, 10.0f), steps::call([&] { ++calls; })},
                      {.loops = 3, .on_complete = [&] { ++done; }});
  tweens.update(1.5);
  EXPECT_EQ(calls, 1);
  EXPECT_FLOAT_EQ(x, 5.0f);  // second play, 0.5 s in
  tweens.update(1.0);
  EXPECT_EQ(calls, 2);
  tweens.update(1.0);
  EXPECT_EQ(calls, 3);
  EXPECT_EQ(done, 1);
  EXPECT_EQ(x, 10.0f);
  EXPECT_FALSE(tweens.alive(seq));
}

TEST(TweenGroup, ForeverGroupOfInstantStepsDoesNotHangTheFrame) {
  TweenSystem tweens;
  int calls = 0;
  const TweenHandle seq = tweens.sequence({steps::call([&] { ++calls; })}, {.loops = kForever});
  tweens.update(0.1);
  EXPECT_EQ(calls, 1);
  tweens.update(0.1);
  EXPECT_EQ(calls, 2);  // one play per update when a play takes no time
  tweens.kill(seq);
  tweens.update(0.1);
  EXPECT_EQ(calls, 2);
}

TEST(TweenGroup, ManyInstantPlaysDoNotRecurse) {
  TweenSystem tweens;
  int calls = 0;
  tweens.sequence({steps::call([&] { ++calls; })}, {.loops = 100000});
  tweens.update(0.0);
  EXPECT_EQ(calls, 100000);
  EXPECT_EQ(tweens.size(), 0u);
}

TEST(TweenGroup, NestedGroups) {
  TweenSystem tweens;
  f32 a = 0.0f;
  f32 b = 0.0f;
  f32 c = 0.0f;
  int inner_done = 0;
  const TweenHandle outer = tweens.sequence(
      {steps::parallel({steps::tween(a, 1.0f, 0.0f, 1.0f),
                        steps::sequence({steps::tween(b, 0.5f, 0.0f, 1.0f), steps::wait(1.0f)},
                                        {.on_complete = [&] { ++inner_done; }})}),
       steps::tween(c, 1.0f, 0.0f, 10.0f)});
  tweens.update(1.0);
  EXPECT_EQ(a, 1.0f);
  EXPECT_EQ(b, 1.0f);
  EXPECT_EQ(c, 0.0f);  // the nested sequence still waits
  tweens.update(0.75);
  EXPECT_EQ(inner_done, 1);
  EXPECT_FLOAT_EQ(c, 2.5f);
  tweens.update(1.0);
  EXPECT_FALSE(tweens.alive(outer));
}

TEST(TweenGroup, GroupDelay) {
  TweenSystem tweens;
  f32 x = -1.0f;
  tweens.sequence({steps::tween(x, 1.0f, 0.0f, 10.0f)}, {.delay = 0.5f});
  tweens.update(0.25);
  EXPECT_EQ(x, -1.0f);
  tweens.update(0.5);
  EXPECT_FLOAT_EQ(x, 2.5f);
}

TEST(TweenGroup, KillingAGroupKillsItsRunningSteps) {
  TweenSystem tweens;
  f32 x = 0.0f;
  f32 y = 0.0f;
  bool done = false;
  const TweenHandle par = tweens.parallel(
      {steps::tween(x, 1.0f, 0.0f, 10.0f), steps::sequence({steps::tween(y, 1.0f, 0.0f, 10.0f)})},
      {.on_complete = [&] { done = true; }});
  tweens.update(0.5);
  EXPECT_FLOAT_EQ(y, 5.0f);
  EXPECT_TRUE(tweens.kill(par));
  EXPECT_EQ(tweens.size(), 0u);
  tweens.update(0.5);
  EXPECT_FLOAT_EQ(x, 5.0f);
  EXPECT_FLOAT_EQ(y, 5.0f);
  EXPECT_FALSE(done);
}

TEST(TweenGroup, KillingAStepMovesTheSequenceOn) {
  TweenSystem tweens;
  f32 x = 0.0f;
  f32 y = -1.0f;
  const TweenHandle seq = tweens.sequence(
      {steps::tween(x, 10.0f, 0.0f, 10.0f, {.id = "slow"_id}), steps::tween(y, 1.0f, 0.0f, 10.0f)});
  tweens.update(1.0);
  EXPECT_EQ(tweens.kill_id("slow"_id), 1u);
  tweens.update(0.5);
  EXPECT_FLOAT_EQ(y, 5.0f);
  EXPECT_TRUE(tweens.alive(seq));
}

TEST(TweenGroup, PausingAGroupPausesItsStepsAndTheOnesItStartsLater) {
  TweenSystem tweens;
  f32 x = 0.0f;
  f32 y = -1.0f;
  const TweenHandle seq = tweens.sequence({steps::tween(x, 10.0f, 0.0f, 10.0f, {.id = "first"_id}),
                                           steps::tween(y, 1.0f, 0.0f, 10.0f)});
  tweens.update(1.0);
  EXPECT_TRUE(tweens.pause(seq));
  EXPECT_TRUE(tweens.is_paused(tweens.find("first"_id)));
  tweens.update(1.0);
  EXPECT_FLOAT_EQ(x, 1.0f);
  tweens.kill_id("first"_id);  // the group moves on, but stays paused
  tweens.update(1.0);
  EXPECT_EQ(y, -1.0f);
  EXPECT_TRUE(tweens.resume(seq));
  tweens.update(0.5);
  EXPECT_FLOAT_EQ(y, 5.0f);
}

TEST(TweenGroup, ResetRestartsFromTheFirstStep) {
  TweenSystem tweens;
  f32 x = 0.0f;
  f32 y = 0.0f;
  const TweenHandle seq =
      tweens.sequence({steps::tween(x, 1.0f, 0.0f, 10.0f), steps::tween(y, 1.0f, 0.0f, 10.0f)});
  tweens.update(1.5);
  EXPECT_FLOAT_EQ(y, 5.0f);
  EXPECT_TRUE(tweens.reset(seq));
  tweens.update(0.25);
  EXPECT_FLOAT_EQ(x, 2.5f);
  EXPECT_FLOAT_EQ(y, 5.0f);  // the old second step is gone
  EXPECT_FALSE(tweens.elapsed(seq).has_value());
}

TEST(TweenGroup, CallStepMayKillItsOwnGroup) {
  TweenSystem tweens;
  f32 x = -1.0f;
  TweenHandle seq;
  seq =
      tweens.sequence({steps::call([&] { tweens.kill(seq); }), steps::tween(x, 1.0f, 0.0f, 1.0f)});
  tweens.update(0.5);
  EXPECT_FALSE(tweens.alive(seq));
  EXPECT_EQ(x, -1.0f);
  EXPECT_EQ(tweens.size(), 0u);
}

TEST(TweenGroup, CallStepInParallelMayKillItsGroup) {
  TweenSystem tweens;
  f32 x = -1.0f;
  TweenHandle par;
  par =
      tweens.parallel({steps::tween(x, 1.0f, 0.0f, 1.0f), steps::call([&] { tweens.kill(par); })});
  tweens.update(0.5);
  EXPECT_FALSE(tweens.alive(par));
  EXPECT_EQ(x, -1.0f);  // the tween step was started, then killed with its group
  EXPECT_EQ(tweens.size(), 0u);
}

TEST(TweenGroup, KillTargetsInCancelsAGroupBeforeItReachesTheObject) {
  struct Enemy {
    f32 x = 0.0f;
  };
  TweenSystem tweens;
  f32 flash = 0.0f;
  auto enemy = std::make_unique<Enemy>();
  const TweenHandle seq = tweens.sequence(
      {steps::tween(flash, 1.0f, 0.0f, 1.0f), steps::tween(enemy->x, 1.0f, 0.0f, 5.0f)});
  f32 other = 0.0f;
  const TweenHandle unrelated = tweens.sequence({steps::tween(other, 5.0f, 0.0f, 1.0f)});
  tweens.update(0.5);
  EXPECT_EQ(tweens.kill_targets_in(enemy.get(), sizeof(Enemy)), 1u);
  enemy.reset();
  tweens.update(1.0);  // would write the freed enemy (ASan) had the group survived
  EXPECT_FALSE(tweens.alive(seq));
  EXPECT_TRUE(tweens.alive(unrelated));
}

TEST(TweenGroup, EmptyGroupsEndAtOnce) {
  TweenSystem tweens;
  int done = 0;
  tweens.sequence({}, {.on_complete = [&] { ++done; }});
  tweens.parallel({}, {.on_complete = [&] { ++done; }});
  tweens.update(0.0);
  EXPECT_EQ(done, 2);
  EXPECT_EQ(tweens.size(), 0u);
}

}  // namespace
}  // namespace keel::tween
