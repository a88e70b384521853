// Structural check of one command stream (used by Library::from_bytes and the fuzz targets).
#include "keel/script/bytecode.h"
#include "keel/script/library.h"

#include <vector>

namespace keel::script {

namespace {

// Exact size of a fixed-size built-in, 0 for IF and unknown opcodes.
u32 builtin_size(Opcode op) {
  switch (op) {
    case kOpBreak: return 4;
    case kOpPauseInt:
    case kOpPauseVar:
    case kOpPauseSeconds:
    case kOpPauseSecondsVar:
    case kOpChangeScript:
    case kOpCallScript: return 8;
    case kOpSetInt:
    case kOpSetVar:
    case kOpAddInt:
    case kOpAddVar: return 12;
    default: return 0;
  }
}

}  // namespace

Status validate_stream(std::span<const std::byte> code, const CommandSet* commands) {
  if (code.size() % 4 != 0) {
    return fail_at(SourceLocation::bytes({}, code.size()), ErrorCode::kCorrupt,
                   "script size {} is not a multiple of 4", code.size());
  }
  if (code.size() > 0xFFFFFFFFu) {
    return fail(ErrorCode::kCorrupt, "script of {} bytes is too large", code.size());
  }
  const u32 size = static_cast<u32>(code.size());
  std::vector<u32> ends{size};  // ends of the enclosing blocks, innermost last
  u32 pc = 0;
  for (;;) {
    while (!ends.empty() && pc == ends.back()) ends.pop_back();
    if (ends.empty()) break;
    const u32 end = ends.back();
    const auto at = [&](u32 offset) { return SourceLocation::bytes({}, offset); };
    if (end - pc < kHeaderSize) {
      return fail_at(at(pc), ErrorCode::kCorrupt, "command header at offset {} is cut off", pc);
    }
    const Opcode op = read_u16(code.data() + pc);
    const u32 length = read_u16(code.data() + pc + 2);
    if (length < kHeaderSize || length % 4 != 0) {
      return fail_at(at(pc), ErrorCode::kCorrupt,
                     "command 0x{:04X} at offset {} has length {} (must be a multiple of 4, >= 4)",
                     op, pc, length);
    }
    if (length > end - pc) {
      return fail_at(at(pc), ErrorCode::kCorrupt,
                     "command 0x{:04X} at offset {} (length {}) runs past the end of its {} at {}",
                     op, pc, length, ends.size() == 1 ? "script" : "IF block", end);
    }
    if (const u32 exact = builtin_size(op); exact != 0 && length != exact) {
      return fail_at(at(pc), ErrorCode::kCorrupt, "{} at offset {} has length {}, expected {}",
                     builtin_mnemonic(op), pc, length, exact);
    }
    if (op >= kFirstGameOpcode && commands != nullptr) {
      if (const CommandDef* def = commands->find(op)) {
        const u32 fixed = fixed_size(*def);
        if (length < fixed) {
          return fail_at(at(pc), ErrorCode::kCorrupt, "`{}` at offset {} has length {}, needs {}",
                         def->name, pc, length, fixed);
        }
        if (def->conditional != text::Conditional::kForbidden && length > fixed) {
          ends.push_back(pc + length);
          pc += fixed;
          continue;
        }
      }
    }
    if (op == kOpIf) {
      if (length < kIfConditionalOffset) {
        return fail_at(at(pc), ErrorCode::kCorrupt, "IF at offset {} has length {} (< 16)", pc,
                       length);
      }
      const auto* b = reinterpret_cast<const u8*>(code.data() + pc);
      if (b[4] >= kComparatorCount) {
        return fail_at(at(pc + 4), ErrorCode::kCorrupt, "IF at offset {}: unknown comparator {}",
                       pc, b[4]);
      }
      if (b[5] > kParamVar || b[6] > kParamVar) {
        return fail_at(at(pc + 5), ErrorCode::kCorrupt,
                       "IF at offset {}: unknown operand types {} and {}", pc, b[5], b[6]);
      }
      const u32 conditional = b[7];
      if (conditional < kIfConditionalOffset || conditional % 4 != 0 || conditional > length) {
        return fail_at(at(pc + 7), ErrorCode::kCorrupt,
                       "IF at offset {}: conditional offset {} outside 16..{}", pc, conditional,
                       length);
      }
      ends.push_back(pc + length);
      pc += conditional;
      continue;
    }
    pc += length;
  }
  return ok();
}

}  // namespace keel::script
