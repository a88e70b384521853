#include "keel/kernel/frame_clock.h"

#include "keel/core/assert.h"

#include <algorithm>
#include <cmath>

namespace keel::kernel {
namespace {

// Time differences below the clock's resolution (1 ns) are rounding noise: a frame of exactly
// three 1/60 s steps must give three steps even when 0.05 / (1/60) comes out as 2.9999999.
constexpr f64 kStepTolerance = 1e-9;

TimingConfig validated(TimingConfig config) {
  KEEL_ASSERT(config.max_dt > 0.0, "max_dt must be > 0 (got {})", config.max_dt);
  KEEL_ASSERT(config.fixed_dt >= 0.0, "fixed_dt must be >= 0 (got {})", config.fixed_dt);
  KEEL_ASSERT(config.max_fixed_steps >= 1, "max_fixed_steps must be >= 1");
  const TimingConfig defaults;
  if (!(config.max_dt > 0.0)) config.max_dt = defaults.max_dt;
  if (!(config.fixed_dt >= 0.0)) config.fixed_dt = 0.0;
  if (config.max_fixed_steps < 1) config.max_fixed_steps = defaults.max_fixed_steps;
  return config;
}

}  // namespace

FrameClock::FrameClock(const Clock& clock, TimingConfig config)
    : clock_(&clock), config_(validated(config)) {}

void FrameClock::set_config(const TimingConfig& config) {
  const TimingConfig next = validated(config);
  if (next.fixed_dt != config_.fixed_dt) accumulator_ = 0.0;
  config_ = next;
}

void FrameClock::advance(Frame& frame) {
  const u64 now = clock_->now_ns();
  f64 real_dt = 0.0;
  if (started_ && now > last_ns_) real_dt = ns_to_seconds(now - last_ns_);
  started_ = true;
  last_ns_ = now;

  f64 dt = real_dt;
  if (dt > config_.max_dt) {
    dt = config_.max_dt;
    ++clamped_frames_;
  }
  time_ += dt;

  frame.number = frames_++;
  frame.dt = dt;
  frame.real_dt = real_dt;
  frame.time = time_;
  frame.fixed_dt = config_.fixed_dt;
  frame.fixed_step = 0;
  frame.fixed_time = fixed_time_;

  const f64 step = config_.fixed_dt;
  if (step <= 0.0) {
    accumulator_ = 0.0;
    frame.fixed_steps = 0;
    frame.alpha = 0.0;
    return;
  }
  accumulator_ += dt;
  // Whole steps due; computed by one division rather than repeated subtraction so rounding
  // errors do not build up from frame to frame.
  const f64 due = std::floor((accumulator_ + kStepTolerance) / step);
  const u64 due_steps = due > 0.0 ? static_cast<u64>(due) : 0;
  const u64 steps = std::min<u64>(due_steps, config_.max_fixed_steps);
  const u64 dropped = due_steps - steps;
  accumulator_ -= static_cast<f64>(due_steps) * step;
  if (accumulator_ < 0.0) accumulator_ = 0.0;  // tolerance may overshoot by < 1 ns
  if (dropped > 0) {
    dropped_fixed_steps_ += dropped;
    dropped_time_ += static_cast<f64>(dropped) * step;
  }
  fixed_time_ += static_cast<f64>(steps) * step;
  frame.fixed_steps = static_cast<u32>(steps);
  frame.alpha = std::clamp(accumulator_ / step, 0.0, std::nextafter(1.0, 0.0));
}

}  // namespace keel::kernel
