// Frame timing for the kernel: delta time with a clamp, total time, frame counter, and an
// optional fixed-step accumulator ("fix your time step") with a cap on steps per frame.
#pragma once

#include "keel/core/clock.h"
#include "keel/core/types.h"
#include "keel/kernel/frame.h"

namespace keel::kernel {

struct TimingConfig {
  // Longest dt a frame may report, in seconds. A longer gap (a debugger pause, a slow load) is
  // clamped so the simulation does not take one enormous step. Must be > 0.
  f64 max_dt = 0.25;
  // Fixed step in seconds; 0 turns fixed-step updates off.
  f64 fixed_dt = 0.0;
  // At most this many fixed steps per frame (>= 1). Whole steps beyond it are dropped and
  // counted (see FrameClock::dropped_fixed_steps) instead of making the next frame slower still.
  u32 max_fixed_steps = 8;
};

class FrameClock {
 public:
  // `clock` must outlive this object.
  explicit FrameClock(const Clock& clock, TimingConfig config = {});

  // Reads the clock and fills the timing fields of `frame` for a new frame. The first frame
  // (and the first after restart()) has dt 0: there is no previous frame to measure from.
  void advance(Frame& frame);

  // The next frame measures no time (dt 0), e.g. after loading or after run() returned.
  void restart() { started_ = false; }

  const TimingConfig& config() const { return config_; }
  // Invalid values are programmer errors (asserted) and replaced by the defaults in release
  // builds. Changing fixed_dt empties the accumulator. Takes effect at the next advance().
  void set_config(const TimingConfig& config);

  u64 frames() const { return frames_; }
  f64 time() const { return time_; }
  f64 fixed_time() const { return fixed_time_; }
  f64 accumulator() const { return accumulator_; }
  u64 clamped_frames() const { return clamped_frames_; }
  u64 dropped_fixed_steps() const { return dropped_fixed_steps_; }
  f64 dropped_time() const { return dropped_time_; }

 private:
  const Clock* clock_;
  TimingConfig config_;
  bool started_ = false;
  u64 last_ns_ = 0;
  u64 frames_ = 0;
  f64 time_ = 0.0;
  f64 fixed_time_ = 0.0;
  f64 accumulator_ = 0.0;
  u64 clamped_frames_ = 0;
  u64 dropped_fixed_steps_ = 0;
  f64 dropped_time_ = 0.0;
};

}  // namespace keel::kernel
