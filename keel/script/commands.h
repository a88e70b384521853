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
#include "keel/text/signature.h"

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
text::ParamKinds token_kinds(ParamType type);  // which token types the script may write

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
  kNone,  // a game command
  kScript,
  kBreak,
  kPause,  // PAUSE and PAUSEFRAMES
  kPauseSeconds,
  kIf,
  kChangeScript,
  kCallScript,
  kSet,
  kAdd,
};

struct CommandDef {
  std::string name = {};  // matched case-insensitively
  Opcode opcode = 0;
  std::vector<ParamSpec> params = {};
  text::Conditional conditional = text::Conditional::kForbidden;
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
  const CommandDef* find(Opcode opcode) const;          // game commands and built-ins
  const std::vector<CommandDef>& all() const { return defs_; }
  // The closest known name (for "did you mean"), empty if nothing is close.
  std::string_view suggest(std::string_view name) const;

  // Internal: used by default_commands() to register the built-ins.
  void add_builtin(CommandDef def);

 private:
  std::vector<CommandDef> defs_;
};

// The language's built-in commands only: SCRIPT, BREAK, PAUSE, PAUSEFRAMES, PAUSESECONDS, IF,
// CHANGESCRIPT, CALLSCRIPT, and Keel's SET and ADD.
CommandSet default_commands();

// Encoding facts shared by the compiler, the Machine and the disassembler.
bool has_kinds_word(const CommandDef& def);  // a kValue parameter needs the kinds word
u16 fixed_size(const CommandDef& def);       // header + kinds word + parameters

}  // namespace keel::script
