// Internal: target-less timed rows: waits inside sequences and delayed calls (TweenSystem::after).
#pragma once

#include "keel/tween/pool.h"

#include <utility>
#include <vector>

namespace keel::tween::detail {

class TimerPool final : public Pool {
 public:
  using Pool::Pool;

  u32 insert(f32 duration, const Playback& playback, u32 slot, bool paused);
  void update(f32 dt) override;
  bool due(u32 row) const override { return rows_[row].elapsed >= rows_[row].duration; }
  PlayEnd end_play(u32 row) override;
  void write(u32 /*row*/) override {}
  void rewind(u32 row) override;
  f32 elapsed(u32 row) const override { return rows_[row].elapsed; }
  void advance(u32 row, f32 dt) override { rows_[row].elapsed += dt; }
  bool targets(u32, const void*, const void*) const override { return false; }

 protected:
  void swap_rows(u32 a, u32 b) override { std::swap(rows_[a], rows_[b]); }
  void pop_row() override { rows_.pop_back(); }

 private:
  struct Row {
    f32 elapsed = 0.0f;
    f32 duration = 0.0f;
    Playback playback;
  };
  std::vector<Row> rows_;
};

}  // namespace keel::tween::detail
