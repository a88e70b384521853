#include "keel/script/compiler/disassembler.h"

#include "keel/script/bytecode.h"
#include "keel/script/detail/builtins.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <vector>

namespace keel::script {

namespace {

std::string name_of(Hash hash, const Library* library) {
  if (library != nullptr) {
    if (auto text = library->symbol(hash)) return std::string(*text);
  }
  return fmt::format("#{:08X}", hash);
}

std::string quoted(Hash hash, const Library* library) {
  if (library != nullptr) {
    if (auto text = library->symbol(hash)) {
      return text->find('"') == std::string_view::npos ? fmt::format("\"{}\"", *text)
                                                       : fmt::format("'{}'", *text);
    }
  }
  return fmt::format("#{:08X}", hash);
}

std::string operand(u8 type, u32 raw, const Library* library) {
  return type == kParamVar ? name_of(raw, library) : fmt::format("{}", std::bit_cast<s32>(raw));
}

std::string hex(std::span<const std::byte> bytes) {
  std::string out;
  for (usize i = 0; i < bytes.size(); ++i) {
    if (i > 0) out += ' ';
    out += fmt::format("{:02X}", static_cast<u8>(bytes[i]));
  }
  return out;
}

// Size of the part of a command shown as bytes (everything before its conditional commands).
u32 head_size(Opcode op, u32 length, const CommandSet& commands) {
  if (const detail::BuiltinInfo* info = detail::builtin_info(op)) {
    return info->layout == detail::Layout::kIf ? std::min<u32>(length, info->size()) : length;
  }
  if (op >= kFirstGameOpcode) {
    if (const CommandDef* def = commands.find(op)) return std::min<u32>(length, fixed_size(*def));
    return std::min<u32>(length, 8);
  }
  return length;
}

// Offset of the nested commands of a command (0 when it has none).
u32 nested_at(const std::byte* p, u32 length, const CommandSet& commands) {
  const Opcode op = read_u16(p);
  if (const detail::BuiltinInfo* info = detail::builtin_info(op)) {
    if (length < info->size() || detail::check_builtin_layout(op, p, length) != nullptr) return 0;
    const u32 at = detail::builtin_block(*info, p);
    return at < length ? at : 0;
  }
  if (op >= kFirstGameOpcode) {
    const CommandDef* def = commands.find(op);
    if (def != nullptr && def->conditional != Conditional::kForbidden &&
        fixed_size(*def) < length) {
      return fixed_size(*def);
    }
  }
  return 0;
}

// A built-in command from its operand layout: "PAUSE 5", "SET x, 5", "IF health < 50".
std::string format_builtin(const detail::BuiltinInfo& info, const std::byte* p, u32 length,
                           const Library* library) {
  if (length < info.size()) return fmt::format("{} (cut off)", info.command);
  if (info.layout == detail::Layout::kIf) {
    const auto b = [p](u32 i) { return static_cast<u8>(p[i]); };
    return fmt::format("{} {} {} {}", info.command, operand(b(5), read_u32(p + 8), library),
                       comparator_symbol(b(4)), operand(b(6), read_u32(p + 12), library));
  }
  std::string out(info.command);
  for (u32 i = 0; i < info.operand_count; ++i) {
    out += i == 0 ? " " : ", ";
    const u32 raw = read_u32(p + 4 + 4 * i);
    switch (info.operands[i]) {
      case detail::Operand::kInt: out += fmt::format("{}", std::bit_cast<s32>(raw)); break;
      case detail::Operand::kF32: out += fmt::format("{}", std::bit_cast<f32>(raw)); break;
      case detail::Operand::kVar: out += name_of(raw, library); break;
      case detail::Operand::kStr: out += quoted(raw, library); break;
    }
  }
  return out;
}

}  // namespace

std::string format_command(std::span<const std::byte> command, const CommandSet& commands,
                           const Library* library) {
  if (command.size() < kHeaderSize) return "(cut off)";
  const std::byte* p = command.data();
  const Opcode op = read_u16(p);
  const u32 length = std::min<u32>(read_u16(p + 2), static_cast<u32>(command.size()));
  const auto param = [&](u32 offset) -> std::optional<u32> {
    if (offset + 4 > length) return std::nullopt;
    return read_u32(p + offset);
  };
  if (const detail::BuiltinInfo* info = detail::builtin_info(op)) {
    return format_builtin(*info, p, length, library);
  }
  const CommandDef* def = op >= kFirstGameOpcode ? commands.find(op) : nullptr;
  if (def == nullptr) return fmt::format("op 0x{:04X} (unknown: skipped)", op);
  const bool kinds_word = has_kinds_word(*def);
  const u32 kinds = kinds_word ? param(4).value_or(0) : 0;
  std::string out = def->name;
  u32 at = kinds_word ? 8 : 4;
  for (usize i = 0; i < def->params.size(); ++i, at += 4) {
    out += i == 0 ? " " : ", ";
    const auto raw = param(at);
    if (!raw) return out + "(cut off)";
    switch (def->params[i].type) {
      case ParamType::kInt: out += fmt::format("{}", std::bit_cast<s32>(*raw)); break;
      case ParamType::kFloat: out += fmt::format("{}", std::bit_cast<f32>(*raw)); break;
      case ParamType::kString: out += quoted(*raw, library); break;
      case ParamType::kName:
      case ParamType::kVariable: out += name_of(*raw, library); break;
      case ParamType::kValue:
        out += ((kinds >> i) & 1u) != 0 ? name_of(*raw, library)
                                        : fmt::format("{}", std::bit_cast<s32>(*raw));
        break;
    }
  }
  return out;
}

std::string disassemble(const Library& library, const Script& script, const CommandSet& commands,
                        const DisassembleOptions& options) {
  std::string out = fmt::format(
      "script {}  hash 0x{:08X}  {} bytes{}\n",
      script.name.empty() ? std::string("?") : quoted(script.name_hash, &library), script.name_hash,
      script.code.size(), script.file.empty() ? "" : fmt::format("  {}", script.file));
  const auto size = static_cast<u32>(script.code.size());
  const std::byte* code = script.code.data();
  std::vector<u32> ends{size};
  u32 pc = 0;
  u32 last_line = 0;
  for (;;) {
    while (!ends.empty() && pc >= ends.back()) ends.pop_back();
    if (ends.empty()) break;
    const std::string indent(2 * (ends.size() - 1), ' ');
    if (options.source_lines) {
      const LineEntry* e = script.line_at(pc);
      if (e != nullptr && e->offset == pc && e->line != last_line) {
        last_line = e->line;
        const std::string_view text = library.source_line(script.file, e->line);
        out += text.empty() ? fmt::format("      | line {}\n", e->line)
                            : fmt::format("{:>6}|{}\n", e->line, text);
      }
    }
    const u32 room = ends.back() - pc;
    if (room < kHeaderSize) {
      out += fmt::format("{:04X}  {}  !! corrupt: command header cut off\n", pc,
                         hex(std::span(code + pc, room)));
      break;
    }
    const Opcode op = read_u16(code + pc);
    const u32 length = read_u16(code + pc + 2);
    if (length < kHeaderSize || length % 4 != 0 || length > room) {
      out += fmt::format("{:04X}  {}  !! corrupt: length {} ({} bytes left)\n", pc,
                         hex(std::span(code + pc, kHeaderSize)), length, room);
      break;
    }
    const std::span<const std::byte> command(code + pc, length);
    std::string bytes;
    if (options.bytes) {
      const u32 shown = head_size(op, length, commands);
      bytes = hex(command.first(shown));
      if (shown < length && nested_at(code + pc, length, commands) == 0) bytes += " ..";
    }
    const std::string text = format_command(command, commands, &library);
    if (options.bytes) {
      out += fmt::format("{:04X}  {:<48} {}{}\n", pc, bytes, indent, text);
    } else {
      out += fmt::format("{:04X}  {}{}\n", pc, indent, text);
    }
    if (const u32 nested = nested_at(code + pc, length, commands); nested != 0) {
      ends.push_back(pc + length);
      pc += nested;
    } else {
      pc += length;
    }
  }
  return out;
}

std::string disassemble(const Library& library, const CommandSet& commands,
                        const DisassembleOptions& options) {
  std::string out;
  for (const Script& s : library.scripts()) {
    if (!out.empty()) out += '\n';
    out += disassemble(library, s, commands, options);
  }
  return out;
}

}  // namespace keel::script
