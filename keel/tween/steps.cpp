#include "keel/tween/steps.h"

namespace keel::tween {

std::vector<const void*> detail::targets_of(const std::vector<Step>& steps) {
  std::vector<const void*> all;
  for (const Step& step : steps)
    all.insert(all.end(), step.targets().begin(), step.targets().end());
  return all;
}

namespace steps {

Step wait(f32 seconds) {
  KEEL_ASSERT(seconds >= 0.0f, "negative wait {}", seconds);
  if (!(seconds >= 0.0f)) seconds = 0.0f;
  return Step(
      [seconds](TweenSystem& s, const detail::Spawn& spawn) {
        return detail::StepAccess::timer(s, seconds, spawn);
      },
      {});
}

Step call(std::function<void()> fn) {
  KEEL_ASSERT(static_cast<bool>(fn), "call step without a function");
  return Step(
      [fn = std::move(fn)](TweenSystem&, const detail::Spawn&) {
        if (fn) fn();
        return TweenHandle{};
      },
      {});
}

namespace {
Step group(std::vector<Step> steps, bool sequence, TweenOptions options) {
  std::vector<const void*> targets = detail::targets_of(steps);
  auto shared = std::make_shared<const std::vector<Step>>(std::move(steps));
  return Step(
      [shared = std::move(shared), sequence, options = std::move(options)](
          TweenSystem& s, const detail::Spawn& spawn) {
        return detail::StepAccess::group(s, shared, sequence, options, spawn);
      },
      std::move(targets));
}
}  // namespace

Step sequence(std::vector<Step> steps, TweenOptions options) {
  return group(std::move(steps), true, std::move(options));
}
Step parallel(std::vector<Step> steps, TweenOptions options) {
  return group(std::move(steps), false, std::move(options));
}

}  // namespace steps
}  // namespace keel::tween
