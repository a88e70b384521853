// The commands a script may use: the language's built-ins plus the game's own.
//
//   script::CommandSet commands = script::default_commands();
//   // Typed: the parameters are those of the function (s32 = number or variable, s32& = a
//   // variable it writes, f32, script::String, script::Name); the fastest way to call a command.
//   commands.add("ATTACK", 0x0120, [&](script::Call& call, script::String target, s32 damage) {
//     game.attack(call.user(), target.hash, damage);
//   });
//   // Or with a CommandDef and a handler that reads its parameters from the Call:
//   commands.add({.name = "ATTACK", .opcode = 0x0120,
//                 .params = {{script::ParamType::kString}, {script::ParamType::kValue, 1}},
//                 .handler = [&](script::Call& call) {
//                   game.attack(call.user(), call.hash_at(0), call.value_at(1));
//                   return script::Outcome::kNext;
//                 }});
//
// The compiler checks every call against the signature (count, types, conditional) and encodes
// it (bytecode.h); the Machine dispatches the opcode to the handler. A game's opcodes, like the
// built-ins, must never be renumbered once scripts are compiled.
#pragma once

#include "keel/core/error.h"
#include "keel/core/types.h"
#include "keel/script/bytecode.h"

#include <cstddef>
#include <functional>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace keel::script {

class Call;
class VariableSet;
struct CommandSite;
namespace detail {
struct Instance;
}  // namespace detail

// How a parameter is written in a script and stored in the bytecode (4 bytes each).
enum class ParamType : u8 {
  kInt,       // NUMBER, stored as s32 (truncated toward zero)
  kFloat,     // NUMBER, stored as f32
  kString,    // STRING, stored as the hash of its text (text available through Call::text_at)
  kName,      // NAME used as a symbol (not a variable), stored as its hash
  kVariable,  // NAME of a variable (read or written by the handler), stored as its hash
  kValue,     // NUMBER or NAME of a variable: an s32 at run time
};

std::string_view to_string(ParamType type);

// Whether a command is followed by a conditional command or block (like IF).
enum class Conditional : u8 {
  kForbidden,  // `CMD(...);` only
  kAllowed,    // a conditional command or block may follow (the handler's kNext runs it)
  kRequired,   // a conditional command or block must follow
};

struct ParamSpec {
  ParamType type = ParamType::kInt;
  // A trailing parameter with a default may be left out; the compiler writes the default.
  std::optional<f64> default_value = {};
};

// What a command handler tells the Machine to do next.
enum class Outcome : u8 {
  kNext,   // continue with the next command; for a conditional command: run its conditional
  kFalse,  // conditional command: skip its conditional (otherwise the same as kNext)
  kYield,  // stop for this frame; continue with the next command next frame
  kRetry,  // stop for this frame; run this same command again next frame (waiting commands)
  kStop,   // the script is finished
  kFail,   // the script stops with the error given to Call::fail
};

using Handler = std::function<Outcome(Call&)>;

// How the Machine calls a game command: the command's site (its decoded signature and handler,
// call.h), the running instance, its variables, the command's bytes and the instance's user
// pointer, all passed in registers. The typed CommandSet::add generates one per handler type
// (the parameters are decoded inside it); games never write one.
using Invoker = Outcome (*)(const CommandSite& site, detail::Instance& instance,
                            VariableSet& variables, const std::byte* command, void* user);

// Built-in commands are compiled and executed by the module itself; games cannot redefine them.
enum class Builtin : u8 {
  kNone,     // a game command
  kScript,   // SCRIPT("name") { ... }: not a command, the definition of a script
  kCommand,  // a command of the language (BREAK, PAUSE, IF, SET, ...): `opcode` is one of its
             // opcodes (the compiler picks the one that fits the parameters written)
};

struct CommandDef {
  std::string name = {};  // matched case-insensitively
  Opcode opcode = 0;
  std::vector<ParamSpec> params = {};
  Conditional conditional = Conditional::kForbidden;
  Handler handler = {};
  std::string help = {};  // one line for tools and messages, e.g. "ATTACK(\"target\", damage);"
  Builtin builtin = Builtin::kNone;
  // Set by the typed add(): decodes the parameters itself and calls the callable that `handler`
  // holds (found by `locate`). Null: the Machine calls `handler` with a Call.
  Invoker invoker = nullptr;
  const void* (*locate)(const Handler& handler) = nullptr;
};

// The optional parts of a typed command (CommandSet::add(name, opcode, handler, options)).
struct CommandOptions {
  Conditional conditional = Conditional::kForbidden;  // a bool or Outcome handler picks
  std::vector<f64> defaults = {};  // defaults of the last defaults.size() parameters (numbers)
  std::string help = {};
};

class CommandSet {
 public:
  // Adds a game command. Errors: a name that exists, an opcode below kFirstGameOpcode or taken,
  // a missing handler, a non-trailing default, more parameters than fit (32).
  Status add(CommandDef def);
  // Adds a game command whose script parameters are the handler's own (a lambda, function
  // object or function pointer; defined in call.h, which this header includes):
  //   s32 (a number or a variable, ParamType::kValue), s32& (a variable the handler may write,
  //   kVariable), f32 (kFloat), script::String (kString), script::Name (kName).
  // It may take a `Call&` first (user(), machine(), fail(), text_at()...) and return void
  // (kNext), bool (true: kNext, false: kFalse) or an Outcome. Its parameters are decoded by
  // code generated for its signature, so it is the fastest kind of game command.
  //   commands.add("WALKTO", 0x0120, [](script::Call& call, s32 x, s32 y) {
  //     return static_cast<Npc*>(call.user())->walk_to(x, y) ? Outcome::kNext : Outcome::kRetry;
  //   });
  // Errors as add(CommandDef), and more defaults than parameters.
  template <class F>
  Status add(std::string name, Opcode opcode, F handler, CommandOptions options = {});

  const CommandDef* find(std::string_view name) const;  // case-insensitive
  // Game commands, and built-ins when the set has them (default_commands()).
  const CommandDef* find(Opcode opcode) const;
  const std::vector<CommandDef>& all() const { return defs_; }
  // The closest known name (for "did you mean"), empty if nothing is close.
  std::string_view suggest(std::string_view name) const;

 private:
  friend CommandSet default_commands();
  std::vector<CommandDef> defs_;
};

// The language's built-in commands only: SCRIPT, BREAK, PAUSE, PAUSEFRAMES, PAUSESECONDS, IF,
// CHANGESCRIPT, CALLSCRIPT, and Keel's SET and ADD.
CommandSet default_commands();

// Encoding facts shared by the compiler, the Machine and the disassembler.
bool has_kinds_word(const CommandDef& def);  // a kValue parameter needs the kinds word
u16 fixed_size(const CommandDef& def);       // header + kinds word + parameters

}  // namespace keel::script

// The typed add() and what it needs (Call, the parameter types) are in call.h.
#include "keel/script/call.h"  // IWYU pragma: export
