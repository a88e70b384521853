// The spec's derived trigger checks (section 7) and the modes, handles and safety beyond them.
#include "keel/tween/trigger_system.h"

#include "keel/tween/testing/values.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

namespace keel::tween {
namespace {

TEST(Trigger, Derived_LessFireOnceFiresOnceOnFortyFrame) {
  TriggerSystem triggers;
  int health = 60;
  std::vector<int> fired_on;
  const TriggerHandle h = triggers.less(health, 50, [&] { fired_on.push_back(health); });
  for (const int v : {60, 55, 40, 30}) {
    health = v;
    triggers.update();
  }
  EXPECT_EQ(fired_on, (std::vector<int>{40}));
  EXPECT_FALSE(triggers.alive(h));  // fire-once: gone after firing
  EXPECT_EQ(triggers.size(), 0u);
}

TEST(Trigger, Derived_LessLevelModeFiresOnFortyAndThirty) {
  TriggerSystem triggers;
  int health = 60;
  std::vector<int> fired_on;
  const TriggerHandle h =
      triggers.less(health, 50, [&] { fired_on.push_back(health); }, {.once = false});
  for (const int v : {60, 55, 40, 30}) {
    health = v;
    triggers.update();
  }
  EXPECT_EQ(fired_on, (std::vector<int>{40, 30}));
  EXPECT_TRUE(triggers.alive(h));
  EXPECT_EQ(triggers.fire_count(h), 2u);
}

TEST(Trigger, Derived_EdgeModeFiresOncePerTransition) {
  TriggerSystem triggers;
  int health = 60;
  std::vector<int> fired_on;
  triggers.less(health, 50, [&] { fired_on.push_back(health); },
                {.once = false, .mode = TriggerMode::kEdge});
  for (const int v : {60, 55, 40, 30, 20, 60, 45, 45, 70, 80, 10}) {
    health = v;
    triggers.update();
  }
  EXPECT_EQ(fired_on, (std::vector<int>{40, 45, 10}));
}

TEST(Trigger, EdgeModeStartsFromTheValueAtCreation) {
  TriggerSystem triggers;
  int health = 10;  // already below 50
  int fired = 0;
  triggers.less(health, 50, [&] { ++fired; }, {.mode = TriggerMode::kEdge});
  triggers.update();
  triggers.update();
  EXPECT_EQ(fired, 0);
  health = 60;
  triggers.update();
  health = 40;
  triggers.update();
  EXPECT_EQ(fired, 1);
}

TEST(Trigger, ComparisonKindsAndCustomPredicates) {
  TriggerSystem triggers;
  int n = 0;
  std::string name = "idle";
  testing::Vec2 pos{0, 5};
  std::vector<std::string> log;
  triggers.equals(n, 3, [&] { log.push_back("eq"); });
  triggers.not_equals(name, std::string("idle"), [&] { log.push_back("ne"); });
  triggers.greater(n, 4, [&] { log.push_back("gt"); });
  triggers.watch(
      pos, [](const testing::Vec2& p) { return p.y < 0; }, [&] { log.push_back("fell"); });
  triggers.when([&] { return n == 5 && name == "run"; }, [&] { log.push_back("when"); });
  triggers.update();
  EXPECT_TRUE(log.empty());
  n = 3;
  triggers.update();
  EXPECT_EQ(log, (std::vector<std::string>{"eq"}));
  name = "run";
  n = 5;
  pos.y = -1;
  triggers.update();
  EXPECT_EQ(log, (std::vector<std::string>{"eq", "ne", "gt", "fell", "when"}));
  EXPECT_EQ(triggers.size(), 0u);
}

TEST(Trigger, HandlersMayKillAndCreateTriggers) {
  TriggerSystem triggers;
  int v = 1;
  std::vector<std::string> log;
  TriggerHandle later;
  TriggerHandle created;
  triggers.equals(v, 1, [&] {
    log.push_back("first");
    triggers.kill(later);  // later in the list: does not fire this update
    created = triggers.equals(v, 1, [&] { log.push_back("created"); });
  });
  later = triggers.equals(v, 1, [&] { log.push_back("later"); });
  triggers.update();
  EXPECT_EQ(log, (std::vector<std::string>{"first"}));
  EXPECT_FALSE(triggers.alive(later));
  EXPECT_TRUE(triggers.alive(created));
  triggers.update();  // the new one is tested from the next update
  EXPECT_EQ(log, (std::vector<std::string>{"first", "created"}));
}

TEST(Trigger, RepeatingHandlerMayKillItself) {
  TriggerSystem triggers;
  int v = 0;
  int fired = 0;
  TriggerHandle self;
  self = triggers.equals(v, 0,
                         [&] {
                           if (++fired == 3) triggers.kill(self);
                         },
                         {.once = false});
  for (int i = 0; i < 10; ++i) triggers.update();
  EXPECT_EQ(fired, 3);
  EXPECT_FALSE(triggers.alive(self));
}

TEST(Trigger, HandlerMayKillEverything) {
  TriggerSystem triggers;
  int v = 0;
  int fired = 0;
  for (int i = 0; i < 5; ++i) {
    triggers.equals(v, 0,
                    [&] {
                      ++fired;
                      triggers.kill_all();
                    },
                    {.once = false});
  }
  triggers.update();
  EXPECT_EQ(fired, 1);
  EXPECT_EQ(triggers.size(), 0u);
  triggers.update();
  EXPECT_EQ(fired, 1);
}

TEST(Trigger, HandlerCapturesMayUseTheSystemWhenDestroyed) {
  struct Owner {
    TriggerSystem* triggers;
    int* watched;
    ~Owner() {
      for (int i = 0; i < 100; ++i) triggers->equals(*watched, 1, [] {});  // records grow
    }
  };
  TriggerSystem triggers;
  int v = 0;
  auto owner = std::make_shared<Owner>(&triggers, &v);
  triggers.equals(v, 0, [owner] {});  // fires once, then its record (and the owner) dies
  owner.reset();
  for (int i = 0; i < 5; ++i) triggers.equals(v, 7, [] {});
  triggers.update();
  EXPECT_EQ(triggers.size(), 105u);
  v = 1;
  triggers.update();
  EXPECT_EQ(triggers.size(), 5u);
}

TEST(Trigger, PauseResumeAndIds) {
  TriggerSystem triggers;
  int v = 0;
  int fired = 0;
  const TriggerHandle h = triggers.equals(v, 0, [&] { ++fired; }, {.once = false, .id = "t"_id});
  EXPECT_EQ(triggers.find("t"_id), h);
  EXPECT_TRUE(triggers.pause(h));
  EXPECT_TRUE(triggers.is_paused(h));
  triggers.update();
  EXPECT_EQ(fired, 0);
  EXPECT_TRUE(triggers.resume(h));
  triggers.update();
  EXPECT_EQ(fired, 1);
  EXPECT_EQ(triggers.kill_id("t"_id), 1u);
  EXPECT_FALSE(triggers.alive(h));
  EXPECT_FALSE(triggers.kill(h));
  EXPECT_FALSE(triggers.pause(h));
  EXPECT_FALSE(triggers.fire_count(h).has_value());
  EXPECT_TRUE(triggers.find("t"_id).is_null());
  triggers.update();
  EXPECT_EQ(fired, 1);
}

TEST(Trigger, HandlesAreGenerationChecked) {
  TriggerSystem triggers;
  int v = 0;
  const TriggerHandle old = triggers.equals(v, 0, [] {});
  triggers.update();  // fires once and ends
  const TriggerHandle fresh = triggers.equals(v, 1, [] {});
  EXPECT_EQ(old.index, fresh.index);
  EXPECT_FALSE(triggers.alive(old));
  EXPECT_FALSE(triggers.kill(old));
  EXPECT_TRUE(triggers.alive(fresh));
}

TEST(Trigger, SignalFiresOncePerUpdateWithRaises) {
  // The shape a key binding takes: the platform layer raises the signal from its event loop.
  TriggerSystem triggers;
  Signal pressed;
  int fired = 0;
  triggers.on_signal(pressed, [&] { ++fired; }, {.once = false});
  triggers.update();
  EXPECT_EQ(fired, 0);
  pressed.raise();
  pressed.raise();  // press, release, press between two frames: not lost
  triggers.update();
  EXPECT_EQ(fired, 1);
  triggers.update();
  EXPECT_EQ(fired, 1);
  pressed.raise();
  triggers.update();
  EXPECT_EQ(fired, 2);
}

TEST(Trigger, RaisesBeforeCreationDoNotCount) {
  TriggerSystem triggers;
  Signal pressed;
  pressed.raise();
  int fired = 0;
  triggers.on_signal(pressed, [&] { ++fired; });
  triggers.update();
  EXPECT_EQ(fired, 0);
  pressed.raise();
  triggers.update();
  EXPECT_EQ(fired, 1);
}

TEST(Trigger, KeyStateWithEdgeMode) {
  // Polling a key-down flag: edge mode gives "pressed" and "released" events.
  TriggerSystem triggers;
  bool down = false;
  std::vector<std::string> log;
  triggers.equals(down, true, [&] { log.push_back("press"); },
                  {.once = false, .mode = TriggerMode::kEdge});
  triggers.equals(down, false, [&] { log.push_back("release"); },
                  {.once = false, .mode = TriggerMode::kEdge});
  for (const bool d : {false, true, true, false, false, true}) {
    down = d;
    triggers.update();
  }
  EXPECT_EQ(log, (std::vector<std::string>{"press", "release", "press"}));
}

}  // namespace
}  // namespace keel::tween
