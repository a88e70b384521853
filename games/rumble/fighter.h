// One fighter: the character logic (health, position, facing, target), its animation player and
// the FSM that drives it. The fighter is the FSM's object and its animation target: SetAnimation
// looks the alias up in the fighter's own table (Golden Rules ch. 7, indirect animation lookups).
#pragma once

#include "clip.h"
#include "roster.h"

#include "keel/fsm/environment.h"
#include "keel/fsm/instance.h"

namespace rumble {

class Match;

class Fighter final : public keel::fsm::AnimationTarget {
 public:
  Fighter(Match& match, const FighterSpec& spec, u32 index);

  void play(keel::fsm::FsmInstance& instance, const keel::fsm::AnimationRequest& request) override;

  const FighterSpec& spec() const { return *spec_; }
  const std::string& name() const { return spec_->name; }
  u32 index() const { return index_; }
  Match& match() const { return *match_; }

  keel::fsm::FsmInstance brain;
  ClipPlayer animation;
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
};

}  // namespace rumble
