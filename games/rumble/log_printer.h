// The presentation of a match as text: one readable line per thing worth reading (state
// changes, animations, key frames, strikes, damage, combo steps, throws, death, the winner).
// It only reads Match::events(); a graphical front end would read the same records.
#pragma once

#include "match.h"

#include <string>

namespace rumble {

struct LogOptions {
  // Also walking presses and every handled FSM event (input_*, keyframe_*, anim_done).
  bool verbose = false;
};

// The header (who fights whom), every event line, and the result.
std::string format_log(const Match& match, const LogOptions& options = {});
// One event's line without the trailing newline; empty when the options hide it.
std::string format_event(const Match& match, const MatchEvent& event, const LogOptions& options);

}  // namespace rumble
