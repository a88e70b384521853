#include "keel/tween/pool.h"

#include <cmath>
#include <utility>

namespace keel::tween::detail {

bool consume_plays(f32& elapsed, f32 duration, Playback& playback, f32& overshoot) {
  if (playback.plays_left > 0) --playback.plays_left;
  if (playback.plays_left == 0 || !(duration > 0.0f)) {
    overshoot = elapsed - duration > 0.0f ? elapsed - duration : 0.0f;
    playback.plays_left = 0;
    return true;
  }
  elapsed -= duration;
  if (playback.ping_pong) playback.reversed = !playback.reversed;
  // dt longer than a play: skip whole plays at once (bounded even for forever loops).
  while (elapsed >= duration) {
    if (playback.plays_left > 0) {
      --playback.plays_left;
      if (playback.plays_left == 0) {
        overshoot = elapsed - duration;
        return true;
      }
    } else {
      const f32 whole = std::floor(elapsed / duration);
      elapsed -= whole * duration;
      if (playback.ping_pong && std::fmod(whole, 2.0f) != 0.0f) {
        playback.reversed = !playback.reversed;
      }
      if (elapsed >= duration) elapsed = 0.0f;  // rounding at the boundary
      break;
    }
    elapsed -= duration;
    if (playback.ping_pong) playback.reversed = !playback.reversed;
  }
  return false;
}

u32 Pool::commit_row(u32 slot, bool paused) {
  auto row = static_cast<u32>(slot_of_.size());
  slot_of_.push_back(slot);
  TweenSlot& s = slots_->at(slot);
  s.pool = index_;
  s.row = row;
  if (!paused) {
    if (row != active_) {
      swap(row, static_cast<u32>(active_));
      row = static_cast<u32>(active_);
    }
    ++active_;
  }
  size_finished();
  return row;
}

void Pool::swap(u32 a, u32 b) {
  if (a == b) return;
  swap_rows(a, b);
  std::swap(slot_of_[a], slot_of_[b]);
  slots_->at(slot_of_[a]).row = a;
  slots_->at(slot_of_[b]).row = b;
}

void Pool::pause(u32 row) {
  KEEL_ASSERT(row < slot_of_.size(), "row {} out of range", row);
  if (row >= active_) return;
  --active_;
  swap(row, static_cast<u32>(active_));
}

void Pool::resume(u32 row) {
  KEEL_ASSERT(row < slot_of_.size(), "row {} out of range", row);
  if (row < active_) return;
  swap(row, static_cast<u32>(active_));
  ++active_;
}

void Pool::remove(u32 row) {
  KEEL_ASSERT(row < slot_of_.size(), "row {} out of range", row);
  if (row < active_) {
    --active_;
    swap(row, static_cast<u32>(active_));
    row = static_cast<u32>(active_);
  }
  swap(row, static_cast<u32>(slot_of_.size() - 1));
  pop_row();
  slot_of_.pop_back();
}

}  // namespace keel::tween::detail
