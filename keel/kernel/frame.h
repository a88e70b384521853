// The per-frame data the kernel hands to every task: timing plus a way back to the kernel.
#pragma once

#include "keel/core/types.h"

namespace keel::kernel {

class Kernel;

// Filled by the kernel at the start of each frame and passed to Task::update/fixed_update by
// const reference. `kernel` is a plain reference, so a task can add, suspend or remove tasks
// through it (`frame.kernel.remove(*this)`).
struct Frame {
  Kernel& kernel;
  u64 number = 0;       // 0 for the first frame
  f64 dt = 0.0;         // seconds since the previous frame, clamped to TimingConfig::max_dt
  f64 real_dt = 0.0;    // the same, unclamped (for diagnostics)
  f64 time = 0.0;       // sum of every frame's dt so far, this one included
  f64 fixed_dt = 0.0;   // the fixed step in seconds; 0 when fixed-step mode is off
  u32 fixed_steps = 0;  // fixed steps run this frame
  u32 fixed_step = 0;   // inside fixed_update: index of the current step (0 .. fixed_steps-1)
  // Inside fixed_update: simulation time at the start of the current step. In update: the time
  // reached after this frame's steps.
  f64 fixed_time = 0.0;
  // Fraction of a fixed step left in the accumulator after this frame's steps, in [0, 1): how
  // far to interpolate between the last two fixed states when drawing. 0 when fixed-step is off.
  f64 alpha = 0.0;
};

}  // namespace keel::kernel
