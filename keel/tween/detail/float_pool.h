// Internal: eased float tweens (from -> to), the common case, stored as structure-of-arrays with
// one pool per easing curve so the per-frame pass is a branch-light loop over contiguous columns
// with the curve inlined: no virtual call and no dispatch per row.
#pragma once

#include "keel/tween/easing.h"
#include "keel/tween/pool.h"
#include "keel/tween/value.h"

#include <vector>

namespace keel::tween::detail {

struct FloatRow {
  f32* target = nullptr;
  f32 from = 0.0f;
  f32 to = 0.0f;
  f32 elapsed = 0.0f;  // starts at -delay
  f32 duration = 0.0f;
  Playback playback;
};

// The columns and everything that does not depend on the curve.
class FloatPoolBase : public Pool {
 public:
  using Pool::Pool;

  // Adds a row for `slot`; returns its row index.
  u32 insert(const FloatRow& row, u32 slot, bool paused);
  // The pool playing the same tweens backwards in time (mirror(ease)); set once by the system.
  void set_mirror(FloatPoolBase* mirror) { mirror_ = mirror; }
  void reserve(usize n);

  bool due(u32 row) const override { return elapsed_[row] >= duration_[row]; }
  PlayEnd end_play(u32 row) override;
  void rewind(u32 row) override;
  f32 elapsed(u32 row) const override { return elapsed_[row]; }
  void advance(u32 row, f32 dt) override { elapsed_[row] += dt; }
  bool targets(u32 row, const void* begin, const void* end) const override;

 protected:
  void swap_rows(u32 a, u32 b) override;
  void pop_row() override;

  FloatRow read(u32 row) const;
  // Moves the row to the mirror pool (ping-pong turned round); returns its new row there.
  u32 move_to_mirror(u32 row);

  std::vector<f32*> target_;
  std::vector<f32> from_;
  std::vector<f32> to_;
  std::vector<f32> elapsed_;
  std::vector<f32> duration_;
  std::vector<Playback> playback_;
  FloatPoolBase* mirror_ = nullptr;
};

template <Ease E>
class FloatPool final : public FloatPoolBase {
 public:
  using FloatPoolBase::FloatPoolBase;

  void update(f32 dt) override {
    const usize n = active_;
    f32* const* target = target_.data();
    const f32* from = from_.data();
    const f32* to = to_.data();
    f32* elapsed = elapsed_.data();
    const f32* duration = duration_.data();
    u32* finished = finished_.data();
    u32 count = 0;
    for (usize i = 0; i < n; ++i) {
      const f32 e = elapsed[i] + dt;
      elapsed[i] = e;
      if (e < 0.0f) continue;  // still in its delay
      const f32 w = ease_at<E>(progress_upto1(e, duration[i]));
      *target[i] = from[i] * (1.0f - w) + to[i] * w;
      if (e >= duration[i]) [[unlikely]]
        finished[count++] = static_cast<u32>(i);
    }
    finished_count_ = count;
  }

  void write(u32 row) override {
    const f32 e = elapsed_[row];
    if (e < 0.0f) return;
    const f32 w = ease_at<E>(progress_upto1(e, duration_[row]));
    *target_[row] = from_[row] * (1.0f - w) + to_[row] * w;
  }
};

}  // namespace keel::tween::detail
