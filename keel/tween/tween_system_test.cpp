// TweenSystem beyond the seed: any value type, easing, loops and ping-pong, callbacks, ids,
// handles, dead targets, and a randomized comparison against a simple model.
#include "keel/tween/tween_system.h"

#include "keel/tween/steps.h"

#include "keel/tween/testing/values.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <memory>
#include <random>
#include <vector>

namespace keel::tween {
namespace {

using testing::Color;
using testing::Vec2;
using testing::Vec3;

TEST(TweenSystem, AnyTweenableType) {
  TweenSystem tweens;
  Vec2 pos;
  Vec3 vel;
  Color tint;
  f64 wide = 0.0;
  tweens.tween(pos, 2.0f, Vec2{0, 0}, Vec2{4, -8});
  tweens.quadratic(vel, 2.0f, Vec3{0, 0, 0}, Vec3{10, 20, 30}, Vec3{0, 0, 0});
  tweens.cubic(tint, 2.0f, Color{0, 0, 0, 0}, Color{0, 0, 0, 0}, Color{1, 1, 1, 1},
               Color{1, 1, 1, 1});
  tweens.tween(wide, 2.0f, 0.0, 10.0);
  tweens.update(0.5);
  EXPECT_EQ(pos, (Vec2{1, -2}));
  EXPECT_FLOAT_EQ(wide, 2.5);
  tweens.update(0.5);  // b = 0.5
  EXPECT_EQ(vel, (Vec3{5, 10, 15}));
  EXPECT_EQ(tint, (Color{0.5f, 0.5f, 0.5f, 0.5f}));
  tweens.update(1.0);
  EXPECT_EQ(pos, (Vec2{4, -8}));
  EXPECT_EQ(vel, (Vec3{0, 0, 0}));
  EXPECT_EQ(tint, (Color{1, 1, 1, 1}));
  EXPECT_EQ(wide, 10.0);
  EXPECT_EQ(tweens.size(), 0u);
}

TEST(TweenSystem, EasedFloatAndEasedVectorAgree) {
  TweenSystem tweens;
  f32 x = 0.0f;
  Vec2 v;
  tweens.tween(x, 1.0f, 0.0f, 10.0f, {.ease = Ease::kOutBack});
  tweens.tween(v, 1.0f, Vec2{0, 0}, Vec2{10, 0}, {.ease = Ease::kOutBack});
  for (int i = 0; i < 7; ++i) {
    tweens.update(0.15);
    EXPECT_FLOAT_EQ(x, v.x);
  }
  tweens.update(0.15);
  EXPECT_EQ(x, 10.0f);
  EXPECT_EQ(v.x, 10.0f);
}

TEST(TweenSystem, EaseShapesTheProgress) {
  TweenSystem tweens;
  f32 x = 0.0f;
  tweens.tween(x, 2.0f, 0.0f, 10.0f, {.ease = Ease::kInQuad});
  tweens.update(1.0);
  EXPECT_FLOAT_EQ(x, 2.5f);
}

TEST(TweenSystem, LoopsCarryTimeIntoTheNextPlay) {
  TweenSystem tweens;
  f32 x = 0.0f;
  int completed = 0;
  const TweenHandle h =
      tweens.tween(x, 1.0f, 0.0f, 10.0f, {.loops = 3, .on_complete = [&] { ++completed; }});
  tweens.update(0.75);
  EXPECT_FLOAT_EQ(x, 7.5f);
  tweens.update(0.5);  // 1.25: second play, 0.25 in
  EXPECT_FLOAT_EQ(x, 2.5f);
  EXPECT_TRUE(tweens.alive(h));
  tweens.update(1.5);  // 2.75: third play
  EXPECT_FLOAT_EQ(x, 7.5f);
  EXPECT_EQ(completed, 0);
  tweens.update(0.25);  // 3.0: done
  EXPECT_EQ(x, 10.0f);
  EXPECT_FALSE(tweens.alive(h));
  EXPECT_EQ(completed, 1);
}

TEST(TweenSystem, ForeverLoopSurvivesHugeSteps) {
  TweenSystem tweens;
  f32 x = 0.0f;
  const TweenHandle h = tweens.tween(x, 1.0f, 0.0f, 10.0f, {.loops = kForever});
  tweens.update(1000.25);
  EXPECT_TRUE(tweens.alive(h));
  EXPECT_NEAR(x, 2.5f, 1e-3f);
  EXPECT_GE(*tweens.elapsed(h), 0.0f);
  EXPECT_LT(*tweens.elapsed(h), 1.0f);
}

TEST(TweenSystem, PingPongGoesThereAndBack) {
  TweenSystem tweens;
  f32 x = 0.0f;
  Vec2 v;
  const TweenHandle h = tweens.tween(x, 1.0f, 0.0f, 10.0f, {.loops = 2, .ping_pong = true});
  tweens.tween(v, 1.0f, Vec2{0, 0}, Vec2{10, 0}, {.loops = 2, .ping_pong = true});
  tweens.update(0.5);
  EXPECT_FLOAT_EQ(x, 5.0f);
  tweens.update(0.75);  // 1.25: on the way back
  EXPECT_FLOAT_EQ(x, 7.5f);
  EXPECT_FLOAT_EQ(v.x, 7.5f);
  tweens.update(1.0);  // 2.25: back at the start, done
  EXPECT_EQ(x, 0.0f);
  EXPECT_EQ(v.x, 0.0f);
  EXPECT_FALSE(tweens.alive(h));
}

TEST(TweenSystem, PingPongPlaysTheEaseBackwardsInTime) {
  // On the way back the value at time t equals the forward value at (duration - t), for the
  // float fast path (which switches to the mirrored curve) and the generic path alike.
  for (const Ease e : {Ease::kInQuad, Ease::kOutBounce, Ease::kInOutBack, Ease::kInElastic}) {
    TweenSystem tweens;
    f32 x = 0.0f;
    Vec2 v;
    tweens.tween(x, 1.0f, 2.0f, 12.0f, {.ease = e, .loops = 4, .ping_pong = true});
    tweens.tween(v, 1.0f, Vec2{2, 0}, Vec2{12, 0}, {.ease = e, .loops = 4, .ping_pong = true});
    tweens.update(1.25);
    const f32 expect = 2.0f + 10.0f * ease(e, 0.75f);
    EXPECT_NEAR(x, expect, 1e-4f) << ease_name(e);
    EXPECT_NEAR(v.x, expect, 1e-4f) << ease_name(e);
    tweens.update(1.0);  // third play: forwards again, 0.25 in
    EXPECT_NEAR(x, 2.0f + 10.0f * ease(e, 0.25f), 1e-4f) << ease_name(e);
    EXPECT_NEAR(v.x, 2.0f + 10.0f * ease(e, 0.25f), 1e-4f) << ease_name(e);
  }
}

TEST(TweenSystem, ResetAfterTurningRoundPlaysForwards) {
  TweenSystem tweens;
  f32 x = 0.0f;
  const TweenHandle h =
      tweens.tween(x, 1.0f, 0.0f, 10.0f, {.ease = Ease::kInQuad, .loops = 2, .ping_pong = true});
  tweens.update(1.5);  // reversed, in the mirrored pool
  EXPECT_TRUE(tweens.reset(h));
  tweens.update(0.5);
  EXPECT_FLOAT_EQ(x, 2.5f);  // forwards, in-quad
  tweens.update(1.5);        // back to 0 by 2.0 s of the new run
  EXPECT_EQ(x, 0.0f);
  EXPECT_FALSE(tweens.alive(h));
}

TEST(TweenSystem, PausedAtCreation) {
  TweenSystem tweens;
  f32 x = -1.0f;
  const TweenHandle h = tweens.tween(x, 1.0f, 0.0f, 10.0f, {.paused = true});
  tweens.update(0.5);
  EXPECT_EQ(x, -1.0f);
  EXPECT_TRUE(tweens.is_paused(h));
  tweens.resume(h);
  tweens.update(0.5);
  EXPECT_FLOAT_EQ(x, 5.0f);
}

TEST(TweenSystem, CompletionCallbackMayStartAndKillTweens) {
  TweenSystem tweens;
  f32 x = 0.0f;
  f32 other = 0.0f;
  TweenHandle victim = tweens.tween(other, 10.0f, 0.0f, 10.0f);
  TweenHandle follow;
  tweens.tween(x, 1.0f, 0.0f, 10.0f, {.on_complete = [&] {
                 follow = tweens.tween(x, 1.0f, 10.0f, 20.0f);
                 tweens.kill(victim);
                 // Plenty of new tweens: the pools grow mid-callback.
                 for (int i = 0; i < 100; ++i) tweens.tween(other, 1.0f, 0, 1);
               }});
  tweens.update(1.0);
  EXPECT_EQ(x, 10.0f);
  EXPECT_FALSE(tweens.alive(victim));
  EXPECT_TRUE(tweens.alive(follow));
  tweens.update(0.5);  // the follow-up's first update is the next frame
  EXPECT_FLOAT_EQ(x, 15.0f);
}

TEST(TweenSystem, TweenKilledByAnEarlierCallbackDoesNotComplete) {
  TweenSystem tweens;
  f32 a = 0.0f;
  f32 b = 0.0f;
  bool b_completed = false;
  TweenHandle hb;
  tweens.tween(a, 1.0f, 0.0f, 1.0f, {.on_complete = [&] { tweens.kill(hb); }});
  hb = tweens.tween(b, 1.0f, 0.0f, 1.0f, {.on_complete = [&] { b_completed = true; }});
  tweens.update(1.0);
  EXPECT_FALSE(tweens.alive(hb));
  EXPECT_FALSE(b_completed);
  EXPECT_EQ(b, 1.0f);  // the pass wrote it before the callbacks ran
}

TEST(TweenSystem, CallbackMayResetItsNeighbour) {
  TweenSystem tweens;
  f32 a = 0.0f;
  f32 b = 0.0f;
  TweenHandle hb;
  tweens.tween(a, 1.0f, 0.0f, 1.0f, {.on_complete = [&] { tweens.reset(hb); }});
  hb = tweens.tween(b, 1.0f, 0.0f, 1.0f);
  tweens.update(1.0);
  EXPECT_TRUE(tweens.alive(hb));  // reset before its end was processed: it starts over
  tweens.update(0.5);
  EXPECT_FLOAT_EQ(b, 0.5f);
}

TEST(TweenSystem, HandlesAreGenerationChecked) {
  TweenSystem tweens;
  f32 x = 0.0f;
  f32 y = 0.0f;
  const TweenHandle old = tweens.tween(x, 1.0f, 0.0f, 1.0f);
  tweens.kill(old);
  const TweenHandle fresh = tweens.tween(y, 1.0f, 0.0f, 1.0f);
  EXPECT_EQ(old.index, fresh.index);  // the slot is reused...
  EXPECT_NE(old, fresh);              // ...under a new generation
  EXPECT_FALSE(tweens.alive(old));
  EXPECT_FALSE(tweens.kill(old));
  EXPECT_FALSE(tweens.pause(old));
  EXPECT_TRUE(tweens.alive(fresh));
  EXPECT_FALSE(tweens.is_paused(fresh));
  EXPECT_FALSE(tweens.alive(TweenHandle{}));
  EXPECT_FALSE(tweens.alive(TweenHandle{12345, 1}));
}

TEST(TweenSystem, IdsFindAndKill) {
  TweenSystem tweens;
  f32 a = 0.0f;
  f32 b = 0.0f;
  f32 c = 0.0f;
  tweens.tween(a, 1.0f, 0.0f, 1.0f, {.id = "fade"_id});
  tweens.tween(b, 1.0f, 0.0f, 1.0f, {.id = "fade"_id});
  const TweenHandle hc = tweens.tween(c, 5.0f, 0.0f, 1.0f, {.id = "move"_id});
  EXPECT_EQ(tweens.find("move"_id), hc);
  EXPECT_TRUE(tweens.alive(tweens.find("fade"_id)));
  EXPECT_TRUE(tweens.find("nothing"_id).is_null());
  EXPECT_EQ(tweens.kill_id("fade"_id), 2u);
  EXPECT_TRUE(tweens.find("fade"_id).is_null());
  EXPECT_EQ(tweens.size(), 1u);
  tweens.update(5.0);  // ended: the id goes with it
  EXPECT_TRUE(tweens.find("move"_id).is_null());
}

TEST(TweenSystem, AfterCallsOnceAtTheTime) {
  TweenSystem tweens;
  int calls = 0;
  const TweenHandle h = tweens.after(1.0f, [&] { ++calls; });
  tweens.update(0.6);
  EXPECT_EQ(calls, 0);
  tweens.update(0.6);
  EXPECT_EQ(calls, 1);
  EXPECT_FALSE(tweens.alive(h));
  tweens.update(5.0);
  EXPECT_EQ(calls, 1);
}

TEST(TweenSystem, KillTargetsInKillsTweensOnADyingObject) {
  struct Sprite {
    f32 alpha = 1.0f;
    Vec2 pos;
    f32 scale = 1.0f;
  };
  TweenSystem tweens;
  auto sprite = std::make_unique<Sprite>();
  f32 unrelated = 0.0f;
  tweens.tween(sprite->alpha, 1.0f, 1.0f, 0.0f);
  tweens.tween(sprite->pos, 1.0f, Vec2{}, Vec2{1, 1});
  tweens.oscillate(sprite->scale, Oscillation<f32>{.amplitude = 0.1f, .center = 1.0f});
  const TweenHandle keep = tweens.tween(unrelated, 1.0f, 0.0f, 1.0f);
  tweens.update(0.1);
  EXPECT_EQ(tweens.kill_targets_in(sprite.get(), sizeof(Sprite)), 3u);
  sprite.reset();
  tweens.update(0.1);  // ASan would catch a write to the freed sprite
  EXPECT_TRUE(tweens.alive(keep));
  EXPECT_EQ(tweens.size(), 1u);
}

TEST(TweenSystem, CallbackCapturesMayUseTheSystemWhenDestroyed) {
  // A callback owns an object whose destructor kills tweens on itself and starts new ones; the
  // destructor runs while the tween that held the callback is being released.
  struct Owner {
    TweenSystem* tweens;
    f32* elsewhere;
    f32 value = 0.0f;
    ~Owner() {
      tweens->kill_targets_in(this, sizeof(*this));
      for (int i = 0; i < 200; ++i) tweens->tween(*elsewhere, 1.0f, 0.0f, 1.0f);  // slots grow
    }
  };
  TweenSystem tweens;
  f32 x = 0.0f;
  f32 elsewhere = 0.0f;
  auto owner = std::make_shared<Owner>(&tweens, &elsewhere);
  tweens.tween(owner->value, 5.0f, 0.0f, 1.0f);
  const TweenHandle h = tweens.tween(x, 1.0f, 0.0f, 1.0f, {.on_complete = [owner] {}});
  const TweenHandle g = tweens.sequence({steps::call([owner] {}), steps::wait(5.0f)});
  owner.reset();
  tweens.update(0.5);
  EXPECT_TRUE(tweens.kill(g));  // the group's steps hold one reference
  EXPECT_TRUE(tweens.kill(h));  // the tween's callback the last: ~Owner runs in here
  EXPECT_EQ(tweens.size(), 200u);
  tweens.update(0.5);
  EXPECT_FLOAT_EQ(elsewhere, 0.5f);
}

TEST(TweenSystem, KillAllAndReuse) {
  TweenSystem tweens;
  f32 x = 0.0f;
  for (int i = 0; i < 50; ++i) tweens.tween(x, 1.0f, 0.0f, 1.0f, {.id = "a"_id});
  tweens.kill_all();
  EXPECT_EQ(tweens.size(), 0u);
  EXPECT_TRUE(tweens.find("a"_id).is_null());
  x = 7.0f;
  tweens.update(0.5);
  EXPECT_EQ(x, 7.0f);
  tweens.tween(x, 1.0f, 0.0f, 1.0f);
  tweens.update(0.5);
  EXPECT_FLOAT_EQ(x, 0.5f);
}

// Random creates, kills, pauses, resumes and resets of eased float tweens across several pools
// (rows move between the active and paused regions all the time), checked after every update
// against a model of which tweens are alive.
TEST(TweenSystem, RandomizedAgainstModel) {
  struct Model {
    TweenHandle handle;
    Ease ease;
    f32 from, to, duration, elapsed = 0.0f;
    bool paused = false;
    bool alive = true;
  };
  std::mt19937 rng(1234);
  std::uniform_real_distribution<f32> unit(0.0f, 1.0f);
  const Ease eases[] = {Ease::kLinear, Ease::kInQuad, Ease::kOutBounce, Ease::kInOutSine};
  TweenSystem tweens;
  std::deque<f32> targets;  // stable addresses
  std::vector<Model> model;
  for (int frame = 0; frame < 300; ++frame) {
    for (int op = 0; op < 8; ++op) {
      const f32 r = unit(rng);
      if (r < 0.35f || model.empty()) {
        targets.push_back(-100.0f);
        Model m{{}, eases[rng() % 4], unit(rng) * 10, unit(rng) * 10, 0.05f + unit(rng)};
        m.handle = tweens.tween(targets.back(), m.duration, m.from, m.to, {.ease = m.ease});
        model.push_back(m);
        continue;
      }
      Model& m = model[rng() % model.size()];
      const bool acted = r < 0.5f   ? tweens.kill(m.handle)
                         : r < 0.7f ? tweens.pause(m.handle)
                         : r < 0.9f ? tweens.resume(m.handle)
                                    : tweens.reset(m.handle);
      ASSERT_EQ(acted, m.alive);
      if (!m.alive) continue;
      if (r < 0.5f) {
        m.alive = false;
      } else if (r < 0.7f) {
        m.paused = true;
      } else if (r < 0.9f) {
        m.paused = false;
      } else {
        m.elapsed = 0.0f;
      }
    }
    const f32 dt = unit(rng) * 0.1f;
    tweens.update(dt);
    usize live = 0;
    for (usize i = 0; i < model.size(); ++i) {
      Model& m = model[i];
      if (m.alive && !m.paused) {
        m.elapsed += dt;
        if (m.elapsed >= m.duration) {
          m.alive = false;
          EXPECT_EQ(targets[i], m.to);
        }
      }
      live += m.alive ? 1 : 0;
      ASSERT_EQ(tweens.alive(m.handle), m.alive) << "frame " << frame << " tween " << i;
    }
    ASSERT_EQ(tweens.size(), live);
  }
}

// Random operations again, checking every target's value against the formula.
TEST(TweenSystem, RandomizedValuesAgainstModel) {
  std::mt19937 rng(99);
  std::uniform_real_distribution<f32> unit(0.0f, 1.0f);
  TweenSystem tweens;
  std::deque<f32> real;
  std::deque<f32> expect;
  std::vector<TweenHandle> handles;
  std::vector<f32> elapsed, from, to, duration;
  std::vector<bool> paused, alive;
  const Ease eases[] = {Ease::kLinear, Ease::kOutCubic, Ease::kInBack};
  std::vector<Ease> ease_of;
  for (int frame = 0; frame < 300; ++frame) {
    for (int op = 0; op < 6; ++op) {
      const f32 r = unit(rng);
      if (r < 0.4f || handles.empty()) {
        real.push_back(0.0f);
        expect.push_back(0.0f);
        from.push_back(unit(rng));
        to.push_back(unit(rng) * 5);
        duration.push_back(0.05f + unit(rng));
        elapsed.push_back(0.0f);
        paused.push_back(false);
        alive.push_back(true);
        ease_of.push_back(eases[rng() % 3]);
        handles.push_back(tweens.tween(real.back(), duration.back(), from.back(), to.back(),
                                       {.ease = ease_of.back()}));
        continue;
      }
      const usize i = rng() % handles.size();
      if (!alive[i]) continue;
      if (r < 0.55f) {
        tweens.kill(handles[i]);
        alive[i] = false;
      } else if (r < 0.8f) {
        tweens.pause(handles[i]);
        paused[i] = true;
      } else {
        tweens.resume(handles[i]);
        paused[i] = false;
      }
    }
    const f32 dt = unit(rng) * 0.1f;
    tweens.update(dt);
    for (usize i = 0; i < handles.size(); ++i) {
      if (!alive[i] || paused[i]) continue;
      elapsed[i] += dt;
      const f32 w = ease(ease_of[i], std::min(elapsed[i] / duration[i], 1.0f));
      expect[i] = from[i] * (1.0f - w) + to[i] * w;
      if (elapsed[i] >= duration[i]) {
        alive[i] = false;
        expect[i] = to[i];
      }
    }
    for (usize i = 0; i < handles.size(); ++i) {
      ASSERT_EQ(real[i], expect[i]) << "frame " << frame << " tween " << i;
    }
  }
}

}  // namespace
}  // namespace keel::tween
