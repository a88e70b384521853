#include "keel/tween/tasks.h"

#include <utility>

namespace keel::tween {

TweenTask::TweenTask(s32 priority, std::string name) : Task(std::move(name), priority) {}
void TweenTask::update(const kernel::Frame& frame) { tweens_.update(frame.dt); }

TriggerTask::TriggerTask(s32 priority, std::string name) : Task(std::move(name), priority) {}
void TriggerTask::update(const kernel::Frame& /*frame*/) { triggers_.update(); }

}  // namespace keel::tween
