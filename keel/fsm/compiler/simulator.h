// A console simulator for one FSM (keel-fsm run): every function the FSM calls is stubbed to
// print its name, SetAnimation and Error print, and each event prints its result, the state and
// the behaviour bits with their names, with every callback in between:
//
//   > input_attack
//     Stance -> Attack
//     call ChooseTarget
//     animation Attack [blend repeat]
//     = changed-state, state Attack, behaviour 0x3 [animate physics]
//
// Functions named by CreateLink supply no targets, so links never form in the simulator.
#pragma once

#include "keel/core/error.h"
#include "keel/fsm/environment.h"
#include "keel/fsm/functions.h"
#include "keel/fsm/instance.h"
#include "keel/fsm/library.h"

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace keel::fsm {

class Simulator : private Observer {
 public:
  using Output = std::function<void(std::string_view line)>;

  Simulator(const FsmDef& fsm, Output output, u64 seed = 1);
  Simulator(const Simulator&) = delete;
  Simulator& operator=(const Simulator&) = delete;

  // Inits the instance (its state_enter runs) and prints the starting state.
  Status start();
  // One event; "state_run" (the type's run event) goes through run().
  EventResult event(std::string_view name);
  const FsmInstance& instance() const { return instance_; }

  // Event names from an events file: one per line, `#` starts a comment, blank lines skipped.
  static std::vector<std::string> parse_events(std::string_view text);

 private:
  void on_event(FsmInstance& instance, Hash event, bool handled) override;
  void on_transition(FsmInstance& instance, const StateDef* from, const StateDef& to) override;
  void on_execute(FsmInstance& instance, Hash function) override;
  void on_animation(FsmInstance& instance, const AnimationRequest& request) override;
  void on_error(FsmInstance& instance, std::string_view message) override;

  std::string status() const;
  void print(std::string text) const;

  const FsmDef* fsm_;
  Output output_;
  FunctionRegistry functions_;
  Environment env_;
  FsmInstance instance_;
  bool top_level_ = false;  // the event being delivered came from the events list
};

}  // namespace keel::fsm
