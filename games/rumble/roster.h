// The roster: animation clips and fighters, read from a command file (keel::text), so a
// designer tunes frame counts, key frames, damage and health without a rebuild.
//
//   Clip("hero_jab", 24) { Damage(6); Key(9, "strike"); Key(15, "link"); }
//   Fighter("Hero", "Player")                  // name, FSM
//   {
//       Health(100); Position(-20); Reach(24); Speed(1);
//       Animation("Attack", "hero_jab");       // FSM alias -> clip (the indirect lookup)
//   }
#pragma once

#include "clip.h"

#include "keel/core/error.h"
#include "keel/text/diagnostics.h"
#include "keel/text/token.h"

#include <deque>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace rumble {

struct FighterSpec {
  std::string name;
  std::string fsm;
  s32 health = 100;
  s32 position = 0;  // x in arena units; the arena runs from -kArenaHalfWidth to +kArenaHalfWidth
  s32 reach = 24;    // strikes and throws connect within this distance
  s32 speed = 1;     // units per tick when walking
  std::vector<std::pair<Hash, const Clip*>> animations;  // alias hash -> clip, sorted by hash
  std::vector<std::pair<std::string, std::string>> animation_names;  // alias, clip (as written)

  const Clip* animation(Hash alias) const;
};

struct Roster {
  std::deque<Clip> clips;  // stable addresses: fighters point at them
  std::vector<FighterSpec> fighters;

  const Clip* find_clip(std::string_view name) const;
  const FighterSpec* find_fighter(std::string_view name) const;
};

// Reads Clip and Fighter statements. Errors (with file:line:col) go to `diagnostics`; returns
// false if there were any. Every clip a fighter names must be defined (earlier or later).
bool read_roster(const keel::text::Token* first, Roster& roster,
                 keel::text::Diagnostics& diagnostics);
keel::Result<Roster> load_roster(const std::filesystem::path& path);

}  // namespace rumble
