// Internal: THE interpreter loop, one template for every way a script runs. Its instantiations
// (interpreter.cpp): the scheduler with validated scripts and debugging off (the common case:
// no per-command checks), with tracing or breakpoints on, single steps, and scripts that were
// not validated (every command's length and layout checked before it runs).
//
// Dispatch is threaded (GCC/Clang labels as values): every command jumps to the next from its
// own site, so the branch predictor learns which command follows which, and the loop's state
// stays in registers. Built-in commands come from detail/builtins.h, one label per opcode slot;
// game commands call their handler. machine_loops_test.cpp runs random scripts through the
// instantiations and requires the same behaviour.
#pragma once

#include "keel/script/detail/builtins.h"
#include "keel/script/detail/core.h"

#include <algorithm>

namespace keel::script::detail {

template <u32 kOp, bool kChecked>
Step Core::run_builtin(Instance& in, u32 pc, const std::byte* p, u32 checked_length) {
  using B = BuiltinOp<kOp>;
  if constexpr (!B::kDefined) {
    // Unknown: skipped (newer scripts on an older runtime).
    return next_at(pc + (kChecked ? checked_length : u32{read_u16(p + 2)}));
  } else {
    u32 length;
    if constexpr (kChecked) {
      length = checked_length;
      if (length < B::kInfo.size()) [[unlikely]] {
        fail_at(in, pc, ErrorCode::kCorrupt, too_short(B::kInfo.command, length, B::kInfo.size()));
        return kStop;
      }
      if (const char* problem = check_layout<B>(p, length)) [[unlikely]] {
        fail_at(in, pc, ErrorCode::kCorrupt, bad_layout(B::kInfo.command, problem));
        return kStop;
      }
    } else if constexpr (B::kInfo.layout == Layout::kFixed) {
      length = B::kInfo.size();  // validated: exactly its size
    } else {
      length = read_u16(p + 2);
    }
    return B::run(*this, in, pc, p, length);
  }
}

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpedantic"
#pragma GCC diagnostic ignored "-Wunused-label"  // the checked loop's labels
template <Mode kMode, bool kChecked, bool kSingle>
u32 Core::interpret(Machine& machine, Instance* const only, const u32 budget, bool& switched) {
  constexpr bool kDebug = kMode != Mode::kFast;
  static_assert(kBuiltinSlots == 16, "one label per built-in slot below");
  // Index: the opcode, or kBuiltinSlots for every opcode above (game commands; reserved
  // built-ins 16-255 are unknown and skipped there like any unknown opcode).
  static void* const kTable[kBuiltinSlots + 1] = {
      &&op_skip, &&op_1,  &&op_2,  &&op_3,  &&op_4,  &&op_5,  &&op_6,  &&op_7,   &&op_8,
      &&op_9,    &&op_10, &&op_11, &&op_12, &&op_13, &&op_14, &&op_15, &&op_game};
  const GameOp* const ops = game_ops.data();
  const u32 op_count = static_cast<u32>(game_ops.size());
  const u32 count = kSingle ? 1 : used;
  // Copies: stores to instances could alias the members for all the compiler knows.
  const u64 now_frame = frame;
  const f64 now_time = time;
  if constexpr (!kSingle) {
    if (budget == 0) __builtin_unreachable();  // the Machine keeps command_budget >= 1
  }
  u64 commands_run = 0;
  u32 instances_run = 0;
  for (u32 base = 0; base < count; base += kChunkSize) {
    Instance* const chunk = kSingle ? only : chunks[base >> kChunkShift].get();
    const u32 n = kSingle ? 1 : std::min(kChunkSize, count - base);
    for (u32 i = 0; i < n; ++i) {
      Instance& in = chunk[i];
      if constexpr (!kSingle) {
        if (!due(in, now_frame, now_time)) continue;
      }
      // The interpreter's registers. Every way out of an instance's frame goes to `done`.
      struct {
        const std::byte* code;
        u32 size;
        u32 pc;
      } r{in.code, in.size, in.pc};
      u32 left = budget;  // commands this instance may still run in this frame
      const std::byte* p = nullptr;
      u32 op = 0;
      u32 length = 0;  // checked: read (and checked) with the opcode; else read where needed
      if constexpr (!kSingle) {
        if (in.trusted == kChecked) [[unlikely]]
          goto other_loop;
      }

// Ends every command: the end of the script and the budget are checked, the next command's
// opcode read (and, checked, its length, checked), the debugger told; then it is counted and
// dispatched. (Validated scripts need no length here: a built-in's is its size.)
#define KEEL_SCRIPT_NEXT()                                                  \
  if (r.pc >= r.size) [[unlikely]]                                          \
    goto end_of_script;                                                     \
  if (left == 0) [[unlikely]]                                               \
    goto out_of_budget;                                                     \
  p = r.code + r.pc;                                                        \
  if constexpr (kChecked) {                                                 \
    if (r.size - r.pc < kHeaderSize) {                                      \
      goto cut_off;                                                         \
    }                                                                       \
    const u32 header = read_u32(p);                                         \
    op = header & 0xFFFF;                                                   \
    length = header >> 16;                                                  \
    if ((length < kHeaderSize) | (length & 3) | (length > r.size - r.pc)) { \
      goto corrupt_length;                                                  \
    }                                                                       \
  } else {                                                                  \
    op = read_u16(p);                                                       \
  }                                                                         \
  if constexpr (kDebug) {                                                   \
    if (debug_stop<kMode>(in, r.pc, read_u16(p + 2))) goto done;            \
  }                                                                         \
  --left;                                                                   \
  goto* kTable[std::min<u32>(op, kBuiltinSlots)]

#define KEEL_SCRIPT_OP(N)                                            \
  op_##N : {                                                         \
    const Step step = run_builtin<N, kChecked>(in, r.pc, p, length); \
    if (step.flow == Flow::kNext) {                                  \
      r.pc = step.pc;                                                \
      KEEL_SCRIPT_NEXT();                                            \
    }                                                                \
    if (step.flow == Flow::kEntered) goto entered;                   \
    goto done;                                                       \
  }

      KEEL_SCRIPT_NEXT();

      KEEL_SCRIPT_OP(1)
      KEEL_SCRIPT_OP(2)
      KEEL_SCRIPT_OP(3)
      KEEL_SCRIPT_OP(4)
      KEEL_SCRIPT_OP(5)
      KEEL_SCRIPT_OP(6)
      KEEL_SCRIPT_OP(7)
      KEEL_SCRIPT_OP(8)
      KEEL_SCRIPT_OP(9)
      KEEL_SCRIPT_OP(10)
      KEEL_SCRIPT_OP(11)
      KEEL_SCRIPT_OP(12)
      KEEL_SCRIPT_OP(13)
      KEEL_SCRIPT_OP(14)
      KEEL_SCRIPT_OP(15)

    op_skip:  // unknown opcode: skipped (newer scripts on an older runtime)
      r.pc += kChecked ? length : u32{read_u16(p + 2)};
      KEEL_SCRIPT_NEXT();

    op_game : {
      const u32 index = op - kFirstGameOpcode;  // 16-255 wrap to huge values
      if (index >= op_count) [[unlikely]] {
        r.pc += kChecked
                    ? length
                    : u32{read_u16(
                          p + 2)};  // unknown: skipped (and so are holes below op_count: GameOp)
        KEEL_SCRIPT_NEXT();
      }
      const GameOp& g = ops[index];
      if constexpr (kChecked) {
        if (length < g.fixed) [[unlikely]] {
          fail_at(in, r.pc, ErrorCode::kCorrupt, too_short(g.site.def->name, length, g.fixed));
          goto done;
        }
      }
      in.pc = r.pc;
      const Outcome outcome = call_game(in, g, p);
      // A handler that released its instance leaves the slot free until the frame ends (released
      // slots are reused only then), so the state tells.
      if (in.state != InstanceState::kRunning || in.halted) [[unlikely]]
        goto done;
      // The loop's registers are read back from the instance rather than kept across the call
      // (no spills; the handler cannot move a running instance's code or pc).
      r = {in.code, in.size, in.pc};
      length = read_u16(r.code + r.pc + 2);
      if (outcome == Outcome::kNext) [[likely]] {
        r.pc += g.conditional ? g.fixed : length;  // into the conditional, if any
        KEEL_SCRIPT_NEXT();
      }
      switch (outcome) {
        case Outcome::kNext:  // (above)
        case Outcome::kFalse: r.pc += length; KEEL_SCRIPT_NEXT();
        case Outcome::kYield:
          in.pc = r.pc + length;
          in.last_line = 0;
          goto done;
        case Outcome::kRetry: in.last_line = 0; goto done;
        case Outcome::kStop: finish(in); goto done;
        case Outcome::kFail: break;
      }
      fail_at(in, r.pc, ErrorCode::kRefused, command_failed(*g.site.def));
      goto done;
    }

    entered:  // CHANGESCRIPT/CALLSCRIPT entered a script
      r = {in.code, in.size, 0};
      if (in.trusted == kChecked) [[unlikely]]
        goto other_loop;
      KEEL_SCRIPT_NEXT();

    end_of_script:  // return from CALLSCRIPT, or finish
      if (in.depth > 0) {
        return_from_call(in);
        r = {in.code, in.size, in.pc};
        if (in.trusted == kChecked) [[unlikely]]
          goto other_loop;
        KEEL_SCRIPT_NEXT();
      }
      in.pc = r.pc;
      finish(in);
      goto done;

    out_of_budget:
      in.pc = r.pc;
      if constexpr (kMode != Mode::kStep) {
        ++stats.budget_hits;
        if (trace) [[unlikely]]
          emit(TraceKind::kBudget, in);  // (a handler may have turned tracing on)
      }
      in.last_line = 0;
      goto done;

    cut_off:
      fail_at(in, r.pc, ErrorCode::kCorrupt,
              too_short("the last command header", r.size - r.pc, kHeaderSize));
      goto done;

    corrupt_length:
      fail_at(in, r.pc, ErrorCode::kCorrupt, bad_length(op, length, r.size - r.pc));
      goto done;

    other_loop:  // the script now running needs the other kChecked
      if constexpr (kSingle) {
        switched = true;
      } else {
        left -= run_single<kMode>(machine, in, left);
      }
    done:
      commands_run += budget - left;
      instances_run += left != budget ? 1 : 0;
#undef KEEL_SCRIPT_OP
#undef KEEL_SCRIPT_NEXT
    }
  }
  if constexpr (!kSingle) {
    stats.commands += commands_run;
    stats.instances_run += instances_run;
  }
  return static_cast<u32>(commands_run);
}
#pragma GCC diagnostic pop

template <Mode kMode>
u32 Core::run_single(Machine& machine, Instance& in, u32 budget) {
  u32 ran = 0;
  for (;;) {
    bool switched = false;
    ran += in.trusted ? interpret<kMode, false, true>(machine, &in, budget - ran, switched)
                      : interpret<kMode, true, true>(machine, &in, budget - ran, switched);
    if (!switched) return ran;
  }
}

}  // namespace keel::script::detail
