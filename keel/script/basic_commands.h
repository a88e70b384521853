// A small command set for tools, tests and examples: exactly PRINT("text"), SET(var, value) and
// ADD(var, value). `keel-script run` uses it; games define their own (see commands.h).
#pragma once

#include "keel/script/call.h"
#include "keel/script/commands.h"

#include <functional>
#include <string_view>

namespace keel::script {

inline constexpr Opcode kOpPrint = 0x0100;  // PRINT("text")
inline constexpr Opcode kOpSet = 0x0101;    // SET(var, value)   value: number or variable
inline constexpr Opcode kOpAdd = 0x0102;    // ADD(var, value)   var += value

using PrintFn = std::function<void(const Call& call, std::string_view text)>;

// Adds PRINT, SET and ADD to `commands`. PRINT passes its text (or "#<hash>" when no loaded
// library knows the string) to `print`.
Status add_basic_commands(CommandSet& commands, PrintFn print);

}  // namespace keel::script
