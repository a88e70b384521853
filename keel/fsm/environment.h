// What FsmInstances share: the function registry, the random source of IfRandom, the handlers
// for Error, SetAnimation (when an instance has no AnimationTarget) and a type's own commands,
// an optional Observer (tracing, debuggers, the keel-fsm simulator) and the nesting limit.
//
//   fsm::Environment env(functions, /*seed=*/42);
//   env.set_error_handler([](fsm::FsmInstance& i, std::string_view msg) { hud.flash(msg); });
//   env.set_command_handler(play_sound_opcode, [](fsm::FsmInstance& i, const fsm::CommandCall& c) {
//     audio.play(c.hash(0));
//     return true;
//   });
#pragma once

#include "keel/core/error.h"
#include "keel/core/hash.h"
#include "keel/core/types.h"
#include "keel/fsm/functions.h"
#include "keel/fsm/opcodes.h"
#include "keel/fsm/random.h"

#include <array>
#include <bit>
#include <functional>
#include <span>
#include <string_view>
#include <vector>

namespace keel::fsm {

class FsmInstance;
struct StateDef;

// Table 7.4, FSMRESULT.
enum class EventResult : u8 {
  kNotFound,      // no handler for the event in the state or its parent states
  kSucceeded,     // handled, same state
  kChangedState,  // handled, and at least one transition happened (callbacks included)
};
std::string_view to_string(EventResult result);  // "not-found", "succeeded", "changed-state"

// A SetAnimation command: the alias (the character's table turns it into a clip) and the
// effective modifier bits (kAnimBlend, kAnimRepeat, kAnimReverse, kAnimKeepFrame).
struct AnimationRequest {
  Hash alias = 0;
  u8 flags = kAnimDefault;
  bool blend() const { return (flags & kAnimBlend) != 0; }
  bool repeat() const { return (flags & kAnimRepeat) != 0; }
  bool reverse() const { return (flags & kAnimReverse) != 0; }
  bool keep_frame() const { return (flags & kAnimKeepFrame) != 0; }
};

// The animation behaviour of one character (see animation.h for Keel's own).
class AnimationTarget {
 public:
  virtual ~AnimationTarget() = default;
  virtual void play(FsmInstance& instance, const AnimationRequest& request) = 0;
};

// A command a type added (FsmType::add_command) as the game's handler sees it.
struct CommandCall {
  u8 opcode = 0;
  u8 modifiers = 0;                               // bit i = the type's modifier i is on
  std::span<const u32> params;                    // one word per parameter
  Hash hash(usize i) const { return params[i]; }  // a string parameter
  float number(usize i) const { return std::bit_cast<float>(params[i]); }  // a number parameter
  bool modifier(usize i) const { return ((modifiers >> i) & 1) != 0; }
};
// Returns whether the command's block (if it has one) runs.
using CommandHandler = std::function<bool(FsmInstance&, const CommandCall&)>;

// Hooks for tracing. Every function has an empty default.
class Observer {
 public:
  virtual ~Observer() = default;
  // An event reached `instance` (handled: a handler was found), before the handler runs.
  virtual void on_event(FsmInstance& instance, Hash event, bool handled);
  // `instance` entered `to` (from is null after init/reset), before to's state_enter runs.
  virtual void on_transition(FsmInstance& instance, const StateDef* from, const StateDef& to);
  virtual void on_execute(FsmInstance& instance, Hash function);
  virtual void on_animation(FsmInstance& instance, const AnimationRequest& request);
  virtual void on_error(FsmInstance& instance, std::string_view message);
  // A link named `name` from `creator` to `target` was formed or refused.
  virtual void on_link(FsmInstance& creator, FsmInstance& target, Hash name, bool formed);
  virtual void on_unlink(FsmInstance& breaker, FsmInstance& other, Hash name);
};

class Environment {
 public:
  explicit Environment(const FunctionRegistry& functions, u64 seed = 0x5EED5EEDull);
  Environment(const Environment&) = delete;
  Environment& operator=(const Environment&) = delete;

  const FunctionRegistry& functions() const { return *functions_; }
  RandomSource& random() { return random_; }

  // Error("...") commands and runtime problems (unregistered function, nesting too deep). The
  // default writes a warning to the log's client channel.
  void set_error_handler(std::function<void(FsmInstance&, std::string_view)> handler);
  // SetAnimation for instances without an AnimationTarget.
  void set_animation_handler(std::function<void(FsmInstance&, const AnimationRequest&)> handler);
  // For a command a type added (opcode >= kFirstCustomOpcode); a built-in's opcode is refused.
  Status set_command_handler(u8 opcode, CommandHandler handler);
  void set_observer(Observer* observer) { observer_ = observer; }
  Observer* observer() const { return observer_; }

  // Handlers running inside handlers (Event, SendEvent, state_enter transitions, callbacks that
  // send events) nest at most this deep; deeper ones are refused with an error. The book leaves
  // loops to the designer; this keeps a loop from overflowing the stack.
  void set_max_depth(u32 depth) { max_depth_ = depth; }
  u32 max_depth() const { return max_depth_; }

 private:
  friend class FsmInstance;
  struct BreakTarget {
    FsmInstance* other;
    Hash unlink_event;
    bool notify;
  };

  const FunctionRegistry* functions_;
  RandomSource random_;
  std::function<void(FsmInstance&, std::string_view)> error_handler_;
  std::function<void(FsmInstance&, const AnimationRequest&)> animation_handler_;
  std::array<CommandHandler, 256 - kFirstCustomOpcode> commands_;
  Observer* observer_ = nullptr;
  u32 max_depth_ = 64;
  u32 depth_ = 0;
  std::vector<FsmInstance*> send_scratch_;  // SendEvent targets (a stack: sends nest)
  std::vector<BreakTarget> break_scratch_;  // BreakLink partners
};

}  // namespace keel::fsm
