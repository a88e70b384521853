// One fighter: the character logic (health, position, facing, target), its animation (the
// engine's fsm::Animator) and the FSM that drives it. The fighter is the FSM's object and its
// animation target: SetAnimation looks the alias up in the fighter's own table (Golden Rules
// ch. 7, indirect animation lookups), records it and hands it to the Animator.
#pragma once

#include "roster.h"

#include "keel/fsm/animation.h"
#include "keel/fsm/environment.h"
#include "keel/fsm/instance.h"

namespace rumble {

class Match;

class Fighter final : public keel::fsm::AnimationTarget {
 public:
  Fighter(Match& match, const FighterSpec& spec, const keel::fsm::AnimationLibrary& clips,
          u32 index);

  void play(keel::fsm::FsmInstance& instance, const keel::fsm::AnimationRequest& request) override;

  const FighterSpec& spec() const { return *spec_; }
  const std::string& name() const { return spec_->name; }
  u32 index() const { return index_; }
  Match& match() const { return *match_; }
  // The tick the current clip started on: it shows its first frame for that whole tick and
  // moves from the next one, whichever task started it.
  u64 clip_started() const { return clip_started_; }
  void set_clip_started(u64 tick) { clip_started_ = tick; }  // restoring a save

  keel::fsm::FsmInstance brain;
  keel::fsm::Animator animation;
  s32 health = 0;
  s32 x = 0;
  s32 facing = 1;  // +1 faces right, -1 left
  s32 move = 0;    // walking wish of this tick from the controls: -1, 0, +1 (facing)
  Fighter* target = nullptr;
  bool out_of_health = false;  // health reached 0 (event_death has been sent)

 private:
  Match* match_;
  const FighterSpec* spec_;
  u32 index_;
  u64 clip_started_ = 0;
};

}  // namespace rumble
