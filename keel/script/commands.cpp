#include "keel/script/commands.h"

#include "keel/script/detail/builtins.h"

#include <algorithm>
#include <utility>

namespace keel::script {

std::string_view to_string(ParamType type) {
  switch (type) {
    case ParamType::kInt: return "integer";
    case ParamType::kFloat: return "number";
    case ParamType::kString: return "string";
    case ParamType::kName: return "name";
    case ParamType::kVariable: return "variable";
    case ParamType::kValue: return "value";
  }
  return "?";
}

namespace {

char command_upper(char c) { return (c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : c; }

bool same_name(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (usize i = 0; i < a.size(); ++i) {
    if (command_upper(a[i]) != command_upper(b[i])) return false;
  }
  return true;
}

usize edit_distance(std::string_view a, std::string_view b) {
  std::vector<usize> row(b.size() + 1);
  for (usize j = 0; j <= b.size(); ++j) row[j] = j;
  for (usize i = 1; i <= a.size(); ++i) {
    usize diagonal = row[0];
    row[0] = i;
    for (usize j = 1; j <= b.size(); ++j) {
      const usize up = row[j];
      const usize cost = command_upper(a[i - 1]) == command_upper(b[j - 1]) ? 0 : 1;
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + cost});
      diagonal = up;
    }
  }
  return row[b.size()];
}

}  // namespace

bool has_kinds_word(const CommandDef& def) {
  return std::any_of(def.params.begin(), def.params.end(),
                     [](const ParamSpec& p) { return p.type == ParamType::kValue; });
}

u16 fixed_size(const CommandDef& def) {
  return static_cast<u16>(kHeaderSize + (has_kinds_word(def) ? 4 : 0) +
                          kParamSize * def.params.size());
}

Status CommandSet::add(CommandDef def) {
  if (def.name.empty()) return fail(ErrorCode::kInvalidArgument, "a command needs a name");
  if (find(def.name) != nullptr) {
    return fail(ErrorCode::kAlreadyExists, "command `{}` already exists", def.name);
  }
  if (def.opcode < kFirstGameOpcode) {
    return fail(ErrorCode::kInvalidArgument,
                "command `{}`: game opcodes start at 0x{:04X}, got 0x{:04X}", def.name,
                kFirstGameOpcode, def.opcode);
  }
  if (const CommandDef* other = find(def.opcode)) {
    return fail(ErrorCode::kAlreadyExists, "command `{}`: opcode 0x{:04X} is taken by `{}`",
                def.name, def.opcode, other->name);
  }
  if (!def.handler)
    return fail(ErrorCode::kInvalidArgument, "command `{}` has no handler", def.name);
  if (def.params.size() > 32) {
    return fail(ErrorCode::kInvalidArgument, "command `{}` has more than 32 parameters", def.name);
  }
  bool defaults = false;
  for (const ParamSpec& p : def.params) {
    if (p.default_value.has_value()) {
      if (p.type == ParamType::kString || p.type == ParamType::kName ||
          p.type == ParamType::kVariable) {
        return fail(ErrorCode::kInvalidArgument,
                    "command `{}`: only number parameters can have defaults", def.name);
      }
      defaults = true;
    } else if (defaults) {
      return fail(ErrorCode::kInvalidArgument,
                  "command `{}`: parameters with defaults must come last", def.name);
    }
  }
  def.builtin = Builtin::kNone;
  defs_.push_back(std::move(def));
  return ok();
}

const CommandDef* CommandSet::find(std::string_view name) const {
  for (const CommandDef& d : defs_) {
    if (same_name(d.name, name)) return &d;
  }
  return nullptr;
}

const CommandDef* CommandSet::find(Opcode opcode) const {
  if (const detail::BuiltinInfo* info = detail::builtin_info(opcode)) {
    const CommandDef* def = find(info->command);
    return def != nullptr && def->builtin == Builtin::kCommand ? def : nullptr;
  }
  for (const CommandDef& d : defs_) {
    if (d.builtin == Builtin::kNone && d.opcode == opcode) return &d;
  }
  return nullptr;
}

std::string_view CommandSet::suggest(std::string_view name) const {
  std::string_view best;
  usize best_distance = std::max<usize>(2, name.size() / 3) + 1;
  for (const CommandDef& d : defs_) {
    const usize distance = edit_distance(name, d.name);
    if (distance < best_distance) {
      best_distance = distance;
      best = d.name;
    }
  }
  return best;
}

namespace {

// The parameter type a built-in's script name takes at position `index`: the union of what its
// opcodes (one per operand layout) accept there.
ParamType builtin_param(std::string_view command, u32 index) {
  bool number = false;
  bool real = false;
  bool name = false;
  bool string = false;
  for (const detail::BuiltinInfo& info : detail::kBuiltins) {
    if (info.opcode == 0 || info.command != command || index >= info.operand_count) continue;
    switch (info.operands[index]) {
      case detail::Operand::kInt: number = true; break;
      case detail::Operand::kF32: real = true; break;
      case detail::Operand::kVar: name = true; break;
      case detail::Operand::kStr: string = true; break;
    }
  }
  if (string) return ParamType::kString;
  if ((number || real) && name) return ParamType::kValue;
  if (name) return ParamType::kVariable;
  return real ? ParamType::kFloat : ParamType::kInt;
}

}  // namespace

// Generated from the opcode table (detail/builtins.h): one command per script name, and one per
// alias.
CommandSet default_commands() {
  CommandSet set;
  CommandDef script;
  script.name = "SCRIPT";
  script.params = {{ParamType::kString, {}}};
  script.conditional = Conditional::kRequired;
  script.builtin = Builtin::kScript;
  script.help = "SCRIPT(\"name\") { commands }";
  set.defs_.push_back(std::move(script));
  for (const detail::BuiltinInfo& info : detail::kBuiltins) {
    if (info.opcode == 0 || set.find(info.command) != nullptr) continue;
    CommandDef def;
    def.opcode = info.opcode;
    def.builtin = Builtin::kCommand;
    def.help = std::string(info.help);
    if (info.layout == detail::Layout::kIf) {
      def.params = {{ParamType::kValue, {}}, {ParamType::kName, {}}, {ParamType::kValue, {}}};
      def.conditional = Conditional::kRequired;
    } else {
      for (u32 i = 0; i < info.operand_count; ++i) {
        def.params.push_back({builtin_param(info.command, i), {}});
      }
    }
    for (const std::string_view name : {info.command, info.alias}) {
      if (name.empty()) continue;
      def.name = std::string(name);
      set.defs_.push_back(def);
    }
  }
  return set;
}

}  // namespace keel::script
