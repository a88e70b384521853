// Internal: the state of one running script instance, shared by machine.cpp and call.cpp.
#pragma once

#include "keel/core/error.h"
#include "keel/core/hash.h"
#include "keel/core/types.h"
#include "keel/script/commands.h"
#include "keel/script/library.h"
#include "keel/script/machine.h"

#include <memory>
#include <vector>

namespace keel::script::detail {

struct Var {
  Hash name;
  s32 value;
};

struct Frame {  // a CALLSCRIPT return address
  const Script* script;
  u32 pc;
};

enum class Wait : u8 { kNone, kFrames, kSeconds };

inline constexpr u32 kInlineVars = 6;

struct Instance {
  // Hot: what the interpreter touches every command.
  const std::byte* code = nullptr;
  u32 size = 0;
  u32 pc = 0;
  InstanceState state = InstanceState::kFree;
  Wait wait = Wait::kNone;
  u8 var_count = 0;  // used entries of `vars`
  bool halted = false;
  u32 depth = 0;  // CALLSCRIPT depth
  u32 generation = 0;
  u64 born = 0;  // frame in which it was started
  u64 resume_frame = 0;
  f64 resume_time = 0.0;
  Var vars[kInlineVars];
  // Colder.
  const Script* script = nullptr;
  void* user = nullptr;
  Frame* stack = nullptr;  // max_call_depth entries, owned by the Machine
  u32 index = 0;
  u32 last_line = 0;  // debug mode: line of the last command run (breakpoints fire once per line)
  std::vector<Var> more_vars;
  std::unique_ptr<Error> error;
};

struct GameOp {
  const CommandDef* def = nullptr;
  u16 fixed = 0;  // header + kinds word + parameters
  u16 params_at = 4;
  bool kinds = false;
};

}  // namespace keel::script::detail
