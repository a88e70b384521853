// The interpreter loop's instantiations (detail/interpreter.h) and the frame's choice of loop.
#include "keel/script/detail/interpreter.h"

namespace keel::script::detail {

void Core::run_frame(Machine& machine) {
  bool unused = false;
  if (debug_active()) {
    interpret<Mode::kDebug, false, false>(machine, nullptr, options.command_budget, unused);
  } else {
    interpret<Mode::kFast, false, false>(machine, nullptr, options.command_budget, unused);
  }
}

template u32 Core::run_single<Mode::kFast>(Machine&, Instance&, u32);
template u32 Core::run_single<Mode::kDebug>(Machine&, Instance&, u32);
template u32 Core::run_single<Mode::kStep>(Machine&, Instance&, u32);

}  // namespace keel::script::detail
