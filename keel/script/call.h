// What a game command's handler sees: its parameters, the running instance's variables and the
// Machine. A Call lives only for the duration of the handler; nothing here allocates.
//
//   Outcome attack(script::Call& call) {
//     auto* enemy = static_cast<Enemy*>(call.user());
//     enemy->attack(call.hash_at(0), call.value_at(1));   // ATTACK("player", damage)
//     return script::Outcome::kNext;
//   }
#pragma once

#include "keel/core/hash.h"
#include "keel/core/types.h"
#include "keel/script/commands.h"
#include "keel/script/instance_id.h"

#include <optional>
#include <string>
#include <string_view>

namespace keel::script {

class Machine;
namespace detail {
struct Instance;
}

class Call {
 public:
  Call(Machine& machine, detail::Instance& instance, const CommandDef& command,
       const std::byte* params, u32 kinds)
      : machine_(machine), instance_(instance), command_(command), params_(params), kinds_(kinds) {}

  const CommandDef& command() const { return command_; }
  u32 param_count() const { return static_cast<u32>(command_.params.size()); }

  // Raw parameter values (index < param_count(); checked by KEEL_ASSERT).
  s32 int_at(u32 index) const;           // kInt
  f32 float_at(u32 index) const;         // kFloat
  Hash hash_at(u32 index) const;         // kString, kName, kVariable, or a kValue naming a variable
  bool is_variable_at(u32 index) const;  // kVariable, or a kValue that names a variable
  // The value: a literal (kInt, kValue; kFloat truncated) or the variable's value (kVariable and
  // kValue naming a variable; 0 if the variable is not set).
  s32 value_at(u32 index) const;
  // Writes the variable parameter `index` names (kVariable or a variable kValue).
  void set_at(u32 index, s32 value);
  // The text of a kString / kName parameter, if the loaded libraries know it.
  std::optional<std::string_view> text_at(u32 index) const;

  // Variables of the running instance (falling back to game-wide variables: see Machine).
  s32 get(Hash name) const;
  void set(Hash name, s32 value);

  Machine& machine() const { return machine_; }
  InstanceId instance() const;
  void* user() const;
  u64 frame() const;  // the Machine's frame number (1 in the first update)
  f64 time() const;   // seconds of game time at the start of this frame

  // Stops the script with an error; `return call.fail("no target named {}", ...)`.
  Outcome fail(std::string message);

 private:
  u32 raw_at(u32 index) const;

  Machine& machine_;
  detail::Instance& instance_;
  const CommandDef& command_;
  const std::byte* params_;
  u32 kinds_;
};

}  // namespace keel::script
