#include "tasks.h"

#include "match.h"

#include <algorithm>
#include <cstdlib>

namespace rumble {

namespace fsm = keel::fsm;

namespace {
const keel::Hash kInputAttack = keel::string_hash("input_attack");
const keel::Hash kInputThrow = keel::string_hash("input_throw");
const keel::Hash kKeyframeLink = keel::string_hash("keyframe_link");
const keel::Hash kEventDamage = keel::string_hash("event_damage");
const keel::Hash kEventDeath = keel::string_hash("event_death");
}  // namespace

// ---- input ----

InputTask::InputTask(Match& match) : MatchTask(match, "rumble.input", kInputPriority) {}

void InputTask::fixed_update(const keel::kernel::Frame&) {
  match_.begin_tick();
  for (usize i = 0; i < match_.fighter_count(); ++i) match_.fighter(i).move = 0;
  presses_.clear();
  match_.inputs().poll(match_.current_tick(), match_.arena(), presses_);
  for (const Press& p : presses_) {
    if (p.fighter >= match_.fighter_count()) continue;
    Fighter& f = match_.fighter(p.fighter);
    match_.record({.kind = EventKind::kInput,
                   .fighter = static_cast<s32>(p.fighter),
                   .a = to_string(p.button)});
    switch (p.button) {
      case Button::kAttack: f.brain.event(kInputAttack); break;
      case Button::kThrow: f.brain.event(kInputThrow); break;
      case Button::kForward: f.move = 1; break;
      case Button::kBack: f.move = -1; break;
    }
  }
}

// ---- fsm and behaviours ----

BrainTask::BrainTask(Match& match) : MatchTask(match, "rumble.brain", kBrainPriority) {}

void BrainTask::fixed_update(const keel::kernel::Frame&) {
  const u32 controls = match_.behavior_bit("controls");
  const u32 physics = match_.behavior_bit("physics");
  for (usize i = 0; i < match_.fighter_count(); ++i) {
    Fighter& f = match_.fighter(i);
    const u32 behavior = f.brain.behavior();
    s32 velocity = 0;
    if ((behavior & controls) != 0) {
      // Under control a fighter squares up to the nearest opponent; forward walks toward it.
      if (const Fighter* o = match_.nearest_opponent(f); o != nullptr && o->x != f.x) {
        f.facing = o->x > f.x ? 1 : -1;
      }
      velocity = f.move * f.facing * f.spec().speed;
    }
    if ((behavior & physics) != 0 && velocity != 0) {
      s32 x = std::clamp(f.x + velocity, -kArenaHalfWidth, kArenaHalfWidth);
      for (usize j = 0; j < match_.fighter_count(); ++j) {
        const Fighter& o = match_.fighter(j);
        if (j == i) continue;
        // Walking may not take two fighters through each other or closer than kMinSeparation.
        const s32 before = std::abs(f.x - o.x);
        const s32 after = std::abs(x - o.x);
        const bool crosses = (x - o.x < 0) != (f.x - o.x < 0) && x != o.x && f.x != o.x;
        if (crosses || (after < kMinSeparation && after < before)) x = f.x;
      }
      f.x = x;
    }
    f.brain.run();
  }
}

// ---- animation ----

AnimationTask::AnimationTask(Match& match)
    : MatchTask(match, "rumble.animation", kAnimationPriority) {}

namespace {

// Logs the key frames the Animator sends; a link frame that changed the state is a combo step,
// which reads best before the transition it caused.
class KeyFrameLog final : public fsm::AnimationListener {
 public:
  KeyFrameLog(Match& match, usize fighter) : match_(match), fighter_(fighter) {}

  void before_event(fsm::FsmInstance& brain, const fsm::AnimationEvent& e) override {
    if (e.mark == nullptr) return;  // anim_done is not logged
    match_.record({.kind = EventKind::kKeyFrame,
                   .fighter = static_cast<s32>(fighter_),
                   .a = e.mark->name,
                   .b = e.clip->name,
                   .value = static_cast<s32>(e.frame)});
    from_ = brain.state_name();
    before_ = match_.events().size();
  }
  void after_event(fsm::FsmInstance& brain, const fsm::AnimationEvent& e,
                   fsm::EventResult result) override {
    if (e.event != kKeyframeLink || result != fsm::EventResult::kChangedState) return;
    match_.record_at(before_, {.kind = EventKind::kComboStep,
                               .fighter = static_cast<s32>(fighter_),
                               .a = from_,
                               .b = brain.state_name()});
  }

 private:
  Match& match_;
  usize fighter_;
  std::string_view from_;
  usize before_ = 0;
};

}  // namespace

void AnimationTask::fixed_update(const keel::kernel::Frame&) {
  const u32 animate = match_.behavior_bit("animate");
  for (usize i = 0; i < match_.fighter_count(); ++i) {
    Fighter& f = match_.fighter(i);
    if ((f.brain.behavior() & animate) == 0) continue;
    // A clip started this tick shows its first frame until the next one.
    if (f.animation.clip() == nullptr || f.clip_started() == match_.current_tick()) continue;
    KeyFrameLog log(match_, i);
    f.animation.update(f.brain, &log);
  }
}

// ---- combat ----

CombatTask::CombatTask(Match& match) : MatchTask(match, "rumble.combat", kCombatPriority) {}

void CombatTask::fixed_update(const keel::kernel::Frame&) {
  std::vector<Match::Strike>& strikes = match_.strikes();
  // Strikes may queue strikes (a reaction calling DoDamage): index, not iterators.
  for (usize s = 0; s < strikes.size(); ++s) {
    const Match::Strike strike = strikes[s];
    Fighter& a = *strike.attacker;
    Fighter& t = *strike.target;
    const s32 distance = a.x > t.x ? a.x - t.x : t.x - a.x;
    if (distance > a.spec().reach) {
      match_.record({.kind = EventKind::kMiss,
                     .fighter = static_cast<s32>(a.index()),
                     .other = static_cast<s32>(t.index()),
                     .a = strike.clip->name,
                     .value = distance});
      continue;
    }
    t.health = std::max(0, t.health - strike.damage);
    match_.record({.kind = EventKind::kDamage,
                   .fighter = static_cast<s32>(t.index()),
                   .other = static_cast<s32>(a.index()),
                   .value = strike.damage,
                   .value2 = t.health});
    if (t.health > 0) {
      t.brain.event(kEventDamage);
      continue;
    }
    // Out of health: every further hit repeats event_death, so an FSM that ignored it once
    // (a state without a handler) still dies when it next can.
    if (!t.out_of_health) {
      t.out_of_health = true;
      match_.record({.kind = EventKind::kDeath, .fighter = static_cast<s32>(t.index())});
    }
    t.brain.event(kEventDeath);
  }
  strikes.clear();

  // Whether a fighter is dead is the FSM's business: "dead" without "animate" means the dying
  // is over (the book's Dead state). The fight ends when at most one fighter is left.
  const u32 dead = match_.behavior_bit("dead");
  const u32 animate = match_.behavior_bit("animate");
  usize finished = 0;
  usize dying = 0;
  std::optional<u32> survivor;
  for (usize i = 0; i < match_.fighter_count(); ++i) {
    const u32 b = match_.fighter(i).brain.behavior();
    if ((b & dead) != 0) {
      ++dying;
      if ((b & animate) == 0) ++finished;
    } else {
      survivor = static_cast<u32>(i);
    }
  }
  const usize alive = match_.fighter_count() - dying;
  if (finished > 0 && alive <= 1 && finished == dying) {
    match_.finish(EventKind::kKnockOut, alive == 1 ? survivor : std::nullopt);
  }
  match_.end_tick();
}

}  // namespace rumble
