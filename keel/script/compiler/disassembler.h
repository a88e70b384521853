// Human-readable listings of compiled scripts, with the source lines beside the bytecode when the
// library has debug information:
//
//   script "guard"  hash 0x1A2B3C4D  48 bytes  guard.script
//         | 3 |     IF(health, lessthan, 50)
//   0000  06 00 18 00 02 01 00 10 ...   IF health < 50  (24 bytes, conditional at +16)
//   0010  07 00 08 00 a7 bc 3f ec         CHANGESCRIPT "RUNAWAY"
#pragma once

#include "keel/script/commands.h"
#include "keel/script/library.h"

#include <span>
#include <string>
#include <string_view>

namespace keel::script {

struct DisassembleOptions {
  bool bytes = true;         // hex dump of each command's fixed part
  bool source_lines = true;  // source lines (from the debug info) before their commands
};

// Every script of the library. `commands` names the game opcodes (unknown ones print as
// "op 0x1234"); corrupt streams are listed up to the first bad command, which is marked.
std::string disassemble(const Library& library, const CommandSet& commands,
                        const DisassembleOptions& options = {});
std::string disassemble(const Library& library, const Script& script, const CommandSet& commands,
                        const DisassembleOptions& options = {});

// One command as script text with its parameters decoded: `IF health < 50`, `PAUSE 5`,
// `ADD counter, 1`. `command` is the command's bytes (at least its header); `library` (may be
// null) supplies the names behind hashes.
std::string format_command(std::span<const std::byte> command, const CommandSet& commands,
                           const Library* library);

}  // namespace keel::script
