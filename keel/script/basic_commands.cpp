#include "keel/script/basic_commands.h"

#include <fmt/format.h>

#include <limits>
#include <string>
#include <utility>

namespace keel::script {

namespace {

s32 saturating_add(s32 a, s32 b) {
  const s64 sum = s64{a} + s64{b};
  if (sum > std::numeric_limits<s32>::max()) return std::numeric_limits<s32>::max();
  if (sum < std::numeric_limits<s32>::min()) return std::numeric_limits<s32>::min();
  return static_cast<s32>(sum);
}

}  // namespace

Status add_basic_commands(CommandSet& commands, PrintFn print) {
  CommandDef print_def;
  print_def.name = "PRINT";
  print_def.opcode = kOpPrint;
  print_def.params = {{ParamType::kString, {}}};
  print_def.help = "PRINT(\"text\");";
  print_def.handler = [print = std::move(print)](Call& call) {
    if (print) {
      if (auto text = call.text_at(0)) {
        print(call, *text);
      } else {
        print(call, fmt::format("#{:08X}", call.hash_at(0)));
      }
    }
    return Outcome::kNext;
  };
  if (Status st = commands.add(std::move(print_def)); !st) return st;

  CommandDef set_def;
  set_def.name = "SET";
  set_def.opcode = kOpSet;
  set_def.params = {{ParamType::kVariable, {}}, {ParamType::kValue, {}}};
  set_def.help = "SET(variable, value);";
  set_def.handler = [](Call& call) {
    call.set_at(0, call.value_at(1));
    return Outcome::kNext;
  };
  if (Status st = commands.add(std::move(set_def)); !st) return st;

  CommandDef add_def;
  add_def.name = "ADD";
  add_def.opcode = kOpAdd;
  add_def.params = {{ParamType::kVariable, {}}, {ParamType::kValue, {}}};
  add_def.help = "ADD(variable, value);";
  add_def.handler = [](Call& call) {
    call.set_at(0, saturating_add(call.value_at(0), call.value_at(1)));
    return Outcome::kNext;
  };
  return commands.add(std::move(add_def));
}

}  // namespace keel::script
