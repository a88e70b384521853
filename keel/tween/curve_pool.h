// Internal: Bernstein curves of any degree over any Tweenable type (also eased from -> to tweens
// of non-float types), one pool per value type. Rows are stored whole (array of structures):
// these are the less common kinds, and a row's controls are read together anyway.
#pragma once

#include "keel/tween/easing.h"
#include "keel/tween/pool.h"
#include "keel/tween/value.h"

#include <algorithm>
#include <array>
#include <functional>
#include <span>
#include <utility>
#include <vector>

namespace keel::tween::detail {

template <Tweenable T>
class CurvePool final : public Pool {
 public:
  using Pool::Pool;

  u32 insert(T* target, std::span<const T> controls, f32 elapsed, f32 duration, Ease ease,
             const Playback& playback, u32 slot, bool paused) {
    KEEL_ASSERT(target != nullptr, "curve tween without a target");
    KEEL_ASSERT(!controls.empty(), "curve tween without control values");
    Row row;
    row.target = target;
    row.elapsed = elapsed;
    row.duration = duration;
    row.ease = ease;
    row.playback = playback;
    row.count = static_cast<u32>(controls.size());
    if (controls.size() <= row.near.size()) {
      std::copy(controls.begin(), controls.end(), row.near.begin());
    } else {
      row.far.assign(controls.begin(), controls.end());
    }
    rows_.push_back(std::move(row));
    return commit_row(slot, paused);
  }

  void update(f32 dt) override {
    u32 count = 0;
    for (usize i = 0; i < active_; ++i) {
      Row& r = rows_[i];
      r.elapsed += dt;
      if (r.elapsed < 0.0f) continue;
      evaluate(r);
      finished_[count] = static_cast<u32>(i);
      count += r.elapsed >= r.duration ? 1u : 0u;
    }
    finished_count_ = count;
  }

  bool due(u32 row) const override { return rows_[row].elapsed >= rows_[row].duration; }
  PlayEnd end_play(u32 row) override {
    Row& r = rows_[row];
    PlayEnd result;
    if (consume_plays(r.elapsed, r.duration, r.playback, result.overshoot)) {
      const std::span<const T> c = r.controls();
      *r.target = r.playback.reversed ? c.front() : c.back();
      result.finished = true;
      return result;
    }
    evaluate(r);
    return result;
  }
  void write(u32 row) override {
    if (rows_[row].elapsed >= 0.0f) evaluate(rows_[row]);
  }
  void rewind(u32 row) override {
    Row& r = rows_[row];
    r.elapsed = -r.playback.delay;
    r.playback.plays_left = r.playback.loops;
    r.playback.reversed = false;
  }
  f32 elapsed(u32 row) const override { return rows_[row].elapsed; }
  void advance(u32 row, f32 dt) override { rows_[row].elapsed += dt; }
  bool targets(u32 row, const void* begin, const void* end) const override {
    const void* t = rows_[row].target;
    return std::less_equal<>()(begin, t) && std::less<>()(t, end);
  }

 protected:
  void swap_rows(u32 a, u32 b) override { std::swap(rows_[a], rows_[b]); }
  void pop_row() override { rows_.pop_back(); }

 private:
  struct Row {
    T* target = nullptr;
    f32 elapsed = 0.0f;
    f32 duration = 0.0f;
    Ease ease = Ease::kLinear;
    u32 count = 0;
    Playback playback;
    std::array<T, 4> near{};  // up to cubic: no allocation
    std::vector<T> far;       // higher degrees
    std::span<const T> controls() const {
      return count <= near.size() ? std::span<const T>(near.data(), count)
                                  : std::span<const T>(far);
    }
  };

  static void evaluate(Row& r) {
    f32 b = progress_upto1(r.elapsed, r.duration);
    if (r.playback.reversed) b = 1.0f - b;
    *r.target = bernstein(r.controls(), ease(r.ease, b));
  }

  std::vector<Row> rows_;
};

}  // namespace keel::tween::detail
