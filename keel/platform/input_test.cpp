#include "keel/platform/input.h"

#include "keel/core/clock.h"
#include "keel/kernel/kernel.h"
#include "keel/tween/trigger_system.h"

#include <SDL2/SDL.h>
#include <gtest/gtest.h>

#include <array>
#include <string>

namespace keel::platform {
namespace {

InputEvent key(SDL_Scancode code, bool down = true) {
  return {Device::kKey, static_cast<u32>(code), down};
}

TEST(InputMapping, BindingsParse) {
  EXPECT_EQ(*parse_binding("key:Space"), key(SDL_SCANCODE_SPACE));
  EXPECT_EQ(*parse_binding("KEY:left"), key(SDL_SCANCODE_LEFT));
  EXPECT_EQ(*parse_binding("mouse:Right"), (InputEvent{Device::kMouse, SDL_BUTTON_RIGHT, true}));
  EXPECT_EQ(*parse_binding("pad:A"),
            (InputEvent{Device::kPad, static_cast<u32>(SDL_CONTROLLER_BUTTON_A), true}));
  EXPECT_FALSE(parse_binding("key:NoSuchKey"));
  EXPECT_FALSE(parse_binding("joystick:1"));
  EXPECT_FALSE(parse_binding("Space"));
}

TEST(InputMapping, BindingsComeFromSettings) {
  Input input;
  input.add_action("fire", {"key:Space"});
  input.add_action("thrust", {"key:Up", "pad:dpup"});
  settings::Settings settings;
  ASSERT_TRUE(input.add_settings(settings));
  const std::array<std::string_view, 1> args{"bind_fire=key:Return;mouse:left"};
  ASSERT_TRUE(settings.apply_args(args).errors.empty());
  ASSERT_TRUE(input.apply_bindings());

  const std::array down{key(SDL_SCANCODE_RETURN)};
  input.update(down);
  EXPECT_TRUE(input.pressed("fire"));
  EXPECT_TRUE(input.down("fire"));
  const std::array space{key(SDL_SCANCODE_SPACE)};  // no longer bound
  input.update(space);
  EXPECT_FALSE(input.pressed("fire"));
  EXPECT_TRUE(input.down("fire"));  // Return still held
  const std::array up{key(SDL_SCANCODE_RETURN, false)};
  input.update(up);
  EXPECT_TRUE(input.released("fire"));
  EXPECT_FALSE(input.down("fire"));
  const std::array pad{InputEvent{Device::kPad, SDL_CONTROLLER_BUTTON_DPAD_UP, true}};
  input.update(pad);
  EXPECT_TRUE(input.down("thrust"));
}

TEST(InputMapping, BadBindingsAreReportedAndTheRestWork) {
  Input input;
  input.add_action("fire", {"key:Space", "key:Bogus"});
  const Status s = input.apply_bindings();
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().message().find("Bogus"), std::string::npos);
  const std::array down{key(SDL_SCANCODE_SPACE)};
  input.update(down);
  EXPECT_TRUE(input.down("fire"));
}

TEST(InputMapping, TwoKeysOnOneActionPressOnce) {
  Input input;
  input.add_action("fire", {"key:Space", "key:Z"});
  ASSERT_TRUE(input.apply_bindings());
  const std::array both{key(SDL_SCANCODE_SPACE), key(SDL_SCANCODE_Z),
                        key(SDL_SCANCODE_SPACE, false)};
  input.update(both);
  EXPECT_TRUE(input.pressed("fire"));
  EXPECT_TRUE(input.down("fire"));
  EXPECT_EQ(input.pressed_signal("fire").count(), 1u);
}

TEST(InputMapping, ScriptedInputFeedsTweenTriggersThroughTheKernelTask) {
  Input input;
  input.add_action("jump", {"key:Space"});
  ASSERT_TRUE(input.apply_bindings());
  ScriptedInput source;
  source.at(1, key(SDL_SCANCODE_SPACE));
  source.at(1, key(SDL_SCANCODE_SPACE, false));  // pressed and released within one frame
  source.at(3, key(SDL_SCANCODE_SPACE));

  tween::TriggerSystem triggers;
  int jumps = 0;
  triggers.on_signal(input.pressed_signal("jump"), [&] { ++jumps; }, {.once = false});

  FakeClock clock;
  kernel::Kernel kernel(clock);
  ASSERT_TRUE(kernel.add(std::make_shared<InputTask>(input, source)));
  std::array<int, 5> seen{};
  for (int frame = 0; frame < 5; ++frame) {
    clock.advance_seconds(1.0 / 60);
    kernel.step();
    triggers.update();
    seen[static_cast<usize>(frame)] = jumps;
  }
  EXPECT_EQ(seen, (std::array<int, 5>{0, 1, 1, 2, 2}));
  EXPECT_TRUE(input.down("jump"));
}

}  // namespace
}  // namespace keel::platform
