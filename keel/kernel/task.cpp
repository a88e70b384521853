#include "keel/kernel/task.h"

#include <utility>

namespace keel::kernel {

Task::Task(std::string name, s32 priority) : priority_(priority), name_(std::move(name)) {}

}  // namespace keel::kernel
