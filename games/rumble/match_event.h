// What the simulation reports: one record per thing that happened, in order. The simulation
// only records; the presentation (log_printer.h today, graphics later) decides what to show.
#pragma once

#include "keel/core/types.h"

#include <string_view>

namespace rumble {

enum class EventKind : keel::u8 {
  kInput,      // fighter pressed button `a`
  kFsmEvent,   // fighter's FSM handled event `a` (not the per-frame run event)
  kState,      // fighter went from state `a` (empty at start) to `b`
  kAnimation,  // fighter plays clip `b` for alias `a` from frame `value`; value2 = anim flags
  kMissingAnimation,  // fighter has no clip for alias `a`
  kKeyFrame,          // fighter's clip `b` reached mark `a` on frame `value`
  kComboStep,         // fighter's link key frame took it from `a` to `b`
  kStrike,            // fighter strikes `other` with clip `a` for `value`
  kMiss,      // fighter's strike with clip `a` found `other` out of reach (distance `value`)
  kDamage,    // fighter takes `value` damage from `other`, health left `value2`
  kDeath,     // fighter's health ran out (the FSM decides what that means)
  kLink,      // fighter linked to `other` under `a`; value = 1 formed, 0 refused
  kUnlink,    // fighter broke link `a` with `other`
  kError,     // fighter's FSM reported `a` (an Error command or a runtime problem)
  kKnockOut,  // the fight is over: fighter won (other = -1 and value = 1: a draw)
  kTimeUp,    // the clock ran out: fighter won on health (fighter = -1: a draw)
};

struct MatchEvent {
  keel::u64 tick = 0;
  EventKind kind = EventKind::kInput;
  keel::s32 fighter = -1;  // index in the match
  keel::s32 other = -1;
  std::string_view a{};  // strings live as long as the Match
  std::string_view b{};
  keel::s32 value = 0;
  keel::s32 value2 = 0;
};

}  // namespace rumble
