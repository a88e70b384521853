// Saving and restoring a match mid-fight with keel::save (Golden Rules ch. 8).
//
// What is saved: the match (seed, tick, fighter count) and every fighter's state (health,
// position, facing, walking wish, FSM state, animation frame, target as a pointer to another
// saved fighter). What restores it: the FSM runtime has no API yet to put an FsmInstance back
// into a given state with its timers, links and random source, so load_match() re-creates the
// match from the same setup and re-simulates it deterministically to the saved tick, then checks
// every restored fighter against the save; a save that does not match (data or code changed) is
// refused with a message rather than half restored.
#pragma once

#include "match.h"

#include "keel/core/error.h"
#include "keel/save/save_file.h"
#include "keel/save/system.h"

#include <filesystem>
#include <memory>

namespace rumble {

class FighterSave : public keel::save::SaveObject {
  KEEL_SAVABLE(FighterSave, 201)
  u32 index = 0;
  s32 health = 0;
  s32 x = 0;
  s32 facing = 1;
  s32 move = 0;
  u32 state = 0;  // hash of the FSM state's name
  u32 clip = 0;   // hash of the playing clip's name (0: none)
  u32 frame = 0;
  u8 out_of_health = 0;
  FighterSave* target = nullptr;
  FighterSave* next = nullptr;
};

class MatchSave : public keel::save::SaveObject {
  KEEL_SAVABLE(MatchSave, 200)
  u64 seed = 0;
  u64 ticks = 0;
  u32 fighters = 0;
  FighterSave* first = nullptr;
};

const keel::save::SaveSystem& match_save_system();

// Hash of everything observable about the fight now (fighters and the event log).
u64 state_hash(const Match& match);

keel::Status save_match(const Match& match, const std::filesystem::path& path);
// `setup` must be the one the saved match was created with (same data, inputs and seed).
keel::Result<std::unique_ptr<Match>> load_match(const std::filesystem::path& path,
                                                MatchSetup setup);

}  // namespace rumble
