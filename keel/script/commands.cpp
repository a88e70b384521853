#include "keel/script/commands.h"

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

text::ParamKinds token_kinds(ParamType type) {
  switch (type) {
    case ParamType::kInt:
    case ParamType::kFloat: return text::kNumber;
    case ParamType::kString: return text::kString;
    case ParamType::kName:
    case ParamType::kVariable: return text::kName;
    case ParamType::kValue: return text::kNumber | text::kName;
  }
  return 0;
}

namespace {

char upper(char c) { return (c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : c; }

bool same_name(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (usize i = 0; i < a.size(); ++i) {
    if (upper(a[i]) != upper(b[i])) return false;
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
      const usize cost = upper(a[i - 1]) == upper(b[j - 1]) ? 0 : 1;
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

void CommandSet::add_builtin(CommandDef def) { defs_.push_back(std::move(def)); }

const CommandDef* CommandSet::find(std::string_view name) const {
  for (const CommandDef& d : defs_) {
    if (same_name(d.name, name)) return &d;
  }
  return nullptr;
}

const CommandDef* CommandSet::find(Opcode opcode) const {
  Builtin builtin = Builtin::kNone;
  switch (opcode) {
    case kOpBreak: builtin = Builtin::kBreak; break;
    case kOpPauseInt:
    case kOpPauseVar: builtin = Builtin::kPause; break;
    case kOpPauseSeconds:
    case kOpPauseSecondsVar: builtin = Builtin::kPauseSeconds; break;
    case kOpIf: builtin = Builtin::kIf; break;
    case kOpChangeScript: builtin = Builtin::kChangeScript; break;
    case kOpCallScript: builtin = Builtin::kCallScript; break;
    case kOpSetInt:
    case kOpSetVar: builtin = Builtin::kSet; break;
    case kOpAddInt:
    case kOpAddVar: builtin = Builtin::kAdd; break;
    default: break;
  }
  for (const CommandDef& d : defs_) {
    if (builtin != Builtin::kNone ? d.builtin == builtin
                                  : (d.builtin == Builtin::kNone && d.opcode == opcode)) {
      return &d;
    }
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

CommandSet default_commands() {
  using text::Conditional;
  CommandSet set;
  auto builtin = [&](std::string name, Opcode opcode, std::vector<ParamSpec> params,
                     Conditional conditional, Builtin kind, std::string help) {
    CommandDef def;
    def.name = std::move(name);
    def.opcode = opcode;
    def.params = std::move(params);
    def.conditional = conditional;
    def.builtin = kind;
    def.help = std::move(help);
    set.add_builtin(std::move(def));
  };
  const ParamSpec string{ParamType::kString, {}};
  const ParamSpec value{ParamType::kValue, {}};
  builtin("SCRIPT", 0, {string}, Conditional::kRequired, Builtin::kScript,
          "SCRIPT(\"name\") { commands }");
  builtin("BREAK", kOpBreak, {}, Conditional::kForbidden, Builtin::kBreak, "BREAK();");
  builtin("PAUSE", kOpPauseInt, {value}, Conditional::kForbidden, Builtin::kPause,
          "PAUSE(frames);");
  builtin("PAUSEFRAMES", kOpPauseInt, {value}, Conditional::kForbidden, Builtin::kPause,
          "PAUSEFRAMES(frames);");
  builtin("PAUSESECONDS", kOpPauseSeconds, {{ParamType::kValue, {}}}, Conditional::kForbidden,
          Builtin::kPauseSeconds, "PAUSESECONDS(seconds);");
  builtin("IF", kOpIf, {value, {ParamType::kName, {}}, value}, Conditional::kRequired, Builtin::kIf,
          "IF(a, comparator, b) command-or-block");
  builtin("CHANGESCRIPT", kOpChangeScript, {string}, Conditional::kForbidden,
          Builtin::kChangeScript, "CHANGESCRIPT(\"name\");");
  builtin("CALLSCRIPT", kOpCallScript, {string}, Conditional::kForbidden, Builtin::kCallScript,
          "CALLSCRIPT(\"name\");");
  const ParamSpec variable{ParamType::kVariable, {}};
  builtin("SET", kOpSetInt, {variable, value}, Conditional::kForbidden, Builtin::kSet,
          "SET(variable, value);");
  builtin("ADD", kOpAddInt, {variable, value}, Conditional::kForbidden, Builtin::kAdd,
          "ADD(variable, value);");
  return set;
}

}  // namespace keel::script
