// The script virtual machine (Golden Rules ch. 4 interpreter): many script instances, run
// together one frame at a time.
//
//   script::Machine vm(commands);
//   vm.add_library(library);                         // borrowed: must outlive the Machine
//   auto guard = vm.start("patrol", &enemy);         // Result<InstanceId>
//   vm.set_variable(*guard, "health"_id.value, 100);
//   each frame: vm.update(dt);
//
// Each instance has a program counter, a wait (frames or seconds), a call stack (CALLSCRIPT) of
// limited depth, and its own variables. Variables are looked up in the instance first, then among
// the game-wide variables (set_global); a script writing a name neither has creates it in the
// instance; reading an unset name gives 0. Scripts are validated when loaded (add_library); any
// other is checked command by command: a bad length or layout stops that instance with an error
// (state kFailed, error()), never the game. Each
// instance runs at most `command_budget` commands per frame, so an endless loop costs one budget
// per frame and nothing more. Steady-state frames allocate nothing.
//
// Debugging: set_trace() reports every command (with its source line when the library has debug
// info); breakpoints by script and line halt an instance before that line runs; step() runs one
// command of a halted instance; resume() lets it go on.
#pragma once

#include "keel/core/error.h"
#include "keel/core/hash.h"
#include "keel/core/slot_map.h"
#include "keel/core/types.h"
#include "keel/script/call.h"
#include "keel/script/commands.h"
#include "keel/script/library.h"

#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace keel::script {

// Handle of a running script instance: keel's generational handle (core/slot_map.h). A handle of
// a released instance is safely dead, even after its slot is reused, and a handle of another
// Machine is never alive in this one.
struct InstanceTag;
using InstanceId = Handle<InstanceTag>;

struct MachineOptions {
  u32 command_budget = 1000;  // commands per instance per frame
  u32 max_call_depth = 16;    // nested CALLSCRIPTs, at most 255 (beyond: the instance fails)
  // Run every script in the checked loop, even those validated when loaded (slower: for tests
  // and tools that compare the loops).
  bool check_every_command = false;
};

enum class InstanceState : u8 {
  kFree,      // no such instance (released, or a dead handle)
  kRunning,   // runs in the next update
  kWaiting,   // paused for frames or seconds
  kHalted,    // held by the debugger (breakpoint or halt())
  kFinished,  // reached the end of its script
  kFailed,    // stopped by an error (see error())
};
std::string_view to_string(InstanceState state);

enum class TraceKind : u8 {
  kCommand,     // about to run `command`
  kBreakpoint,  // halted before `command`
  kBudget,      // used its command budget this frame; continues next frame
  kFinished,
  kFailed,  // `message` says why
};

struct TraceEvent {
  TraceKind kind = TraceKind::kCommand;
  InstanceId instance;
  u64 frame = 0;
  const Script* script = nullptr;      // nullptr when no script is current
  u32 offset = 0;                      // of the command in the script
  u32 line = 0;                        // source line (0 without debug info)
  u32 depth = 0;                       // CALLSCRIPT depth (0 = top level)
  std::span<const std::byte> command;  // the command's bytes (kCommand, kBreakpoint)
  std::string_view message;
};

struct FrameStats {
  u64 commands = 0;       // commands run in the last update
  u32 instances_run = 0;  // instances that ran at least one command
  u32 budget_hits = 0;    // instances stopped by the command budget
  u32 failures = 0;       // instances that failed
};

namespace detail {
class Core;
}  // namespace detail

class Machine {
 public:
  explicit Machine(const CommandSet& commands, MachineOptions options = {});
  ~Machine();
  Machine(const Machine&) = delete;
  Machine& operator=(const Machine&) = delete;

  // Makes a library's scripts startable and reachable by CHANGESCRIPT/CALLSCRIPT, validating
  // each against the command set (validated scripts run without per-command checks). Borrowed:
  // it must outlive the Machine and not change while loaded. Error: a script name another loaded
  // library already has.
  Status add_library(const Library& library);
  const Script* find_script(Hash name) const;
  // The text of a hashed name or string from any loaded library.
  std::optional<std::string_view> symbol(Hash hash) const;

  // Pre-sizes storage for this many instances (start() beyond it allocates).
  void reserve(u32 instances);

  // Starts a script; it runs its first commands in the next update().
  Result<InstanceId> start(Hash script, void* user = nullptr);
  Result<InstanceId> start(std::string_view script, void* user = nullptr) {
    return start(string_hash(script), user);
  }
  // Stops an instance and frees its slot (its handle dies). False for a dead handle.
  bool release(InstanceId id);
  // Stops every instance.
  void clear();

  bool alive(InstanceId id) const { return state(id) != InstanceState::kFree; }
  InstanceState state(InstanceId id) const;
  const Error* error(InstanceId id) const;  // set when the state is kFailed
  void* user(InstanceId id) const;
  u32 instance_count() const;

  // Instance variables (see the header comment for the lookup rules).
  std::optional<s32> find_variable(InstanceId id, Hash name) const;
  s32 variable(InstanceId id, Hash name) const { return find_variable(id, name).value_or(0); }
  s32 variable(InstanceId id, std::string_view name) const {
    return variable(id, string_hash(name));
  }
  // Writes the instance's own variable (creating it). False for a dead handle.
  bool set_variable(InstanceId id, Hash name, s32 value);
  bool set_variable(InstanceId id, std::string_view name, s32 value) {
    return set_variable(id, string_hash(name), value);
  }
  // The instance's own variables, for debuggers and tools.
  std::vector<std::pair<Hash, s32>> variables(InstanceId id) const;

  // Game-wide variables, seen by every instance that has no variable of that name.
  void set_global(Hash name, s32 value);
  void set_global(std::string_view name, s32 value) { set_global(string_hash(name), value); }
  std::optional<s32> global(Hash name) const;
  std::optional<s32> global(std::string_view name) const { return global(string_hash(name)); }

  // Runs one frame: the frame counter advances, game time advances by `dt` (after the frame, so
  // commands see the time at the frame's start), and every instance that is due runs until it
  // yields, pauses, finishes, fails or uses its budget. Instances started during the frame first
  // run in the next one.
  void update(f64 dt);
  u64 frame() const;
  f64 time() const;
  const FrameStats& last_frame() const;
  u64 total_commands() const;
  const MachineOptions& options() const;

  // --- debugging ---
  using TraceFn = std::function<void(const TraceEvent&)>;
  void set_trace(TraceFn trace);  // an empty function turns tracing off
  void add_breakpoint(Hash script, u32 line);
  bool remove_breakpoint(Hash script, u32 line);
  void clear_breakpoints();
  bool halt(InstanceId id);    // holds a running or waiting instance before its next command
  bool resume(InstanceId id);  // lets a halted instance go on (from the next update)
  // Runs exactly one command of a halted instance now (a pending wait is dropped) and keeps it
  // halted unless the command finished or failed it. Returns the event of the command run.
  Result<TraceEvent> step(InstanceId id);

  struct Position {
    const Script* script = nullptr;
    u32 offset = 0;
    u32 line = 0;
    u32 depth = 0;
  };
  std::optional<Position> position(InstanceId id) const;

 private:
  friend class Call;
  std::unique_ptr<detail::Core> core_;
};

}  // namespace keel::script
