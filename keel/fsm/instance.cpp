// FsmInstance: init, reset, events and the command interpreter. Links are in links.cpp.
#include "keel/fsm/instance.h"

#include "keel/core/assert.h"
#include "keel/fsm/detail/modifier.h"

#include <fmt/format.h>

#include <bit>

namespace keel::fsm {

namespace {
const FunctionRegistry kNoFunctions;
}  // namespace

const StateDef FsmInstance::kNoState{};
const FsmDef FsmInstance::kNoFsm{};
Environment FsmInstance::no_environment_{kNoFunctions};

FsmInstance::~FsmInstance() { unlink_all(); }

Status FsmInstance::init(void* object, const FsmDef& fsm, Environment& env) {
  if (fsm.initial == nullptr) {
    return fail(ErrorCode::kInvalidArgument,
                "FSM '{}' is not linked (use FsmLibrary::find() after a successful link())",
                fsm.name_string);
  }
  std::string missing;
  usize count = 0;
  for (const Hash h : fsm.functions()) {
    if (env.functions().find(h) != nullptr) continue;
    missing += fmt::format("{}'{}'", count == 0 ? "" : ", ", fsm.string(h));
    ++count;
  }
  if (count != 0) {
    return fail(ErrorCode::kNotFound,
                "FSM '{}' calls {} function{} the game has not registered: {}", fsm.name_string,
                count, count == 1 ? "" : "s", missing);
  }
  unlink_all();
  object_ = object;
  fsm_ = &fsm;
  env_ = &env;
  state_ = &kNoState;
  enter(*fsm.initial);
  return ok();
}

FsmInstance::Snapshot FsmInstance::snapshot() const {
  if (!initialized()) return {};
  return {fsm_->name, state_->name, behavior_, flags_, transitions_};
}

Status FsmInstance::restore(const Snapshot& snapshot) {
  if (!initialized()) {
    return Unexpected(Error(ErrorCode::kInvalidArgument, "FsmInstance::restore() before init()"));
  }
  if (snapshot.fsm != fsm_->name) {
    return Unexpected(Error(ErrorCode::kInvalidArgument,
                            fmt::format("FSM snapshot of another FSM (name hash {:#x}) given to "
                                        "an instance of '{}'",
                                        snapshot.fsm, fsm_->name_string)));
  }
  const StateDef* state = fsm_->find_state(snapshot.state);
  if (state == nullptr) {
    return Unexpected(Error(ErrorCode::kNotFound,
                            fmt::format("FSM '{}' has no state with name hash {:#x} (saved by "
                                        "another version of the FSM?)",
                                        fsm_->name_string, snapshot.state)));
  }
  if (state->flag_count < 32 && (snapshot.flags >> state->flag_count) != 0) {
    return Unexpected(Error(
        ErrorCode::kInvalidArgument,
        fmt::format("FSM '{}' state '{}' has {} flag(s); the snapshot sets "
                    "flags {:#x}",
                    fsm_->name_string, state->name_string, state->flag_count, snapshot.flags)));
  }
  state_ = state;
  behavior_ = snapshot.behavior;
  flags_ = snapshot.flags;
  transitions_ = snapshot.transitions;
  return {};
}

void FsmInstance::reset() {
  KEEL_ASSERT(initialized(), "FsmInstance::reset() before init()");
  if (fsm_->initial == nullptr) return;
  enter(*fsm_->initial);
}

// Makes `to` the current state; its state_enter is the caller's to run.
[[gnu::always_inline]] inline void FsmInstance::switch_state(const StateDef& to) {
  const StateDef* from = state_;
  state_ = &to;
  flags_ = 0;
  behavior_ = to.behaviors;
  ++transitions_;
  if (env_->observer_ != nullptr) [[unlikely]]
    env_->observer_->on_transition(*this, from != &kNoState ? from : nullptr, to);
}

void FsmInstance::enter(const StateDef& to) {
  switch_state(to);
  if (to.on_enter != nullptr) exec<false>(to.on_enter);
}

// The first half of a Transition: the target, after the current state's state_exit ran; null
// when the transition is ignored (inside a state_exit).
[[gnu::always_inline]] inline const StateDef* FsmInstance::leave(Hash target, bool run_exit) {
  if (exiting_ > 0) return nullptr;  // the state is already being left
  const StateDef* to = fsm_->find_state(target);
  KEEL_ASSERT(to != nullptr, "unresolved transition target (FsmLibrary::link checks these)");
  if (run_exit && state_->on_exit != nullptr) {
    ++exiting_;
    exec<false>(state_->on_exit);
    --exiting_;
  }
  return to;
}

[[gnu::always_inline]] inline bool FsmInstance::descend() {
  if (env_->depth_ >= env_->max_depth_) [[unlikely]] {
    report_too_deep();
    return false;
  }
  ++env_->depth_;
  return true;
}

void FsmInstance::report_too_deep() {
  report(
      fmt::format("handlers nested deeper than {} (a loop of Event, SendEvent or "
                  "state_enter transitions?); this one is skipped",
                  env_->max_depth_));
}

EventResult FsmInstance::deliver_observed(Hash event, const u32* handler) {
  env_->observer_->on_event(*this, event, handler != nullptr);
  if (handler == nullptr) return EventResult::kNotFound;
  const u32 before = transitions_;
  exec<true>(handler);
  return transitions_ != before ? EventResult::kChangedState : EventResult::kSucceeded;
}

bool FsmInstance::has_behavior(std::string_view name) const {
  if (!initialized()) return false;
  for (u32 b = 0; b < fsm_->behavior_count(); ++b) {
    if (iequals(fsm_->behavior_name(b), name)) return ((behavior_ >> b) & 1) != 0;
  }
  return false;
}

bool FsmInstance::flag(std::string_view name) const {
  for (u32 b = 0; b < state_->flag_count; ++b) {
    if (state_->view.flag_name(b) == name) return ((flags_ >> b) & 1) != 0;
  }
  return false;
}

void FsmInstance::report(std::string_view message) {
  if (env_->observer_ != nullptr) env_->observer_->on_error(*this, message);
  if (env_->error_handler_) env_->error_handler_(*this, message);
}

[[gnu::always_inline]] inline void FsmInstance::call_inline(Hash function) {
  if (env_->observer_ != nullptr) env_->observer_->on_execute(*this, function);
  const FsmFunction* fn = env_->functions_->find(function);
  if (fn == nullptr) {
    report(fmt::format("function '{}' is not registered", fsm_->string(function)));
    return;
  }
  (*fn)(*this);
}

void FsmInstance::call(Hash function) { call_inline(function); }

[[gnu::always_inline]] inline void FsmInstance::animate(Hash alias, u8 flags) {
  const AnimationRequest request{alias, flags};
  if (env_->observer_ != nullptr) env_->observer_->on_animation(*this, request);
  if (animation_ != nullptr) {
    animation_->play(*this, request);
  } else if (env_->animation_handler_) {
    env_->animation_handler_(*this, request);
  }
}

bool FsmInstance::custom(const u32* command) {
  const u32 header = command[0];
  const u8 op = header_opcode(header);
  const CommandHandler& handler = env_->commands_[op - kFirstCustomOpcode];
  if (!handler) {
    report(fmt::format("no handler for command opcode {}", op));
    return false;
  }
  const CommandCall call{op, static_cast<u8>(header_a(header)),
                         std::span<const u32>(command + 1, header_b(header) & 0x7F)};
  return handler(*this, call);
}

// The interpreter. Blocks follow their conditional command directly, so entering a block is
// moving past the operands and skipping it is moving past the whole length: one flat loop.
// A handler ends at End, Transition or Event, or as soon as a callback caused a transition.
// The frequent commands are here; the others are in exec_other(), which keeps this loop small.
// Dispatch is threaded (GCC/Clang labels as values): every command jumps to the next from its
// own site, so the branch predictor learns which command follows which - about 20% faster than
// a single `switch` in bench/fsm_bench.cpp.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpedantic"
template <bool kEvent>
void FsmInstance::exec(const u32* p) {
  // Indexed by the whole opcode byte: no range check (the loader rejects unknown built-ins,
  // custom opcodes are >= 32).
#define KEEL_FSM_OTHER4 &&op_other, &&op_other, &&op_other, &&op_other
#define KEEL_FSM_OTHER16 KEEL_FSM_OTHER4, KEEL_FSM_OTHER4, KEEL_FSM_OTHER4, KEEL_FSM_OTHER4
  static void* const kTable[256] = {
      &&op_end,         &&op_transition,  &&op_execute,     &&op_animation,   &&op_setflag,
      &&op_ifflags,     &&op_other,       &&op_event,       &&op_other,       &&op_other,
      &&op_other,       &&op_other,       &&op_other,       &&op_other,       &&op_other,
      &&op_other,       KEEL_FSM_OTHER16, KEEL_FSM_OTHER16, KEEL_FSM_OTHER16, KEEL_FSM_OTHER16,
      KEEL_FSM_OTHER16, KEEL_FSM_OTHER16, KEEL_FSM_OTHER16, KEEL_FSM_OTHER16, KEEL_FSM_OTHER16,
      KEEL_FSM_OTHER16, KEEL_FSM_OTHER16, KEEL_FSM_OTHER16, KEEL_FSM_OTHER16, KEEL_FSM_OTHER16,
      KEEL_FSM_OTHER16};
#undef KEEL_FSM_OTHER16
#undef KEEL_FSM_OTHER4
  static_assert(sizeof(kTable) / sizeof(kTable[0]) == 256);
  u32 start = transitions_;  // of the handler running now (callbacks that transition end it)
  u32 levels = 0;            // nesting levels this call entered
  u32 h = *p;
  // An event's handler that starts with Transition transitions at the event's own level.
  if (!kEvent || header_opcode(h) != static_cast<u8>(Opcode::kTransition)) {
    if (!descend()) return;
    levels = 1;
  }
#define KEEL_FSM_NEXT() \
  h = *p;               \
  goto* kTable[header_opcode(h)]
  KEEL_FSM_NEXT();
op_transition : {
  const StateDef* to = leave(p[1], (header_a(h) & kTransitionRunExit) != 0);
  if (to == nullptr) goto done;
  switch_state(*to);
  if (to->on_enter == nullptr) goto done;
  // The new state's state_enter runs one level deeper. The handler that transitioned ends
  // here, so state_enter continues in this frame instead of a nested call.
  if (!descend()) goto done;
  ++levels;
  start = transitions_;
  p = to->on_enter;
  KEEL_FSM_NEXT();
}
op_event:
  event(p[1]);
  goto done;
op_execute:
  call_inline(p[1]);
  if (transitions_ != start) goto done;
  p += 2;
  KEEL_FSM_NEXT();
op_animation:
  animate(p[1], static_cast<u8>(header_a(h)));
  if (transitions_ != start) goto done;
  p += 2;
  KEEL_FSM_NEXT();
op_setflag : {
  const u32* operand = p + 1;
  if (header_a(h) != 0) flags_ |= *operand++;
  if (header_b(h) != 0) flags_ &= ~*operand;
  p += 1 + header_length(h);
  KEEL_FSM_NEXT();
}
op_ifflags : {
  const u32 a = header_a(h);
  const u32 b = header_b(h);
  const u32* operand = p + 1;
  bool pass = true;
  if (a != 0) {
    const u32 mask = *operand++;
    pass = (flags_ & mask) == mask;
  }
  if (b != 0) pass = pass && (flags_ & *operand) == 0;
  p += 1 + (pass ? a + b : header_length(h));
  KEEL_FSM_NEXT();
}
op_other:
  p = exec_other(p, start);
  if (p == nullptr) goto done;
  KEEL_FSM_NEXT();
#undef KEEL_FSM_NEXT
op_end:
done:
  env_->depth_ -= levels;
}
template void FsmInstance::exec<true>(const u32*);
template void FsmInstance::exec<false>(const u32*);
#pragma GCC diagnostic pop

const u32* FsmInstance::exec_other(const u32* p, u32 start) {
  const u32 h = *p;
  const u32 len = header_length(h);
  const u32 a = header_a(h);
  const u32 b = header_b(h);
  auto changed = [&] { return transitions_ != start; };
  switch (static_cast<Opcode>(header_opcode(h))) {
    case Opcode::kError:
      report(fsm_->string(p[1]));
      if (changed()) return nullptr;
      break;
    case Opcode::kChangeBehavior: {
      const u32* operand = p + 1;
      if (a != 0) behavior_ |= *operand++;
      if (b != 0) behavior_ &= ~*operand;
      break;
    }
    case Opcode::kCreateLink:
      create_link_command(p);
      if (changed()) return nullptr;
      break;
    case Opcode::kAcceptLink:
      if (links_ != nullptr && links_->accepting) links_->accepted = true;
      break;
    case Opcode::kBreakLink:
      for (u32 i = 0; i < a; ++i) break_link(p[1 + i]);
      if (changed()) return nullptr;
      break;
    case Opcode::kIfLink: {
      bool pass = true;
      for (u32 i = 0; i < a && pass; ++i) pass = has_link(p[1 + i]);
      for (u32 i = 0; i < b && pass; ++i) pass = !has_link(p[1 + a + i]);
      return p + 1 + (pass ? a + b : len);
    }
    case Opcode::kIfRandom: {
      const bool pass = env_->random_.next_float() < std::bit_cast<float>(p[1]);
      return p + 1 + (pass ? 1 : len);
    }
    case Opcode::kSendEvent:
      send(p[1], p[2]);
      if (changed()) return nullptr;
      break;
    default: {  // a command the FSM's type added (the loader rejects unknown built-ins)
      const bool pass = custom(p);
      if (changed()) return nullptr;
      if (has_block(h)) return p + 1 + (pass ? block_operands(h) : len);
      break;
    }
  }
  return p + 1 + len;
}

}  // namespace keel::fsm
