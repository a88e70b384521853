// Internal: the state of one running script instance, shared by machine.cpp and call.cpp.
#pragma once

#include "keel/core/error.h"
#include "keel/core/hash.h"
#include "keel/core/types.h"
#include "keel/script/bytecode.h"
#include "keel/script/call.h"
#include "keel/script/commands.h"
#include "keel/script/library.h"
#include "keel/script/machine.h"
#include "keel/script/variables.h"

#include <limits>
#include <memory>
#include <optional>
#include <string>

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

// Instances live in chunks of kChunkSize (they never move).
inline constexpr u32 kChunkShift = 10;
inline constexpr u32 kChunkSize = 1u << kChunkShift;
inline constexpr f64 kTimeEpsilon = 1e-9;  // PAUSESECONDS(0.5) at 1/60 s resumes after 30 frames

// The scheduler's test: does `in` run in this frame? Ends a wait that is over.
[[gnu::always_inline]] inline bool due(Instance& in, u64 frame, f64 time) {
  if (in.state == InstanceState::kWaiting) {
    if (in.wait == Wait::kFrames ? frame < in.resume_frame : time + kTimeEpsilon < in.resume_time) {
      return false;
    }
    in.state = InstanceState::kRunning;
    in.wait = Wait::kNone;
  } else if (in.state != InstanceState::kRunning) {
    return false;
  }
  return !in.halted && in.born != frame;
}

// The end of a script entered by CALLSCRIPT (in.depth > 0): back to the caller's script, at the
// command after the CALLSCRIPT (in.pc).
inline void return_from_call(Instance& in) {
  const Frame& back = in.stack[--in.depth];
  in.script = back.script;
  in.trusted = back.trusted;
  in.code = back.script->code.data();
  in.size = static_cast<u32>(back.script->code.size());
  in.pc = back.pc;
}

using HandlerFunction = Outcome (*)(Call&);

// ADD: clamps at the s32 limits instead of wrapping.
inline s32 saturating_add(s32 a, s32 b) {
  s32 sum;
  if (__builtin_add_overflow(a, b, &sum)) [[unlikely]] {
    return b < 0 ? std::numeric_limits<s32>::min() : std::numeric_limits<s32>::max();
  }
  return sum;
}

// Error messages shared by both interpreter loops (out of line: the loops stay small).
[[gnu::cold]] std::string command_failed(const CommandDef& def);
[[gnu::cold]] std::string call_too_deep(u32 max_depth);

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

namespace keel::script {

inline std::optional<Outcome> Machine::call_game(detail::Instance& in, const detail::GameOp& op,
                                                 const std::byte* p, u32 pc) {
  in.pc = pc;
  const u32 generation = in.generation;
  const u32 variables = op.variable_mask | (op.kinds ? read_u32(p + 4) & op.value_mask : 0);
  Call call(*this, in, in.user, in.variables, globals_, *op.def, p + op.params_at, variables,
            op.float_mask);
  const Outcome outcome = op.function != nullptr ? op.function(call) : op.def->handler(call);
  if (in.generation != generation || in.state != InstanceState::kRunning || in.halted) {
    return std::nullopt;
  }
  return outcome;
}

inline bool Machine::if_holds(const detail::Instance& in, const std::byte* p) const {
  const auto* b = reinterpret_cast<const u8*>(p);
  const u32 raw_a = read_u32(p + 8);
  const u32 raw_b = read_u32(p + 12);
  const s32 x =
      b[5] == kParamVar ? read_variable(in.variables, globals_, raw_a) : static_cast<s32>(raw_a);
  const s32 y =
      b[6] == kParamVar ? read_variable(in.variables, globals_, raw_b) : static_cast<s32>(raw_b);
  return compare(static_cast<Comparator>(b[4]), x, y);
}

inline void Machine::pause_frames(detail::Instance& in, u32 pc, s32 frames) {
  in.pc = pc;
  in.last_line = 0;
  if (frames > 1) {
    in.state = InstanceState::kWaiting;
    in.wait = detail::Wait::kFrames;
    in.resume_frame = frame_ + static_cast<u64>(frames);
  }
}

inline void Machine::pause_seconds(detail::Instance& in, u32 pc, f64 seconds) {
  in.pc = pc;
  in.state = InstanceState::kWaiting;
  in.wait = detail::Wait::kSeconds;
  in.resume_time = time_ + seconds;
  in.last_line = 0;
}

inline bool Machine::enter_script(detail::Instance& in, Opcode op, Hash target, u32 pc, u32 length,
                                  u32 executed) {
  const Script* s = in.script;
  bool trusted = in.trusted;
  if (target != s->name_hash) {
    const ScriptRef* ref = find_ref(target);
    if (ref == nullptr) [[unlikely]] {
      in.pc = pc;
      fail_missing_script(in, op, target);
      return false;
    }
    s = ref->script;
    trusted = ref->trusted;
  }
  if (op == kOpCallScript) {
    if (in.depth >= options_.max_call_depth) [[unlikely]] {
      fail_at_pc(in, pc, executed, ErrorCode::kOverflow,
                 detail::call_too_deep(options_.max_call_depth));
      return false;
    }
    in.stack[in.depth++] = detail::Frame{in.script, pc + length, in.trusted};
  } else {
    in.depth = 0;
  }
  in.script = s;
  in.trusted = trusted;
  in.code = s->code.data();
  in.size = static_cast<u32>(s->code.size());
  in.pc = 0;
  return true;
}

}  // namespace keel::script
