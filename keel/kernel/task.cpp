#include "keel/kernel/task.h"

#include <utility>

namespace keel::kernel {

Task::Task(std::string name, s32 priority) : name_(std::move(name)), priority_(priority) {}

}  // namespace keel::kernel
