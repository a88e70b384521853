#include "clip.h"

namespace rumble {

u32 keep_frame(u32 from_frame, u32 from_frames, u32 to_frames) {
  if (from_frames == 0 || to_frames == 0) return 0;
  const u64 f = static_cast<u64>(from_frame) * to_frames / from_frames;  // truncates
  return static_cast<u32>(f < to_frames ? f : to_frames - 1);
}

void ClipPlayer::play(const Clip& clip, u8 flags, u64 tick) {
  const bool reverse = (flags & keel::fsm::kAnimReverse) != 0;
  u32 start = reverse ? clip.frames - 1 : 0;
  if ((flags & keel::fsm::kAnimKeepFrame) != 0 && clip_ != nullptr) {
    start = keep_frame(frame_, clip_->frames, clip.frames);
  }
  clip_ = &clip;
  frame_ = start;
  flags_ = flags;
  started_ = tick;
  holding_ = false;
  blend_left_ = (flags & keel::fsm::kAnimBlend) != 0 ? clip.blend : 0;
  ++generation_;
}

ClipPlayer::Step ClipPlayer::step(u64 tick) {
  if (clip_ == nullptr || tick == started_) return {frame_, false, false};
  if (blend_left_ > 0) --blend_left_;
  if (holding_) return {frame_, false, false};
  const bool reverse = (flags_ & keel::fsm::kAnimReverse) != 0;
  const bool repeat = (flags_ & keel::fsm::kAnimRepeat) != 0;
  const u32 last = reverse ? 0 : clip_->frames - 1;
  if (frame_ == last) {
    // Past the end: loop, or hold the last frame (done was reported when it was reached).
    if (!repeat) {
      holding_ = true;
      return {frame_, false, false};
    }
    frame_ = reverse ? clip_->frames - 1 : 0;
  } else {
    frame_ = reverse ? frame_ - 1 : frame_ + 1;
  }
  return {frame_, true, frame_ == last};
}

}  // namespace rumble
