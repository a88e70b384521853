#include "keel/kernel/frame_services.h"

#include "keel/profile/profile.h"

namespace keel::kernel {
namespace {

constexpr profile::Site kTaskLoop{"Kernel task loop", __FILE__, __LINE__};
constexpr profile::Site kCollect{"Collect objects", __FILE__, __LINE__};

}  // namespace

FrameServiceHooks attach_frame_services(Kernel& kernel, ObjectRegistry* objects,
                                        const FrameServiceOptions& options) {
  FrameServiceHooks hooks;
  if (!options.profile) {
    profile::this_thread().set_tracing(false);
    hooks.begin = kernel.add_frame_begin_hook([] {});
    hooks.end = kernel.add_frame_end_hook([objects] {
      if (objects != nullptr) objects->collect();
    });
    return hooks;
  }
  hooks.begin = kernel.add_frame_begin_hook([] {
    profile::Profiler& profiler = profile::this_thread();
    profiler.begin_frame();
    profiler.enter(kTaskLoop);
  });
  hooks.end = kernel.add_frame_end_hook([objects] {
    profile::Profiler& profiler = profile::this_thread();
    profiler.leave(kTaskLoop);
    if (objects != nullptr) {
      profiler.enter(kCollect);
      objects->collect();
      profiler.leave(kCollect);
    }
    profiler.end_frame();
  });
  return hooks;
}

void detach_frame_services(Kernel& kernel, const FrameServiceHooks& hooks) {
  kernel.remove_frame_hook(hooks.begin);
  kernel.remove_frame_hook(hooks.end);
}

}  // namespace keel::kernel
