// Structural check of one command stream (used by Library::from_bytes and the fuzz targets).
#include "keel/script/bytecode.h"
#include "keel/script/detail/builtins.h"
#include "keel/script/library.h"

#include <vector>

namespace keel::script {

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
    if (const detail::BuiltinInfo* info = detail::builtin_info(op)) {
      const u32 needed = info->size();
      if (info->layout == detail::Layout::kFixed ? length != needed : length < needed) {
        return fail_at(
            at(pc), ErrorCode::kCorrupt, "{} at offset {} has length {}, {} {}", info->command, pc,
            length, info->layout == detail::Layout::kFixed ? "expected" : "needs at least", needed);
      }
      if (const char* problem = detail::check_builtin_layout(op, code.data() + pc, length)) {
        return fail_at(at(pc + 4), ErrorCode::kCorrupt, "{} at offset {}: {}", info->command, pc,
                       problem);
      }
      if (const u32 block = detail::builtin_block(*info, code.data() + pc); block != 0) {
        ends.push_back(pc + length);
        pc += block;
        continue;
      }
    } else if (op >= kFirstGameOpcode && commands != nullptr) {
      if (const CommandDef* def = commands->find(op)) {
        const u32 fixed = fixed_size(*def);
        if (length < fixed) {
          return fail_at(at(pc), ErrorCode::kCorrupt, "`{}` at offset {} has length {}, needs {}",
                         def->name, pc, length, fixed);
        }
        if (def->conditional != Conditional::kForbidden && length > fixed) {
          ends.push_back(pc + length);
          pc += fixed;
          continue;
        }
      }
    }
    pc += length;
  }
  return ok();
}

}  // namespace keel::script
