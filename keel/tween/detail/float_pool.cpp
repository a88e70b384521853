#include "keel/tween/detail/float_pool.h"

#include <algorithm>
#include <functional>
#include <utility>

namespace keel::tween::detail {

u32 FloatPoolBase::insert(const FloatRow& row, u32 slot, bool paused) {
  KEEL_ASSERT(row.target != nullptr, "float tween without a target");
  target_.push_back(row.target);
  from_.push_back(row.from);
  to_.push_back(row.to);
  elapsed_.push_back(row.elapsed);
  duration_.push_back(row.duration);
  playback_.push_back(row.playback);
  return commit_row(slot, paused);
}

void FloatPoolBase::reserve(usize n) {
  reserve_base(n);
  target_.reserve(n);
  from_.reserve(n);
  to_.reserve(n);
  elapsed_.reserve(n);
  duration_.reserve(n);
  playback_.reserve(n);
}

FloatRow FloatPoolBase::read(u32 row) const {
  return FloatRow{target_[row],  from_[row],     to_[row],
                  elapsed_[row], duration_[row], playback_[row]};
}

void FloatPoolBase::swap_rows(u32 a, u32 b) {
  std::swap(target_[a], target_[b]);
  std::swap(from_[a], from_[b]);
  std::swap(to_[a], to_[b]);
  std::swap(elapsed_[a], elapsed_[b]);
  std::swap(duration_[a], duration_[b]);
  std::swap(playback_[a], playback_[b]);
}

void FloatPoolBase::pop_row() {
  target_.pop_back();
  from_.pop_back();
  to_.pop_back();
  elapsed_.pop_back();
  duration_.pop_back();
  playback_.pop_back();
}

bool FloatPoolBase::targets(u32 row, const void* begin, const void* end) const {
  const void* t = target_[row];
  return std::less_equal<>()(begin, t) && std::less<>()(t, end);
}

u32 FloatPoolBase::move_to_mirror(u32 row) {
  if (mirror_ == nullptr || mirror_ == this) return row;
  // Ping-pong rows shuttle between the two pools for ever: once each has room for both pools'
  // rows, the moves never allocate again.
  const usize both = size() + mirror_->size();
  if (mirror_->target_.capacity() < both) mirror_->reserve(std::max(both, 2 * mirror_->size()));
  if (target_.capacity() < both) reserve(std::max(both, 2 * size()));
  const FloatRow data = read(row);
  const u32 slot = slot_of(row);
  const bool paused = row >= active_;
  remove(row);
  return mirror_->insert(data, slot, paused);
}

PlayEnd FloatPoolBase::end_play(u32 row) {
  PlayEnd result;
  Playback& pb = playback_[row];
  const bool was_reversed = pb.reversed;
  if (consume_plays(elapsed_[row], duration_[row], pb, result.overshoot)) {
    // Exactly where the last play ends (it ran backwards if the direction flipped since).
    *target_[row] = pb.reversed != was_reversed ? from_[row] : to_[row];
    result.finished = true;
    return result;
  }
  if (pb.reversed != was_reversed) {
    // Playing backwards in time = the other way round on the mirrored curve.
    std::swap(from_[row], to_[row]);
    const u32 moved = move_to_mirror(row);
    (mirror_ != nullptr ? static_cast<Pool*>(mirror_) : this)->write(moved);
    return result;
  }
  write(row);
  return result;
}

void FloatPoolBase::rewind(u32 row) {
  Playback& pb = playback_[row];
  elapsed_[row] = -pb.delay;
  pb.plays_left = pb.loops;
  if (pb.reversed) {
    pb.reversed = false;
    std::swap(from_[row], to_[row]);
    move_to_mirror(row);
  }
}

}  // namespace keel::tween::detail
