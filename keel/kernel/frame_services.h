// The standard per-frame services, attached to a kernel through its frame hooks:
//
//   frame begin:  profile::begin_frame(), then a "Kernel task loop" sample around the updates
//   frame end:    the task-loop sample ends; ObjectRegistry::collect() (deferred destruction,
//                 profiled as "Collect objects"); profile::end_frame()
//
// The kernel itself knows neither the profiler nor the registry (tests run it bare); a game
// calls attach_frame_services once after creating its kernel. The profiler used is the calling
// thread's, so call it on the thread that runs the kernel.
#pragma once

#include "keel/core/ref.h"
#include "keel/kernel/kernel.h"

namespace keel::kernel {

struct FrameServiceHooks {
  Kernel::HookId begin = 0;
  Kernel::HookId end = 0;
};

struct FrameServiceOptions {
  // The profiler's frame boundaries and task-loop sample (the standard setting `profiler`). Off:
  // the hooks only collect objects, and the thread's profiler stops recording trace events.
  bool profile = true;
};

// `objects` may be null (no collection). It must outlive the kernel's frames.
FrameServiceHooks attach_frame_services(Kernel& kernel, ObjectRegistry* objects,
                                        const FrameServiceOptions& options = {});

// Removes the hooks again.
void detach_frame_services(Kernel& kernel, const FrameServiceHooks& hooks);

}  // namespace keel::kernel
