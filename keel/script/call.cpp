#include "keel/script/call.h"

#include "keel/script/detail/core.h"
#include "keel/script/machine.h"

namespace keel::script {

std::optional<std::string_view> Call::text_at(u32 index) const {
  return machine_.symbol(raw_at(index));
}

InstanceId Call::instance() const { return InstanceId{instance_.index, instance_.generation}; }
u64 Call::frame() const { return machine_.frame(); }
f64 Call::time() const { return machine_.time(); }

Outcome Call::fail(std::string message) {
  machine_.core_->fail_instance(instance_, ErrorCode::kRefused,
                                fmt::format("`{}`: {}", command_.name, message));
  return Outcome::kFail;
}

}  // namespace keel::script
