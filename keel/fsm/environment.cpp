#include "keel/fsm/environment.h"

#include "keel/core/assert.h"
#include "keel/core/log.h"
#include "keel/fsm/instance.h"

namespace keel::fsm {

std::string_view to_string(EventResult result) {
  switch (result) {
    case EventResult::kNotFound: return "not-found";
    case EventResult::kSucceeded: return "succeeded";
    case EventResult::kChangedState: return "changed-state";
  }
  return "?";
}

void Observer::on_event(FsmInstance&, Hash, bool) {}
void Observer::on_transition(FsmInstance&, const StateDef*, const StateDef&) {}
void Observer::on_execute(FsmInstance&, Hash) {}
void Observer::on_animation(FsmInstance&, const AnimationRequest&) {}
void Observer::on_error(FsmInstance&, std::string_view) {}
void Observer::on_link(FsmInstance&, FsmInstance&, Hash, bool) {}
void Observer::on_unlink(FsmInstance&, FsmInstance&, Hash) {}

Environment::Environment(const FunctionRegistry& functions, u64 seed)
    : functions_(&functions), random_(seed) {
  error_handler_ = [](FsmInstance& instance, std::string_view message) {
    KEEL_LOG_WARN(log::Channel::kClient, "FSM '{}' in state '{}': {}", instance.fsm_name(),
                  instance.state_name(), message);
  };
}

void Environment::set_error_handler(std::function<void(FsmInstance&, std::string_view)> handler) {
  error_handler_ = std::move(handler);
}

void Environment::set_animation_handler(
    std::function<void(FsmInstance&, const AnimationRequest&)> handler) {
  animation_handler_ = std::move(handler);
}

Status Environment::set_command_handler(u8 opcode, CommandHandler handler) {
  if (opcode < kFirstCustomOpcode) {
    return fail(ErrorCode::kInvalidArgument,
                "set_command_handler: opcode {} is a built-in command (a type's own commands "
                "start at {})",
                opcode, kFirstCustomOpcode);
  }
  commands_[opcode - kFirstCustomOpcode] = std::move(handler);
  return ok();
}

}  // namespace keel::fsm
