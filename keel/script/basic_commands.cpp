#include "keel/script/basic_commands.h"

#include <fmt/format.h>

#include <utility>

namespace keel::script {

Status add_basic_commands(CommandSet& commands, PrintFn print) {
  CommandDef def;
  def.name = "PRINT";
  def.opcode = kOpPrint;
  def.params = {{ParamType::kString, {}}};
  def.help = "PRINT(\"text\");";
  def.handler = [print = std::move(print)](Call& call) {
    if (print) {
      if (auto text = call.text_at(0)) {
        print(call, *text);
      } else {
        print(call, fmt::format("#{:08X}", call.hash_at(0)));
      }
    }
    return Outcome::kNext;
  };
  return commands.add(std::move(def));
}

}  // namespace keel::script
