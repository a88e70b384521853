// Names of the built-in commands: the runtime's validator reports them, the compiler parses them.
#include "keel/fsm/opcodes.h"

#include "keel/fsm/detail/modifier.h"

#include <array>

namespace keel::fsm {

namespace {
constexpr std::array<std::string_view, kBuiltinCommandCount> kBuiltinNames = {
    "End",        "Transition", "Execute", "SetAnimation",   "SetFlag",
    "IfFlags",    "Error",      "Event",   "ChangeBehavior", "CreateLink",
    "AcceptLink", "BreakLink",  "IfLink",  "IfRandom",       "SendEvent",
};
}  // namespace

std::string_view opcode_name(u8 opcode) {
  if (opcode < kBuiltinCommandCount) return kBuiltinNames[opcode];
  if (opcode >= kFirstCustomOpcode) return "custom";
  return "?";
}

std::optional<Opcode> builtin_opcode(std::string_view name) {
  for (u32 i = 0; i < kBuiltinCommandCount; ++i) {
    if (iequals(kBuiltinNames[i], name)) return static_cast<Opcode>(i);
  }
  return std::nullopt;
}

}  // namespace keel::fsm
