#include "log_printer.h"

#include "keel/fsm/opcodes.h"

#include <fmt/format.h>

namespace rumble {

namespace {

std::string_view who(const Match& m, s32 index) {
  if (index < 0 || static_cast<usize>(index) >= m.fighter_count()) return "-";
  return m.fighter(static_cast<usize>(index)).name();
}

std::string animation_flags(u32 flags) {
  std::string out = (flags & keel::fsm::kAnimBlend) != 0 ? "blend" : "snap";
  if ((flags & keel::fsm::kAnimRepeat) == 0) out += ", hold last frame";
  if ((flags & keel::fsm::kAnimReverse) != 0) out += ", reverse";
  if ((flags & keel::fsm::kAnimKeepFrame) != 0) out += ", keepframe";
  return out;
}

bool starts_with(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

}  // namespace

std::string format_event(const Match& m, const MatchEvent& e, const LogOptions& options) {
  const std::string_view f = who(m, e.fighter);
  const std::string_view o = who(m, e.other);
  std::string text;
  switch (e.kind) {
    case EventKind::kInput:
      if (!options.verbose && (e.a == "forward" || e.a == "back")) return {};
      text = fmt::format("{} presses {}", f, e.a);
      break;
    case EventKind::kFsmEvent:
      if (!options.verbose && (starts_with(e.a, "input_") || starts_with(e.a, "keyframe_") ||
                               e.a == "anim_done" || e.a == "event_damage")) {
        return {};
      }
      text = fmt::format("{} handles {}", f, e.a);
      break;
    case EventKind::kState:
      text = e.a.empty() ? fmt::format("{} starts in {}", f, e.b)
                         : fmt::format("{} {} -> {}", f, e.a, e.b);
      break;
    case EventKind::kAnimation:
      text = fmt::format("{} plays {} as {} from frame {} ({})", f, e.b, e.a, e.value,
                         animation_flags(static_cast<u32>(e.value2)));
      break;
    case EventKind::kMissingAnimation:
      text = fmt::format("{} has no clip for animation {}", f, e.a);
      break;
    case EventKind::kKeyFrame:
      text = fmt::format("{} key frame {} ({} frame {})", f, e.a, e.b, e.value);
      break;
    case EventKind::kComboStep: text = fmt::format("{} COMBO {} -> {}", f, e.a, e.b); break;
    case EventKind::kStrike:
      text = fmt::format("{} strikes at {} with {} ({} damage)", f, o, e.a, e.value);
      break;
    case EventKind::kMiss:
      text = fmt::format("{} misses {} with {} (distance {})", f, o, e.a, e.value);
      break;
    case EventKind::kDamage:
      text = fmt::format("{} takes {} damage from {}, health {}", f, e.value, o, e.value2);
      break;
    case EventKind::kDeath: text = fmt::format("{} is out of health", f); break;
    case EventKind::kLink:
      text = e.value != 0 ? fmt::format("{} links '{}' to {}", f, e.a, o)
                          : fmt::format("{} tries to link '{}' to {}: refused", f, e.a, o);
      break;
    case EventKind::kUnlink: text = fmt::format("{} breaks link '{}' with {}", f, e.a, o); break;
    case EventKind::kError: text = fmt::format("{} FSM error: {}", f, e.a); break;
    case EventKind::kKnockOut:
      text = e.fighter >= 0 ? fmt::format("K.O.! {} wins with {} health left", f, e.value2)
                            : std::string("K.O.! Double knock-out: draw");
      break;
    case EventKind::kTimeUp:
      text = e.fighter >= 0 ? fmt::format("TIME UP! {} wins on health ({})", f, e.value2)
                            : std::string("TIME UP! Draw");
      break;
  }
  return fmt::format("{:5} {:6.2f}s  {}", e.tick, static_cast<double>(e.tick) * kTickSeconds, text);
}

std::string format_log(const Match& m, const LogOptions& options) {
  std::string out = fmt::format("Let's get ready to rumble! (seed {})\n", m.seed());
  for (usize i = 0; i < m.fighter_count(); ++i) {
    const Fighter& f = m.fighter(i);
    out += fmt::format("{}{} ({} FSM, health {}, x {})", i == 0 ? "" : " vs ", f.name(),
                       f.brain.fsm_name(), f.spec().health, f.spec().position);
  }
  out += '\n';
  for (const MatchEvent& e : m.events()) {
    std::string line = format_event(m, e, options);
    if (line.empty()) continue;
    out += line;
    out += '\n';
  }
  out +=
      fmt::format("{} ticks ({:.2f}s);", m.ticks(), static_cast<double>(m.ticks()) * kTickSeconds);
  for (usize i = 0; i < m.fighter_count(); ++i) {
    const Fighter& f = m.fighter(i);
    out += fmt::format(" {} health {} in {}", f.name(), f.health, f.brain.state_name());
    out += i + 1 < m.fighter_count() ? "," : "\n";
  }
  if (!m.over()) {
    out += "no result yet\n";
  } else if (m.winner()) {
    out += fmt::format("Winner: {}\n", m.fighter(*m.winner()).name());
  } else {
    out += "Winner: nobody (draw)\n";
  }
  return out;
}

}  // namespace rumble
