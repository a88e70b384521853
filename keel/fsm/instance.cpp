// FsmInstance: init, reset, events and the command interpreter. Links are in links.cpp.
#include "keel/fsm/instance.h"

#include "keel/core/assert.h"
#include "keel/fsm/modifier.h"

#include <bit>

namespace keel::fsm {

FsmInstance::~FsmInstance() { unlink_all(); }

Status FsmInstance::init(void* object, const FsmDef& fsm, Environment& env) {
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
  state_ = nullptr;
  reset();
  return ok();
}

void FsmInstance::reset() {
  KEEL_ASSERT(fsm_ != nullptr, "reset() before init()");
  enter(*fsm_->initial);
}

void FsmInstance::enter(const StateDef& to) {
  const StateDef* from = state_;
  state_ = &to;
  flags_ = 0;
  behavior_ = to.behaviors;
  ++transitions_;
  if (env_->observer_ != nullptr) env_->observer_->on_transition(*this, from, to);
  if (to.on_enter != nullptr) run_handler(to.on_enter);
}

void FsmInstance::transition(Hash target, bool run_exit) {
  if (exiting_ > 0) return;  // the state is already being left
  const StateDef* to = fsm_->find_state(target);
  KEEL_ASSERT(to != nullptr, "unresolved transition target (FsmLibrary::link checks these)");
  if (run_exit && state_->on_exit != nullptr) {
    ++exiting_;
    run_handler(state_->on_exit);
    --exiting_;
  }
  enter(*to);
}

EventResult FsmInstance::event(Hash event) {
  KEEL_ASSERT(state_ != nullptr, "event() before init()");
  const Handler* handler = state_->find(event);
  if (env_->observer_ != nullptr) env_->observer_->on_event(*this, event, handler != nullptr);
  if (handler == nullptr) return EventResult::kNotFound;
  const u32 before = transitions_;
  run_handler(handler->stream);
  return transitions_ != before ? EventResult::kChangedState : EventResult::kSucceeded;
}

EventResult FsmInstance::run() {
  KEEL_ASSERT(state_ != nullptr, "run() before init()");
  const u32* stream = state_->on_run;
  if (env_->observer_ != nullptr)
    env_->observer_->on_event(*this, fsm_->run_event, stream != nullptr);
  if (stream == nullptr) return EventResult::kNotFound;
  const u32 before = transitions_;
  run_handler(stream);
  return transitions_ != before ? EventResult::kChangedState : EventResult::kSucceeded;
}

bool FsmInstance::has_behavior(std::string_view name) const {
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

void FsmInstance::run_handler(const u32* stream) {
  if (env_->depth_ >= env_->max_depth_) {
    report(
        fmt::format("handlers nested deeper than {} (a loop of Event, SendEvent or "
                    "state_enter transitions?); this one is skipped",
                    env_->max_depth_));
    return;
  }
  ++env_->depth_;
  exec(stream);
  --env_->depth_;
}

void FsmInstance::report(std::string_view message) {
  if (env_->observer_ != nullptr) env_->observer_->on_error(*this, message);
  if (env_->error_handler_) env_->error_handler_(*this, message);
}

void FsmInstance::call(Hash function) {
  if (env_->observer_ != nullptr) env_->observer_->on_execute(*this, function);
  const FsmFunction* fn = env_->functions_->find(function);
  if (fn == nullptr) {
    report(fmt::format("function '{}' is not registered", fsm_->string(function)));
    return;
  }
  (*fn)(*this);
}

void FsmInstance::animate(Hash alias, u8 flags) {
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
void FsmInstance::exec(const u32* s) {
  const u32 start_transitions = transitions_;
  auto changed = [&] { return transitions_ != start_transitions; };
  u32 pc = 0;
  for (;;) {
    const u32 h = s[pc];
    const u32 len = header_length(h);
    const u32 a = header_a(h);
    const u32 b = header_b(h);
    switch (static_cast<Opcode>(header_opcode(h))) {
      case Opcode::kEnd: return;
      case Opcode::kTransition: transition(s[pc + 1], (a & kTransitionRunExit) != 0); return;
      case Opcode::kExecute:
        call(s[pc + 1]);
        if (changed()) return;
        break;
      case Opcode::kSetAnimation:
        animate(s[pc + 1], static_cast<u8>(a));
        if (changed()) return;
        break;
      case Opcode::kSetFlag: {
        u32 i = pc + 1;
        if (a != 0) flags_ |= s[i++];
        if (b != 0) flags_ &= ~s[i];
        break;
      }
      case Opcode::kIfFlags: {
        u32 i = pc + 1;
        bool pass = true;
        if (a != 0) {
          const u32 mask = s[i++];
          pass = (flags_ & mask) == mask;
        }
        if (b != 0) pass = pass && (flags_ & s[i]) == 0;
        pc += 1 + (pass ? a + b : len);
        continue;
      }
      case Opcode::kError:
        report(fsm_->string(s[pc + 1]));
        if (changed()) return;
        break;
      case Opcode::kEvent: event(s[pc + 1]); return;
      case Opcode::kChangeBehavior: {
        u32 i = pc + 1;
        if (a != 0) behavior_ |= s[i++];
        if (b != 0) behavior_ &= ~s[i];
        break;
      }
      case Opcode::kCreateLink:
        create_link_command(s + pc);
        if (changed()) return;
        break;
      case Opcode::kAcceptLink:
        if (accepting_) accepted_ = true;
        break;
      case Opcode::kBreakLink:
        for (u32 i = 0; i < a; ++i) break_link(s[pc + 1 + i]);
        if (changed()) return;
        break;
      case Opcode::kIfLink: {
        bool pass = true;
        for (u32 i = 0; i < a && pass; ++i) pass = has_link(s[pc + 1 + i]);
        for (u32 i = 0; i < b && pass; ++i) pass = !has_link(s[pc + 1 + a + i]);
        pc += 1 + (pass ? a + b : len);
        continue;
      }
      case Opcode::kIfRandom: {
        const bool pass = env_->random_.next_float() < std::bit_cast<float>(s[pc + 1]);
        pc += 1 + (pass ? 1 : len);
        continue;
      }
      case Opcode::kSendEvent:
        send(s[pc + 1], s[pc + 2]);
        if (changed()) return;
        break;
      default: {
        const bool pass = custom(s + pc);
        if (changed()) return;
        if (has_block(h)) {
          pc += 1 + (pass ? block_operands(h) : len);
          continue;
        }
        break;
      }
    }
    pc += 1 + len;
  }
}

}  // namespace keel::fsm
