// The tool command PRINT("text") for `keel-script run`, tests and examples. With the language's
// built-ins (which include SET(var, value) and ADD(var, value)) it makes the small command set
// of the tool; games define their own commands (see commands.h).
#pragma once

#include "keel/script/call.h"
#include "keel/script/commands.h"

#include <functional>
#include <string_view>

namespace keel::script {

inline constexpr Opcode kOpPrint = 0x0100;  // PRINT("text")

using PrintFn = std::function<void(const Call& call, std::string_view text)>;

// Adds PRINT to `commands`. PRINT passes its text (or "#<hash>" when no loaded library knows the
// string) to `print`.
Status add_basic_commands(CommandSet& commands, PrintFn print);

}  // namespace keel::script
