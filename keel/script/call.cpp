#include "keel/script/call.h"

#include "keel/script/detail/core.h"
#include "keel/script/machine.h"

namespace keel::script {

std::optional<std::string_view> Call::text_at(u32 index) const {
  return site_.machine->symbol(raw_at(index));
}

InstanceId Call::instance() const { return InstanceId{instance_.index, instance_.generation}; }
u64 Call::frame() const { return site_.machine->frame(); }
f64 Call::time() const { return site_.machine->time(); }

Outcome Call::fail(std::string message) {
  site_.machine->core_->fail_instance(instance_, ErrorCode::kRefused,
                                      fmt::format("`{}`: {}", site_.def->name, message));
  return Outcome::kFail;
}

}  // namespace keel::script
