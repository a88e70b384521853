// A running FSM (the book's FSMINSTANCE): one per FSM that drives an object.
//
//   fsm::FsmInstance brain;
//   if (Status s = brain.init(&hero, *library.find("Player"), env); !s) { ... }  // enters Stance
//   brain.set_animation_target(&hero.animator);       // SetAnimation goes to this character
//   each frame:  apply(brain.behavior());  brain.run();
//   on input:    brain.event("input_attack");         // kNotFound / kSucceeded / kChangedState
//
// init() checks every function the FSM (and its parents) can call against the environment's
// registry and reports all missing names at once. Callbacks receive the instance; the object is
// `instance.object<Hero>()`. An instance must not be destroyed from inside its own callbacks.
// Instances are not copyable or movable (links point at them); destroying one breaks its links
// without sending events. Before init() an instance is inert, never a crash: events and run()
// return kNotFound, reset() and links do nothing, names are empty (debug builds assert).
#pragma once

#include "keel/core/assert.h"
#include "keel/core/error.h"
#include "keel/core/hash.h"
#include "keel/core/types.h"
#include "keel/fsm/environment.h"
#include "keel/fsm/library.h"

#include <memory>
#include <span>
#include <string_view>
#include <vector>

namespace keel::fsm {

class FsmInstance {
 public:
  struct Link {
    Hash name = 0;
    Hash unlink_event = 0;  // "unlink_<name>"
    FsmInstance* other = nullptr;
    u8 flags = 0;          // kLinkOneWay, kLinkAlways
    bool creator = false;  // this end created the link
    bool can_send() const { return creator || (flags & kLinkOneWay) == 0; }
  };

  FsmInstance() = default;
  ~FsmInstance();
  FsmInstance(const FsmInstance&) = delete;
  FsmInstance& operator=(const FsmInstance&) = delete;

  // Binds the instance to `object` and `fsm`, then reset()s into the initial state (whose
  // state_enter may already call back). Fails, changing nothing, when functions are missing.
  Status init(void* object, const FsmDef& fsm, Environment& env);
  bool initialized() const { return state_ != &kNoState; }

  // Back to the initial state: flags cleared, its state_enter runs. No state_exit runs.
  void reset();
  EventResult event(Hash event) {
    KEEL_ASSERT(initialized(), "FsmInstance::event() before init()");
    return deliver(event, state_->handler(event));
  }
  EventResult event(std::string_view name) { return event(string_hash(name)); }
  // The per-frame event of the FSM's type ("state_run").
  EventResult run() {
    KEEL_ASSERT(initialized(), "FsmInstance::run() before init()");
    // deliver() by hand: the run event's hash is loaded only for an observer (2 instructions a
    // call in bench/fsm_bench.cpp; GCC does not sink the load into the branch itself).
    const u32* handler = state_->on_run;
    if (env_->observer_ != nullptr) [[unlikely]]
      return deliver_observed(fsm_->run_event, handler);
    return handle(handler);
  }

  // The behaviour word: the state's bits plus ChangeBehavior edits since entering it.
  u32 behavior() const { return behavior_; }
  bool has_behavior(std::string_view name) const;
  u32 flags() const { return flags_; }
  bool flag(std::string_view name) const;  // a state-local flag of the current state

  const FsmDef& fsm() const { return *fsm_; }
  const StateDef& state() const { return *state_; }
  std::string_view fsm_name() const { return fsm_->name_string; }
  std::string_view state_name() const { return state_->name_string; }
  u32 transition_count() const { return transitions_; }

  void* object() const { return object_; }
  template <typename T>
  T& object() const {
    return *static_cast<T*>(object_);
  }
  Environment& environment() const { return *env_; }

  // Reports a problem through the environment's error handler (as an Error command does).
  void report_error(std::string_view message) { report(message); }

  void set_animation_target(AnimationTarget* target) { animation_ = target; }
  AnimationTarget* animation_target() const { return animation_; }

  // ---- save games and replays ----
  // Everything that puts an instance back where it was: the FSM, the current state, its
  // behaviour word (with ChangeBehavior edits) and flags, and the transition counter. Links
  // join two instances and are not part of it: a game re-creates them once both ends are back.
  struct Snapshot {
    Hash fsm = 0;    // name hash of the FSM
    Hash state = 0;  // name hash of the current state
    u32 behavior = 0;
    u32 flags = 0;
    u32 transitions = 0;
    friend bool operator==(const Snapshot&, const Snapshot&) = default;
  };
  // The instance's snapshot (all zero before init()).
  Snapshot snapshot() const;
  // Puts the instance into `snapshot` without running any handler: no state_exit of the state
  // it leaves, no state_enter of the one restored. Fails, changing nothing, before init(), for
  // a snapshot of another FSM, a state this FSM does not have, or flags the state does not have.
  Status restore(const Snapshot& snapshot);

  // ---- links (Golden Rules ch. 7, "Linking FSMs") ----
  // Inside the function a CreateLink command calls: links to `target` with the command's name
  // and modifiers (call it once per target; several make a broadcast). Anywhere else it is
  // refused (returns false): the book's CreateLink(p, 0, 0) outside a callback.
  bool create_link(FsmInstance& target);
  // Links to `target` under `name`. Consensual unless `flags` has kLinkAlways: the target gets
  // "link_<name>" and must run AcceptLink() in that handler. Returns whether the link formed.
  bool create_link(FsmInstance& target, std::string_view name, u8 flags = 0);
  // Breaks every link called `name`; partners of two-way links then receive "unlink_<name>".
  void break_link(std::string_view name) { break_link(string_hash(name)); }
  void break_link(Hash name);
  bool has_link(Hash name) const;
  bool has_link(std::string_view name) const { return has_link(string_hash(name)); }
  std::span<const Link> links() const {
    return links_ != nullptr ? std::span<const Link>(links_->links) : std::span<const Link>();
  }

 private:
  struct PendingLink {
    Hash name = 0;
    Hash link_event = 0;
    Hash unlink_event = 0;
    u8 flags = 0;
  };

  // The inline part of event() and run(): unhandled events and unobserved handlers need no
  // call beyond the interpreter's. The run event's hash is only needed by an observer.
  EventResult deliver(Hash event, const u32* handler) {
    if (env_->observer_ != nullptr) [[unlikely]]
      return deliver_observed(event, handler);
    return handle(handler);
  }
  EventResult handle(const u32* handler) {
    if (handler == nullptr) return EventResult::kNotFound;
    const u32 before = transitions_;
    exec<true>(handler);
    return transitions_ != before ? EventResult::kChangedState : EventResult::kSucceeded;
  }
  EventResult deliver_observed(Hash event, const u32* handler);
  void switch_state(const StateDef& to);
  void enter(const StateDef& to);
  const StateDef* leave(Hash target, bool run_exit);
  bool descend();
  [[gnu::cold, gnu::noinline]] void report_too_deep();
  // Runs a handler one level deeper (refused past the nesting limit). An event's handler
  // (kEvent) that starts with Transition, the most common kind, transitions at the event's own
  // level, as if the interpreter never started.
  template <bool kEvent>
  void exec(const u32* stream);
  const u32* exec_other(const u32* command, u32 start_transitions);
  void call(Hash function);
  void call_inline(Hash function);
  void animate(Hash alias, u8 flags);
  void report(std::string_view message);
  bool custom(const u32* command);
  void create_link_command(const u32* command);
  bool form_link(FsmInstance& target, const PendingLink& link);
  void send(Hash link, Hash event);
  void unlink_all();
  bool linked_to(const FsmInstance* other, Hash name) const;

  // What an instance points at before init(): a state without handlers in an FSM without
  // states, and an environment without functions or observer. The inline event() and run()
  // need no test for it.
  static const StateDef kNoState;
  static const FsmDef kNoFsm;
  static Environment no_environment_;

  void* object_ = nullptr;
  const FsmDef* fsm_ = &kNoFsm;
  const StateDef* state_ = &kNoState;
  Environment* env_ = &no_environment_;
  AnimationTarget* animation_ = nullptr;
  u32 behavior_ = 0;
  u32 flags_ = 0;
  u32 transitions_ = 0;
  u32 exiting_ = 0;  // > 0 while a state_exit handler runs: transitions are ignored
  // Link bookkeeping lives apart (most instances never link): the instance stays one cache line.
  struct LinkState {
    std::vector<Link> links;
    const PendingLink* pending = nullptr;  // set while a CreateLink callback runs
    bool accepting = false;                // set while a "link_<name>" handshake runs
    bool accepted = false;
  };
  LinkState& link_state();
  std::unique_ptr<LinkState> links_;
};

}  // namespace keel::fsm
