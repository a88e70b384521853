// Walking the command streams of a validated image (library.cpp's link-time checks). Internal.
#pragma once

#include "keel/core/types.h"
#include "keel/fsm/opcodes.h"

namespace keel::fsm::detail {

// Calls visit(pc) for every command of the validated handler at `stream` (top level and inside
// conditional blocks, in order; pc indexes `stream`), stopping at the top-level End.
template <typename Visit>
void visit_commands(const u32* stream, Visit&& visit);

template <typename Visit>
void visit_block(const u32* stream, u32 pc, u32 end, Visit& visit) {
  while (pc < end) {
    const u32 header = stream[pc];
    visit(pc);
    if (has_block(header)) {
      visit_block(stream, pc + 1 + block_operands(header), pc + 1 + header_length(header), visit);
    }
    pc += 1 + header_length(header);
  }
}

template <typename Visit>
void visit_commands(const u32* stream, Visit&& visit) {
  for (u32 pc = 0;; pc += 1 + header_length(stream[pc])) {
    const u32 header = stream[pc];
    visit(pc);
    if (header_opcode(header) == static_cast<u8>(Opcode::kEnd)) return;
    if (has_block(header)) {
      visit_block(stream, pc + 1 + block_operands(header), pc + 1 + header_length(header), visit);
    }
  }
}

}  // namespace keel::fsm::detail
