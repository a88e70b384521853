// The four kernel tasks of a match, one fixed 60 Hz step each, in priority order:
//   input      polls the InputSource; attack/throw become input_* FSM events, walking becomes
//              the fighter's move wish
//   brain      per fighter: the behaviour word, then the behaviours it enables (controls: take
//              the walking wish; physics: move and keep apart), then the FSM's per-frame event
//   animation  per fighter with "animate": one clip frame; key frames -> keyframe_<mark>, the
//              last frame -> anim_done
//   combat     resolves the strikes queued by DoDamage (reach, health, event_damage /
//              event_death), then ends the fight when a dead fighter has finished dying
#pragma once

#include "keel/kernel/task.h"

#include <vector>

namespace rumble {

class Match;
struct Press;

class MatchTask : public keel::kernel::Task {
 public:
  MatchTask(Match& match, const char* name, keel::s32 priority)
      : Task(name, priority), match_(match) {}
  void update(const keel::kernel::Frame&) override {}

 protected:
  Match& match_;
};

class InputTask final : public MatchTask {
 public:
  explicit InputTask(Match& match);
  void fixed_update(const keel::kernel::Frame& frame) override;

 private:
  std::vector<Press> presses_;
};

class BrainTask final : public MatchTask {
 public:
  explicit BrainTask(Match& match);
  void fixed_update(const keel::kernel::Frame& frame) override;
};

class AnimationTask final : public MatchTask {
 public:
  explicit AnimationTask(Match& match);
  void fixed_update(const keel::kernel::Frame& frame) override;
};

class CombatTask final : public MatchTask {
 public:
  explicit CombatTask(Match& match);
  void fixed_update(const keel::kernel::Frame& frame) override;
};

}  // namespace rumble
