// The animation behaviour of chapter 7, as far as the FSM sees it: SetAnimation names a generic
// alias, each character's AliasTable turns it into one of the game's clips, and the Animator
// plays the clip, sending the FSM "keyframe_<mark>" when it passes a marked frame and
// "anim_done" when it reaches the last frame.
//
//   fsm::AnimationLibrary clips;
//   clips.add({.name = "orc_attack", .frame_count = 30, .marks = {{12, "strike"}, {20, "link"}}});
//   fsm::AliasTable orc;  orc.set("Attack", "orc_attack");     // one table per kind of character
//   fsm::Animator animator(clips, orc);
//   brain.set_animation_target(&animator);                     // SetAnimation plays through it
//   each frame, when behavior() has "animate":  animator.update(brain);
//
// A game that records or reacts to what the animation sends (a log, a combo counter) passes an
// AnimationListener to update(): it sees every event before and after the FSM handles it.
#pragma once

#include "keel/core/error.h"
#include "keel/core/hash.h"
#include "keel/core/types.h"
#include "keel/fsm/environment.h"

#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace keel::fsm {

struct AnimationMark {
  u32 frame = 0;
  std::string name;  // "strike" sends "keyframe_strike"
};

struct AnimationClip {
  std::string name{};
  u32 frame_count = 1;
  std::vector<AnimationMark> marks{};  // several on one frame are sent in this order
  // Frames a blended start into this clip takes; unset: the Animator's set_blend_frames().
  std::optional<u32> blend_frames{};
};

// The game's clips, by name (case-sensitive).
class AnimationLibrary {
 public:
  AnimationLibrary() = default;
  // Animators point into the library: it moves (the clips stay where they are) but never copies.
  AnimationLibrary(const AnimationLibrary&) = delete;
  AnimationLibrary& operator=(const AnimationLibrary&) = delete;
  AnimationLibrary(AnimationLibrary&&) noexcept = default;
  AnimationLibrary& operator=(AnimationLibrary&&) noexcept = default;
  ~AnimationLibrary() = default;

  // Fails when the name is taken, the clip has no frames, or a mark lies past the last frame.
  Status add(AnimationClip clip);
  const AnimationClip* find(Hash name) const;
  const AnimationClip* find(std::string_view name) const { return find(string_hash(name)); }

 private:
  friend class Animator;
  struct Stored {
    AnimationClip clip;
    std::vector<std::pair<u32, Hash>> events;  // (frame, hash of "keyframe_<mark>")
  };
  const Stored* find_stored(Hash name) const;
  std::deque<Stored> clips_;
  std::unordered_map<Hash, const Stored*> by_name_;
};

// One kind of character's mapping from the FSM's aliases ("Attack") to clips ("orc_attack").
class AliasTable {
 public:
  void set(std::string_view alias, std::string_view clip);
  // The clip's name hash, or nullopt when the alias is not mapped.
  std::optional<Hash> find(Hash alias) const;

 private:
  std::unordered_map<Hash, Hash> map_;
};

// One event Animator::update() sends: a mark's "keyframe_<mark>" or "anim_done" (mark null).
struct AnimationEvent {
  Hash event = 0;
  const AnimationMark* mark = nullptr;
  const AnimationClip* clip = nullptr;
  u32 frame = 0;
};

// Sees the events of Animator::update() around their delivery; both hooks default to nothing.
class AnimationListener {
 public:
  virtual void before_event(FsmInstance& instance, const AnimationEvent& event);
  virtual void after_event(FsmInstance& instance, const AnimationEvent& event, EventResult result);

 protected:
  ~AnimationListener() = default;
};

class Animator : public AnimationTarget {
 public:
  static constexpr u32 kDefaultBlendFrames = 6;

  Animator(const AnimationLibrary& clips, const AliasTable& aliases)
      : clips_(&clips), aliases_(&aliases) {}

  // SetAnimation: looks the alias up (a missing alias or clip is reported through the
  // instance's error handler and changes nothing), starts at frame 0 (the last frame when
  // reversed) or, with keepframe, at the same proportion of the new clip.
  void play(FsmInstance& instance, const AnimationRequest& request) override;
  // Advances one frame and sends the FSM the events of the frame reached: the marks of that
  // frame in order, then anim_done when it is the last frame (frame 0 when reversed). A
  // non-repeating clip then holds its last frame (anim_done is sent once); a repeating one
  // starts over. A handler that starts another clip ends the update (the rest is not sent).
  void update(FsmInstance& instance, AnimationListener* listener = nullptr);

  const AnimationClip* clip() const { return current_ != nullptr ? &current_->clip : nullptr; }
  u32 frame() const { return frame_; }
  bool reversed() const { return reverse_; }
  bool repeating() const { return repeat_; }
  bool holding() const { return holding_; }  // a non-repeating clip reached its end
  // Frames left of the blend into the current clip (0: it snapped in, or nothing played
  // before it). Counts down with every update(), holding included.
  u32 blend_frames_left() const { return blend_left_; }
  // The blend of clips without their own blend_frames.
  void set_blend_frames(u32 frames) { blend_frames_ = frames; }
  // Changes whenever play() starts a clip (a caller can tell that an event it sent did).
  u32 generation() const { return generation_; }

  // Save games and replays: the playing clip (name hash, 0 for none) and where it is.
  struct Snapshot {
    Hash clip = 0;
    u32 frame = 0;
    u32 blend_left = 0;
    u32 generation = 0;
    bool reverse = false;
    bool repeat = true;
    bool holding = false;
    friend bool operator==(const Snapshot&, const Snapshot&) = default;
  };
  Snapshot snapshot() const;
  // Back to `snapshot` without sending any event. Fails, changing nothing, for a clip the
  // library does not have or a frame past its end.
  Status restore(const Snapshot& snapshot);

 private:
  const AnimationLibrary* clips_;
  const AliasTable* aliases_;
  const AnimationLibrary::Stored* current_ = nullptr;
  u32 frame_ = 0;
  u32 blend_frames_ = kDefaultBlendFrames;
  u32 blend_left_ = 0;
  u32 generation_ = 0;  // changes whenever play() starts a clip
  bool reverse_ = false;
  bool repeat_ = true;
  bool holding_ = false;
};

}  // namespace keel::fsm
