// Internal: the state behind a script::Machine (its instances, loaded scripts, game-wide
// variables, debugger state) and the helpers the built-ins and the interpreter loop use.
// Machine (machine.cpp) is its public face; the loop is in detail/interpreter.h.
#pragma once

#include "keel/core/error.h"
#include "keel/core/hash.h"
#include "keel/core/types.h"
#include "keel/script/bytecode.h"
#include "keel/script/call.h"
#include "keel/script/commands.h"
#include "keel/script/detail/builtins.h"
#include "keel/script/library.h"
#include "keel/script/machine.h"
#include "keel/script/variables.h"

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

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
  u32 generation = 0;    // (counter << 8) | the Core's salt; odd counter: live (as keel::SlotMap)
  u64 born = 0;          // frame in which it was started (it first runs in the next)
  union {
    u64 resume_frame = 0;
    f64 resume_time;
  };
  const Script* script = nullptr;
  VariableSet variables;
  // Colder.
  void* user = nullptr;
  Frame* stack = nullptr;  // max_call_depth entries, owned by the Core
  u32 index = 0;
  u32 last_line = 0;  // debug mode: line of the last command run (breakpoints fire once per line)
  std::unique_ptr<Error> error;
};

// Instances live in chunks of kChunkSize (they never move).
inline constexpr u32 kChunkShift = 10;
inline constexpr u32 kChunkSize = 1u << kChunkShift;
inline constexpr f64 kTimeEpsilon = 1e-9;  // PAUSESECONDS(0.5) at 1/60 s resumes after 30 frames

struct GameOp {
  CommandSite site;          // site.def == nullptr: no such command (its invoker skips it)
  u16 fixed = 0;             // header + kinds word + parameters
  bool conditional = false;  // the signature allows a conditional
};

struct ScriptRef {
  Hash hash;
  const Script* script;
  bool trusted;  // validated against the command set when loaded: run without checks
};

enum class Mode : u8 { kFast, kDebug, kStep };

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

class Core {
 public:
  Core(Machine& machine, const CommandSet& commands, MachineOptions options);

  // --- instances ---
  Instance& slot(u32 index) const { return chunks[index >> kChunkShift][index & (kChunkSize - 1)]; }
  Instance* get(InstanceId id) const;
  void grow();
  const ScriptRef* find_ref(Hash name) const;
  std::optional<std::string_view> symbol(Hash hash) const;

  // --- what the built-ins use (detail/builtins.h) ---
  s32 read(const Instance& in, Hash name) const {
    return read_variable(in.variables, globals, name);
  }
  s32& ref(Instance& in, Hash name) { return variable_ref(in.variables, globals, name); }
  // PAUSE with `frames`, the next command at `next`: waits unless frames <= 0.
  [[gnu::always_inline]] Step pause_frames(Instance& in, u32 next, s32 frames) {
    if (frames <= 0) return next_at(next);
    in.pc = next;
    in.last_line = 0;
    if (frames > 1) {
      in.state = InstanceState::kWaiting;
      in.wait = Wait::kFrames;
      in.resume_frame = frame + static_cast<u64>(frames);
    }
    return kStop;
  }
  [[gnu::always_inline]] Step pause_seconds(Instance& in, u32 next, f64 seconds) {
    if (!(seconds > 0.0)) return next_at(next);  // also NaN
    in.pc = next;
    in.state = InstanceState::kWaiting;
    in.wait = Wait::kSeconds;
    in.resume_time = time + seconds;
    in.last_line = 0;
    return kStop;
  }
  // Whether the IF at `p` (a valid layout) holds for this instance.
  [[gnu::always_inline]] bool if_holds(const Instance& in, const std::byte* p) const {
    const u32 raw_a = read_u32(p + 8);
    const u32 raw_b = read_u32(p + 12);
    const s32 x = static_cast<u32>(p[5]) == kParamVar ? read(in, raw_a) : static_cast<s32>(raw_a);
    const s32 y = static_cast<u32>(p[6]) == kParamVar ? read(in, raw_b) : static_cast<s32>(raw_b);
    return compare(static_cast<Comparator>(p[4]), x, y);
  }
  // CHANGESCRIPT (`call` false) / CALLSCRIPT `target`, the command `op` at `pc`: enters the
  // script (the instance's script, code, size and call stack change; its pc becomes 0) and
  // returns true, or fails the instance (no such script, calls nested too deep): false.
  bool enter_script(Instance& in, Opcode op, Hash target, u32 pc, u32 length, bool call);
  // The end of a script entered by CALLSCRIPT (in.depth > 0): back to the caller's script, at
  // the command after the CALLSCRIPT (in.pc).
  static void return_from_call(Instance& in) {
    const Frame& back = in.stack[--in.depth];
    in.script = back.script;
    in.trusted = back.trusted;
    in.code = back.script->code.data();
    in.size = static_cast<u32>(back.script->code.size());
    in.pc = back.pc;
  }

  // Runs game command `op` at `pc` (its bytes at `p`, in.pc == pc): the handler's outcome.
  // The caller checks the instance's state afterwards (a handler may release, fail or halt it).
  [[gnu::always_inline]] static Outcome call_game(Instance& in, const GameOp& op,
                                                  const std::byte* p) {
    return op.site.invoke(op.site, in, in.variables, p, in.user);
  }

  // --- ending and failing ---
  void finish(Instance& in);
  void fail_instance(Instance& in, ErrorCode code, std::string message);
  [[gnu::cold]] void fail_at(Instance& in, u32 pc, ErrorCode code, std::string message);
  void release_slot(Instance& in);

  // --- debugging ---
  void emit(TraceKind kind, const Instance& in, std::string_view message = {}, u32 length = 0);
  u32 line_of(const Instance& in) const;
  bool breakpoint_at(Instance& in) const;
  bool debug_active() const { return static_cast<bool>(trace) || !breakpoints.empty(); }
  // Before the command at `pc` in a debugging mode: reports it, or halts at a breakpoint (true).
  template <Mode kMode>
  bool debug_stop(Instance& in, u32 pc, u32 length) {
    in.pc = pc;
    if constexpr (kMode == Mode::kDebug) {
      if (breakpoint_at(in)) {
        in.halted = true;
        in.last_line = line_of(in);
        emit(TraceKind::kBreakpoint, in, {}, length);
        return true;
      }
    }
    in.last_line = line_of(in);
    emit(TraceKind::kCommand, in, {}, length);
    return false;
  }

  // --- running (detail/interpreter.h, instantiated in interpreter.cpp) ---
  // One frame: every due instance (debugging on or off).
  void run_frame(Machine& machine);
  // Up to `budget` commands of one instance now, in whichever loop its current script needs.
  template <Mode kMode>
  u32 run_single(Machine& machine, Instance& in, u32 budget);
  // THE interpreter loop. kChecked: every command's length and layout are checked before it
  // runs (scripts that were not validated); kSingle: runs `only`, else every due instance (the
  // scheduler is in the same function, so an instance costs no call). `switched` (kSingle): the
  // instance entered a script that needs the other kChecked.
  template <Mode kMode, bool kChecked, bool kSingle>
  u32 interpret(Machine& machine, Instance* only, u32 budget, bool& switched);
  // One built-in command of opcode kOp (skipped when kOp is not a built-in). `checked_length`:
  // its length as the checked loop read it (the unchecked loop passes 0: validated built-ins are
  // exactly their size).
  template <u32 kOp, bool kChecked>
  [[gnu::always_inline]] inline Step run_builtin(Instance& in, u32 pc, const std::byte* p,
                                                 u32 checked_length);

  CommandSet commands;  // a copy: the dispatch table points into it
  MachineOptions options;
  std::vector<GameOp> game_ops;  // indexed by opcode - kFirstGameOpcode
  std::vector<const Library*> libraries;
  std::vector<ScriptRef> scripts;  // sorted by hash
  std::vector<std::unique_ptr<Instance[]>> chunks;
  std::vector<std::unique_ptr<Frame[]>> stacks;  // call stacks, one block per chunk
  TraceEvent step_event;
  bool updating = false;
  u32 capacity = 0;
  u32 used = 0;  // slots ever used (high-water mark)
  u32 live = 0;
  std::vector<u32> free;
  std::vector<u32> released;  // slots released during update(): free again after the frame
  GlobalVariables globals;
  std::vector<std::pair<Hash, u32>> breakpoints;
  Machine::TraceFn trace;
  u64 frame = 0;
  f64 time = 0.0;
  FrameStats stats;
  u64 total_commands = 0;
  u32 salt = 1;  // low byte of every generation: handles of other Machines never match
};

inline constexpr u32 kGenerationStep = 0x100;  // one counter step above the salt byte

// Error messages of the loop (out of line: the loop stays small).
[[gnu::cold]] std::string command_failed(const CommandDef& def);
[[gnu::cold]] std::string bad_length(Opcode op, u32 length, u32 room);
[[gnu::cold]] std::string too_short(std::string_view what, u32 length, u32 needed);
[[gnu::cold]] std::string bad_layout(std::string_view what, const char* problem);

}  // namespace keel::script::detail
