// Input: keyboard keys, mouse buttons and game-controller buttons mapped to named actions.
// Bindings are settings (a list per action, "bind_<action>"), so players rebind in the settings
// file or on the command line (bind_fire=key:Space;pad:a). Each frame an InputSource delivers
// device events (SDL's event queue, or a scripted list for tests and replays); Input turns them
// into per-action state and raises a tween::Signal per press, which keel/tween's key triggers
// (TriggerSystem::on_signal) consume. InputTask does this as the kernel's input task.
//
//   Input input;
//   input.add_action("fire", {"key:Space", "mouse:left", "pad:a"});
//   input.add_settings(settings);                       // bind_fire, ... (before settings.load)
//   settings.load(files, args);  input.apply_bindings();  // parse; errors name the binding
//   triggers.on_signal(input.pressed_signal("fire"), shoot, {.once = false});
//   kernel.add(std::make_shared<InputTask>(input, source));
//   if (input.down("thrust")) ...;  if (input.pressed("fire")) ...;
//
// Binding names: "key:<SDL scancode name>" (Space, Left, A, F5, Return, ...), "mouse:left",
// "mouse:middle", "mouse:right", "pad:<SDL controller button>" (a, b, x, y, back, start,
// leftshoulder, dpup, ...). Names are case-insensitive.
#pragma once

#include "keel/core/error.h"
#include "keel/core/types.h"
#include "keel/kernel/task.h"
#include "keel/settings/settings.h"
#include "keel/spatial/vec2.h"
#include "keel/tween/signal.h"

#include <deque>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace keel::platform {

enum class Device : u8 { kKey, kMouse, kPad };

struct InputEvent {
  Device device = Device::kKey;
  u32 code = 0;  // SDL_Scancode, SDL mouse button (1..3), SDL_GameControllerButton
  bool down = true;
  friend bool operator==(const InputEvent&, const InputEvent&) = default;
};

// Parses "key:Space" and friends into the event it matches (down = true).
Result<InputEvent> parse_binding(std::string_view binding);

// Where a frame's events come from.
class InputSource {
 public:
  virtual ~InputSource() = default;
  // Appends this frame's events to `out`.
  virtual void poll(std::vector<InputEvent>& out) = 0;
  // The user closed the window (or the script ended with a quit).
  virtual bool quit_requested() const = 0;
  virtual spatial::Vec2 mouse() const { return {0, 0}; }
};

// SDL's event queue (keyboard, mouse, controllers opened as they are plugged in). Needs SDL's
// video subsystem (a Window); controllers are opened when SDL's game-controller subsystem starts.
class SdlInputSource final : public InputSource {
 public:
  SdlInputSource();
  ~SdlInputSource() override;
  SdlInputSource(const SdlInputSource&) = delete;
  SdlInputSource& operator=(const SdlInputSource&) = delete;
  void poll(std::vector<InputEvent>& out) override;
  bool quit_requested() const override { return quit_; }
  spatial::Vec2 mouse() const override { return mouse_; }
  // Keys other systems want (F1 for the profiler overlay) also arrive here as events.
 private:
  bool quit_ = false;
  bool controllers_ = false;
  spatial::Vec2 mouse_{0, 0};
};

// Injected input for tests and replays: events scheduled by frame number, delivered by poll()
// in order (one poll per frame).
class ScriptedInput final : public InputSource {
 public:
  void at(u64 frame, InputEvent event) { script_.push_back({frame, event}); }
  void quit_at(u64 frame) { quit_frame_ = frame; }
  void poll(std::vector<InputEvent>& out) override;
  bool quit_requested() const override { return frame_ > quit_frame_; }
  u64 frame() const { return frame_; }

 private:
  struct Scheduled {
    u64 frame;
    InputEvent event;
  };
  std::vector<Scheduled> script_;
  u64 frame_ = 0;
  u64 quit_frame_ = ~u64{0};
};

class Input {
 public:
  // Declares an action with its default bindings (a programmer error to declare one twice:
  // asserted; release keeps the first). Bindings are parsed by apply_bindings().
  void add_action(std::string name, std::vector<std::string> default_bindings);
  // Registers "bind_<action>" list settings bound to the actions' binding lists. Skips (and
  // reports kAlreadyExists for) names the registry already has.
  Status add_settings(settings::Settings& settings);
  // Parses every action's bindings; a bad binding is skipped and reported (all of them, in one
  // error message), the others work.
  Status apply_bindings();

  // One frame: clears pressed/released, applies the events in order.
  void update(std::span<const InputEvent> events);

  // Unknown action names read as not down (and are no error: menus probe optional actions).
  bool down(std::string_view action) const;
  bool pressed(std::string_view action) const;   // went down this frame
  bool released(std::string_view action) const;  // went up this frame
  // Raised once per press; lives as long as the Input. An unknown action gets a signal that
  // never fires (asserted in debug builds: a typo).
  const tween::Signal& pressed_signal(std::string_view action) const;
  const std::vector<std::string>& bindings(std::string_view action) const;
  usize action_count() const { return actions_.size(); }

 private:
  struct Action {
    std::string name;
    std::vector<std::string> bindings;  // the setting's variable
    std::vector<InputEvent> parsed;
    u32 held = 0;  // bound inputs currently down
    bool pressed = false;
    bool released = false;
    std::unique_ptr<tween::Signal> signal = std::make_unique<tween::Signal>();
  };
  const Action* find(std::string_view name) const;
  std::deque<Action> actions_;  // stable addresses: settings bind to the binding lists
  std::vector<InputEvent> held_;
};

// The kernel's input task: polls the source and updates the Input first thing every frame
// (priority 100: before game tasks at the default 5000).
class InputTask final : public kernel::Task {
 public:
  static constexpr s32 kPriority = 100;
  InputTask(Input& input, InputSource& source);
  void update(const kernel::Frame& frame) override;
  const std::vector<InputEvent>& events() const { return events_; }  // this frame's

 private:
  Input* input_;
  InputSource* source_;
  std::vector<InputEvent> events_;
};

}  // namespace keel::platform
