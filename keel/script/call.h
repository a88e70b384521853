// What a game command's handler sees: its parameters, the running instance's variables and the
// Machine. A Call lives only for the duration of the handler; nothing here allocates (except a
// variable a script writes for the first time beyond the few stored inline).
//
//   Outcome attack(script::Call& call) {
//     auto* enemy = static_cast<Enemy*>(call.user());
//     enemy->attack(call.hash_at(0), call.value_at(1));   // ATTACK("player", damage)
//     return script::Outcome::kNext;
//   }
#pragma once

#include "keel/core/assert.h"
#include "keel/core/hash.h"
#include "keel/core/slot_map.h"
#include "keel/core/types.h"
#include "keel/script/bytecode.h"
#include "keel/script/commands.h"
#include "keel/script/variables.h"

#include <bit>
#include <optional>
#include <string>
#include <string_view>

namespace keel::script {

class Machine;
struct InstanceTag;
using InstanceId = Handle<InstanceTag>;
namespace detail {
struct Instance;
}

class Call {
 public:
  // Built by the Machine. `variable_mask` has bit i set when parameter i names a variable;
  // `float_mask` when it is a kFloat.
  Call(Machine& machine, detail::Instance& instance, void* user, VariableSet& variables,
       GlobalVariables& globals, const CommandDef& command, const std::byte* params,
       u32 variable_mask, u32 float_mask)
      : machine_(machine),
        instance_(instance),
        user_(user),
        variables_(variables),
        globals_(globals),
        command_(command),
        params_(params),
        variable_mask_(variable_mask),
        float_mask_(float_mask) {}

  const CommandDef& command() const { return command_; }
  u32 param_count() const { return static_cast<u32>(command_.params.size()); }

  // Raw parameter values (index < param_count(); checked by KEEL_ASSERT).
  s32 int_at(u32 index) const { return std::bit_cast<s32>(raw_at(index)); }    // kInt
  f32 float_at(u32 index) const { return std::bit_cast<f32>(raw_at(index)); }  // kFloat
  // kString, kName, kVariable, or a kValue naming a variable.
  Hash hash_at(u32 index) const { return raw_at(index); }
  // kVariable, or a kValue that names a variable.
  bool is_variable_at(u32 index) const { return ((variable_mask_ >> index) & 1u) != 0; }
  // The value: a literal (kInt, kValue; kFloat truncated toward zero) or the variable's value
  // (kVariable and kValue naming a variable; 0 if the variable is not set).
  s32 value_at(u32 index) const {
    const u32 raw = raw_at(index);
    if (is_variable_at(index)) return get(raw);
    if (((float_mask_ >> index) & 1u) != 0) [[unlikely]]
      return truncate(std::bit_cast<f32>(raw));
    return std::bit_cast<s32>(raw);
  }
  // The variable parameter `index` names (kVariable or a variable kValue), created (0) if it is
  // not set. The reference is valid until the next variable is created.
  s32& variable_at(u32 index) {
    KEEL_ASSERT(is_variable_at(index), "parameter {} of `{}` is not a variable", index + 1,
                command_.name);
    return variable_ref(variables_, globals_, raw_at(index));
  }
  void set_at(u32 index, s32 value) { variable_at(index) = value; }
  // The text of a kString / kName parameter, if the loaded libraries know it.
  std::optional<std::string_view> text_at(u32 index) const;

  // Variables of the running instance (falling back to game-wide variables: see Machine).
  s32 get(Hash name) const { return read_variable(variables_, globals_, name); }
  void set(Hash name, s32 value) { variable_ref(variables_, globals_, name) = value; }

  Machine& machine() const { return machine_; }
  InstanceId instance() const;
  void* user() const { return user_; }
  u64 frame() const;  // the Machine's frame number (1 in the first update)
  f64 time() const;   // seconds of game time at the start of this frame

  // Stops the script with an error; `return call.fail("no target named ...");`
  Outcome fail(std::string message);

 private:
  u32 raw_at(u32 index) const {
    KEEL_ASSERT(index < param_count(), "`{}` has {} parameters, asked for #{}", command_.name,
                param_count(), index + 1);
    if (index >= param_count()) [[unlikely]]
      return 0;  // release builds: never a read past the command
    return read_u32(params_ + usize{index} * kParamSize);
  }
  static s32 truncate(f32 f) {
    if (!(f == f)) return 0;
    if (f >= 2147483647.0f) return 2147483647;
    if (f <= -2147483648.0f) return -2147483647 - 1;
    return static_cast<s32>(f);
  }

  Machine& machine_;
  detail::Instance& instance_;
  void* user_;
  VariableSet& variables_;
  GlobalVariables& globals_;
  const CommandDef& command_;
  const std::byte* params_;
  u32 variable_mask_;
  u32 float_mask_;
};

}  // namespace keel::script
