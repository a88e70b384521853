// The roster: animation clips and fighters, read from a command file (keel::text), so a
// designer tunes frame counts, key frames, damage and health without a rebuild.
//
//   Clip("hero_jab", 24) { Damage(6); Key(9, "strike"); Key(15, "link"); }   // Blend(4) default
//   Fighter("Hero", "Player")                  // name, FSM
//   {
//       Health(100); Position(-20); Reach(24); Speed(1);
//       Animation("Attack", "hero_jab");       // FSM alias -> clip (the indirect lookup)
//   }
#pragma once

#include "keel/core/error.h"
#include "keel/core/hash.h"
#include "keel/core/types.h"
#include "keel/fsm/animation.h"
#include "keel/text/diagnostics.h"
#include "keel/text/token.h"

#include <filesystem>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace rumble {

using keel::Hash;
using keel::s32;
using keel::u32;
using keel::u64;
using keel::u8;
using keel::usize;

// Frames of blending into a clip without Blend(n) (presentation only).
inline constexpr u32 kDefaultClipBlend = 4;

struct FighterSpec {
  std::string name;
  std::string fsm;
  s32 health = 100;
  s32 position = 0;  // x in arena units; the arena runs from -kArenaHalfWidth to +kArenaHalfWidth
  s32 reach = 24;    // strikes and throws connect within this distance
  s32 speed = 1;     // units per tick when walking
  keel::fsm::AliasTable aliases;  // the FSM's animation aliases -> this fighter's clips
  std::vector<std::pair<std::string, std::string>> animation_names;  // alias, clip (as written)
};

struct Roster {
  // Frames, key frames (marks) and blend of every clip: what each fighter's fsm::Animator plays.
  keel::fsm::AnimationLibrary clips;
  std::unordered_map<Hash, s32> damage;  // clip name hash -> what a strike with it does
  std::vector<FighterSpec> fighters;

  const keel::fsm::AnimationClip* find_clip(std::string_view name) const {
    return clips.find(name);
  }
  s32 damage_of(const keel::fsm::AnimationClip& clip) const;
  const FighterSpec* find_fighter(std::string_view name) const;
};

// Reads Clip and Fighter statements. Errors (with file:line:col) go to `diagnostics`; returns
// false if there were any. Every clip a fighter names must be defined (earlier or later).
bool read_roster(const keel::text::Token* first, Roster& roster,
                 keel::text::Diagnostics& diagnostics);
keel::Result<Roster> load_roster(const std::filesystem::path& path);

}  // namespace rumble
