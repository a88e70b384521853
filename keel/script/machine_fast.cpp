// The interpreter loop for the common case: a script validated when its library was loaded
// (Machine::add_library), run with tracing and breakpoints off. It does what the checked loop in
// machine.cpp does, command for command, without the per-command length and layout checks
// (validate_stream has proven them) and with threaded dispatch: every command jumps to the next
// from its own site (GCC/Clang labels as values), so the branch predictor learns which command
// follows which, and the loop keeps its state in registers. The scheduler is in the same
// function, so an instance costs no call. machine_loops_test.cpp runs random scripts through
// both loops and requires the same behaviour.
#include "keel/script/bytecode.h"
#include "keel/script/instance.h"
#include "keel/script/machine.h"

#include <algorithm>

namespace keel::script {

using detail::GameOp;
using detail::Instance;

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpedantic"
void Machine::run_frame_fast() {
  static_assert(kLastBuiltinOpcode == 12, "a new built-in needs its label in kTable");
  // Index: the opcode, or 16 for every opcode above 15 (game commands; 16-255 are unknown
  // reserved built-ins, which op_game skips like any unknown opcode).
  static void* const kTable[17] = {
      &&op_skip,       &&op_break,   &&op_pause_int, &&op_pause_var, &&op_pause_seconds,
      &&op_pause_svar, &&op_if,      &&op_change,    &&op_call,      &&op_set_int,
      &&op_set_var,    &&op_add_int, &&op_add_var,   &&op_skip,      &&op_skip,
      &&op_skip,       &&op_game};
  const GameOp* const ops = game_ops_.data();
  const u32 op_count = static_cast<u32>(game_ops_.size());
  const u32 budget = options_.command_budget;
  const u32 count = used_;
  u64 commands = 0;
  u32 instances_run = 0;
  for (u32 base = 0; base < count; base += detail::kChunkSize) {
    Instance* const chunk = chunks_[base >> detail::kChunkShift].get();
    const u32 n = std::min(detail::kChunkSize, count - base);
    for (u32 i = 0; i < n; ++i) {
      Instance& in = chunk[i];
      if (!detail::due(in, frame_, time_)) continue;
      // The interpreter's registers. Every way out of a script's frame goes to `done`.
      const std::byte* code = in.code;
      u32 size = in.size;
      u32 pc = in.pc;
      u32 left = budget;  // commands this instance may still run in this frame
      const std::byte* p = nullptr;
      u32 header = 0;
      s32 frames = 0;
      f64 seconds = 0.0;
      if (!in.trusted) [[unlikely]] {  // bytes added unvalidated: the checked loop
        left -= run_instance_fast(in, budget);
        goto done;
      }

// Ends every command: the end of the script and the budget are checked before the next one
// is counted and dispatched. The command's length is header >> 16.
#define KEEL_SCRIPT_NEXT()     \
  if (pc >= size) [[unlikely]] \
    goto end_of_script;        \
  if (left == 0) [[unlikely]]  \
    goto out_of_budget;        \
  --left;                      \
  p = code + pc;               \
  header = read_u32(p);        \
  goto* kTable[std::min<u32>(header & 0xFFFF, 16)]

      KEEL_SCRIPT_NEXT();

    end_of_script:  // return from CALLSCRIPT, or finish
      if (in.depth > 0) {
        detail::return_from_call(in);
        code = in.code;
        size = in.size;
        pc = in.pc;
        if (!in.trusted) [[unlikely]]
          goto switched;
        KEEL_SCRIPT_NEXT();
      }
      in.pc = pc;
      finish(in);
      goto done;

    out_of_budget:
      in.pc = pc;
      ++stats_.budget_hits;
      if (trace_) [[unlikely]]
        emit(TraceKind::kBudget, in);  // a handler turned tracing on
      in.last_line = 0;
      goto done;

    op_skip:  // unknown opcode: skipped (newer scripts on an older runtime)
      pc += header >> 16;
      KEEL_SCRIPT_NEXT();

    op_break:
      in.pc = pc + (header >> 16);
      in.last_line = 0;
      goto done;

    op_pause_int:
      frames = read_s32(p + 4);
      goto pause_frames;
    op_pause_var:
      frames = read_variable(in.variables, globals_, read_u32(p + 4));
    pause_frames:
      pc += header >> 16;
      if (frames <= 0) {
        KEEL_SCRIPT_NEXT();
      }
      pause_frames(in, pc, frames);
      goto done;

    op_pause_seconds:
      seconds = static_cast<f64>(read_f32(p + 4));
      goto pause_seconds;
    op_pause_svar:
      seconds = static_cast<f64>(read_variable(in.variables, globals_, read_u32(p + 4)));
    pause_seconds:
      pc += header >> 16;
      if (!(seconds > 0.0)) {  // also NaN
        KEEL_SCRIPT_NEXT();
      }
      pause_seconds(in, pc, seconds);
      goto done;

    op_if : {
      // True: into the conditional commands, which end where the IF ends.
      pc += if_holds(in, p) ? static_cast<u32>(p[7]) : header >> 16;
      KEEL_SCRIPT_NEXT();
    }

    op_change : {
      const Hash target = read_u32(p + 4);
      if (target == in.script->name_hash) {  // the usual loop: start this script again
        in.depth = 0;
        pc = 0;
        KEEL_SCRIPT_NEXT();
      }
      if (!enter_script(in, kOpChangeScript, target, pc, header >> 16, budget - left)) goto done;
      goto entered;
    }

    op_call:
      if (!enter_script(in, kOpCallScript, read_u32(p + 4), pc, header >> 16, budget - left)) {
        goto done;
      }
    entered:
      code = in.code;
      size = in.size;
      pc = 0;
      if (!in.trusted) [[unlikely]]
        goto switched;
      KEEL_SCRIPT_NEXT();

    op_set_int:
      variable_ref(in.variables, globals_, read_u32(p + 4)) = read_s32(p + 8);
      pc += header >> 16;
      KEEL_SCRIPT_NEXT();

    op_set_var : {
      const s32 value = read_variable(in.variables, globals_, read_u32(p + 8));
      variable_ref(in.variables, globals_, read_u32(p + 4)) = value;
      pc += header >> 16;
      KEEL_SCRIPT_NEXT();
    }

    op_add_int : {
      s32& target = variable_ref(in.variables, globals_, read_u32(p + 4));
      target = detail::saturating_add(target, read_s32(p + 8));
      pc += header >> 16;
      KEEL_SCRIPT_NEXT();
    }

    op_add_var : {
      const s32 value = read_variable(in.variables, globals_, read_u32(p + 8));
      s32& target = variable_ref(in.variables, globals_, read_u32(p + 4));
      target = detail::saturating_add(target, value);
      pc += header >> 16;
      KEEL_SCRIPT_NEXT();
    }

    op_game : {
      const u32 index = (header & 0xFFFF) - kFirstGameOpcode;  // 16-255 wrap to huge values
      if (index >= op_count || ops[index].def == nullptr) [[unlikely]] {
        pc += header >> 16;  // unknown: skipped
        KEEL_SCRIPT_NEXT();
      }
      const GameOp& g = ops[index];
      const std::optional<Outcome> outcome = call_game(in, g, p, pc);
      if (!outcome) [[unlikely]]
        goto done;
      switch (*outcome) {
        case Outcome::kNext:
          pc += g.conditional ? g.fixed : (header >> 16);  // into the conditional, if any
          KEEL_SCRIPT_NEXT();
        case Outcome::kFalse: pc += header >> 16; KEEL_SCRIPT_NEXT();
        case Outcome::kYield:
          in.pc = pc + (header >> 16);
          in.last_line = 0;
          goto done;
        case Outcome::kRetry: in.last_line = 0; goto done;
        case Outcome::kStop: finish(in); goto done;
        case Outcome::kFail: break;
      }
      fail_at_pc(in, pc, budget - left, ErrorCode::kRefused, detail::command_failed(*g.def));
      goto done;
    }

    switched:  // entered a script that was not validated: the rest of the frame in the checked loop
      left -= run_instance_fast(in, left);
    done:
      commands += budget - left;
      instances_run += left != budget ? 1 : 0;
#undef KEEL_SCRIPT_NEXT
    }
  }
  stats_.commands += commands;
  stats_.instances_run += instances_run;
}
#pragma GCC diagnostic pop

}  // namespace keel::script
