#include "keel/script/call.h"

#include "keel/core/assert.h"
#include "keel/script/bytecode.h"
#include "keel/script/instance.h"
#include "keel/script/machine.h"

#include <bit>

namespace keel::script {

u32 Call::raw_at(u32 index) const {
  KEEL_ASSERT(index < param_count(), "`{}` has {} parameters, asked for #{}", command_.name,
              param_count(), index);
  return read_u32(params_ + usize{index} * kParamSize);
}

s32 Call::int_at(u32 index) const { return std::bit_cast<s32>(raw_at(index)); }
f32 Call::float_at(u32 index) const { return std::bit_cast<f32>(raw_at(index)); }
Hash Call::hash_at(u32 index) const { return raw_at(index); }

bool Call::is_variable_at(u32 index) const {
  KEEL_ASSERT(index < param_count());
  const ParamType type = command_.params[index].type;
  return type == ParamType::kVariable ||
         (type == ParamType::kValue && index < 32 && ((kinds_ >> index) & 1u) != 0);
}

s32 Call::value_at(u32 index) const {
  const u32 raw = raw_at(index);
  if (is_variable_at(index)) return machine_.read_var(instance_, raw);
  if (command_.params[index].type == ParamType::kFloat) {
    const f32 f = std::bit_cast<f32>(raw);
    if (!(f == f)) return 0;
    if (f >= 2147483647.0f) return 2147483647;
    if (f <= -2147483648.0f) return -2147483647 - 1;
    return static_cast<s32>(f);
  }
  return std::bit_cast<s32>(raw);
}

void Call::set_at(u32 index, s32 value) {
  KEEL_ASSERT(is_variable_at(index), "parameter #{} of `{}` is not a variable", index,
              command_.name);
  machine_.write_var(instance_, raw_at(index), value);
}

std::optional<std::string_view> Call::text_at(u32 index) const {
  return machine_.symbol(raw_at(index));
}

s32 Call::get(Hash name) const { return machine_.read_var(instance_, name); }
void Call::set(Hash name, s32 value) { machine_.write_var(instance_, name, value); }

InstanceId Call::instance() const { return InstanceId{instance_.index, instance_.generation}; }
void* Call::user() const { return instance_.user; }
u64 Call::frame() const { return machine_.frame(); }
f64 Call::time() const { return machine_.time(); }

Outcome Call::fail(std::string message) {
  machine_.fail_instance(instance_, ErrorCode::kRefused,
                         fmt::format("`{}`: {}", command_.name, message));
  return Outcome::kFail;
}

}  // namespace keel::script
