// The commands a script may use: the language's built-ins plus the game's own.
//
//   script::CommandSet commands = script::default_commands();
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

#include <functional>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace keel::script {

class Call;

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
};

class CommandSet {
 public:
  // Adds a game command. Errors: a name that exists, an opcode below kFirstGameOpcode or taken,
  // a missing handler, a non-trailing default, more parameters than fit (32).
  Status add(CommandDef def);

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
