// Internal: the state of one running script instance, shared by machine.cpp and call.cpp.
#pragma once

#include "keel/core/error.h"
#include "keel/core/hash.h"
#include "keel/core/types.h"
#include "keel/script/commands.h"
#include "keel/script/library.h"
#include "keel/script/machine.h"
#include "keel/script/variables.h"

#include <memory>

namespace keel::script::detail {

struct Frame {  // a CALLSCRIPT return address
  const Script* script;
  u32 pc;
  bool trusted;
};

enum class Wait : u8 { kNone, kFrames, kSeconds };

struct Instance {
  // Hot: what the scheduler and the interpreter touch every frame.
  const std::byte* code = nullptr;
  u32 size = 0;
  u32 pc = 0;
  InstanceState state = InstanceState::kFree;
  Wait wait = Wait::kNone;
  bool halted = false;
  bool trusted = false;  // the current script was validated when loaded: no per-command checks
  u8 depth = 0;          // CALLSCRIPT depth
  u32 generation = 0;
  u64 born = 0;  // frame in which it was started (it first runs in the next)
  union {
    u64 resume_frame = 0;
    f64 resume_time;
  };
  const Script* script = nullptr;
  VariableSet variables;
  // Colder.
  void* user = nullptr;
  Frame* stack = nullptr;  // max_call_depth entries, owned by the Machine
  u32 index = 0;
  u32 last_line = 0;  // debug mode: line of the last command run (breakpoints fire once per line)
  std::unique_ptr<Error> error;
};

using HandlerFunction = Outcome (*)(Call&);

struct GameOp {
  const CommandDef* def = nullptr;
  HandlerFunction function =
      nullptr;               // the handler when it is a plain function (no std::function hop)
  u16 fixed = 0;             // header + kinds word + parameters
  u16 params_at = 4;         // 8 with a kinds word
  bool kinds = false;        // has a kinds word
  bool conditional = false;  // the signature allows a conditional
  u32 variable_mask = 0;     // kVariable parameters
  u32 value_mask = 0;        // kValue parameters (the kinds word may mark these as variables)
  u32 float_mask = 0;        // kFloat parameters
};

}  // namespace keel::script::detail
