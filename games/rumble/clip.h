// Animation clips and the player that runs one clip on one character (the "animate" behaviour of
// Golden Rules ch. 7). A clip is a number of frames, some of them marked ("strike", "link"); the
// player steps one frame per simulation tick and reports the marks it reaches and the end of the
// clip, which the game turns into FSM events (keyframe_<mark>, anim_done). The player knows
// nothing about what a mark means.
#pragma once

#include "keel/core/hash.h"
#include "keel/core/types.h"
#include "keel/fsm/environment.h"

#include <string>
#include <string_view>
#include <vector>

namespace rumble {

using keel::Hash;
using keel::s32;
using keel::u32;
using keel::u64;
using keel::u8;
using keel::usize;

struct KeyFrame {
  u32 frame = 0;
  std::string mark;  // "strike" -> the FSM receives "keyframe_strike"
  Hash event = 0;    // string_hash("keyframe_" + mark)
};

struct Clip {
  std::string name;
  u32 frames = 1;  // frames 0 .. frames-1, one per 60 Hz tick
  s32 damage = 0;  // what a strike of this clip does (read by DoDamage, not by the player)
  u32 blend = 4;   // frames of blending when started with blending on
  std::vector<KeyFrame> keys;  // sorted by frame

  // The marks on `frame`, in declaration order.
  template <typename F>
  void for_each_key(u32 frame, F&& f) const {
    for (const KeyFrame& k : keys) {
      if (k.frame == frame) f(k);
    }
  }
};

// The frame a clip of `to_frames` starts at when `keepframe` carries over frame `from_frame` of a
// clip of `from_frames`: the same proportion, truncated (25 of 100 -> 12 of 50).
u32 keep_frame(u32 from_frame, u32 from_frames, u32 to_frames);

// One character's current animation.
class ClipPlayer {
 public:
  // What one step reached.
  struct Step {
    u32 frame = 0;
    bool moved = false;  // false while holding the last frame of a non-repeating clip
    bool done = false;   // the last frame (frame 0 when reversed) was reached this step
  };

  // Starts `clip` with the effective SetAnimation flags (fsm::kAnimBlend, kAnimRepeat,
  // kAnimReverse, kAnimKeepFrame). Keepframe carries the current clip's proportional position;
  // otherwise the clip starts at its first frame (the last one when reversed). A clip started
  // on `tick` shows its start frame for that whole tick and moves from the next one, whichever
  // task started it.
  void play(const Clip& clip, u8 flags, u64 tick);
  // Advances one frame on `tick` (not on the tick the clip started, nor while holding).
  Step step(u64 tick);

  const Clip* clip() const { return clip_; }
  u32 frame() const { return frame_; }
  u8 flags() const { return flags_; }
  u32 blend_left() const { return blend_left_; }
  // Bumped by every play(): lets the caller notice that an event it sent started a new clip.
  u64 generation() const { return generation_; }

 private:
  const Clip* clip_ = nullptr;
  u32 frame_ = 0;
  u8 flags_ = 0;
  u64 started_ = 0;
  bool holding_ = false;
  u32 blend_left_ = 0;
  u64 generation_ = 0;
};

}  // namespace rumble
