#include "keel/tween/detail/timer_pool.h"

namespace keel::tween::detail {

u32 TimerPool::insert(f32 duration, const Playback& playback, u32 slot, bool paused) {
  rows_.push_back(Row{-playback.delay, duration, playback});
  return commit_row(slot, paused);
}

void TimerPool::update(f32 dt) {
  u32 count = 0;
  for (usize i = 0; i < active_; ++i) {
    Row& r = rows_[i];
    r.elapsed += dt;
    finished_[count] = static_cast<u32>(i);
    count += r.elapsed >= r.duration ? 1u : 0u;
  }
  finished_count_ = count;
}

PlayEnd TimerPool::end_play(u32 row) {
  PlayEnd result;
  Row& r = rows_[row];
  result.finished = consume_plays(r.elapsed, r.duration, r.playback, result.overshoot);
  return result;
}

void TimerPool::rewind(u32 row) {
  Row& r = rows_[row];
  r.elapsed = -r.playback.delay;
  r.playback.plays_left = r.playback.loops;
  r.playback.reversed = false;
}

}  // namespace keel::tween::detail
