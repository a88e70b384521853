// Internal: sine oscillators, one pool per value type. Time is kept in f64 and wrapped every
// period, so an oscillator left running for hours stays exact.
#pragma once

#include "keel/tween/oscillator.h"
#include "keel/tween/pool.h"

#include <cmath>
#include <functional>
#include <limits>
#include <numbers>
#include <utility>
#include <vector>

namespace keel::tween::detail {

template <Tweenable T>
class OscillatorPool final : public Pool {
 public:
  using Pool::Pool;

  u32 insert(T* target, const Oscillation<T>& osc, f32 delay, u32 slot, bool paused) {
    KEEL_ASSERT(target != nullptr, "oscillator without a target");
    KEEL_ASSERT(osc.frequency >= 0.0f, "negative frequency {}", osc.frequency);
    const f64 period = osc.frequency > 0.0f ? 1.0 / static_cast<f64>(osc.frequency)
                                            : std::numeric_limits<f64>::infinity();
    rows_.push_back(Row{target, osc, -static_cast<f64>(delay), period, delay});
    return commit_row(slot, paused);
  }

  void update(f32 dt) override {
    for (usize i = 0; i < active_; ++i) {
      Row& r = rows_[i];
      r.time += dt;
      evaluate(r);
    }
    finished_count_ = 0;  // never ends by itself
  }

  bool due(u32 /*row*/) const override { return false; }
  PlayEnd end_play(u32 /*row*/) override { return {}; }
  void write(u32 row) override { evaluate(rows_[row]); }
  void rewind(u32 row) override { rows_[row].time = -static_cast<f64>(rows_[row].delay); }
  f32 elapsed(u32 row) const override { return static_cast<f32>(rows_[row].time); }
  void advance(u32 row, f32 dt) override { rows_[row].time += dt; }
  bool targets(u32 row, const void* begin, const void* end) const override {
    const void* t = rows_[row].target;
    return std::less_equal<>()(begin, t) && std::less<>()(t, end);
  }

 protected:
  void swap_rows(u32 a, u32 b) override { std::swap(rows_[a], rows_[b]); }
  void pop_row() override { rows_.pop_back(); }

 private:
  struct Row {
    T* target;
    Oscillation<T> osc;
    f64 time;  // seconds into the wave, wrapped to [0, period); negative while delayed
    f64 period;
    f32 delay;
  };

  static void evaluate(Row& r) {
    if (r.time < 0.0) return;
    if (r.time >= r.period) r.time = std::fmod(r.time, r.period);
    const f64 angle = 2.0 * std::numbers::pi * static_cast<f64>(r.osc.frequency) * r.time +
                      static_cast<f64>(r.osc.phase);
    const auto s = static_cast<f32>(std::sin(angle));
    *r.target = static_cast<T>(r.osc.center + static_cast<T>(r.osc.amplitude * s));
  }

  std::vector<Row> rows_;
};

}  // namespace keel::tween::detail
