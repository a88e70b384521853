// Saving and restoring a match mid-fight with keel::save (Golden Rules ch. 8).
//
// A save holds the whole MatchState (match.h): the match (seed, ticks, the FSMs' random source,
// the input source's state, result, the event log), every fighter (health, position, facing,
// walking wish, target, FSM instance and animator snapshots, the start tick of its clip) and the
// FSM links between fighters. Loading puts it back directly, without simulating a frame: a
// fresh match is made from the setup (FSMs, roster, fighters, input source kind), then
// Match::restore() sets its state. A damaged file or a save of another setup changes nothing.
//
//   rumble::save_match(match, "mid.ksav");
//   auto loaded = rumble::load_match("mid.ksav", setup);     // Result<unique_ptr<Match>>
//   keel::Status st = rumble::load_into(match, "mid.ksav");  // or into a match not yet over
#pragma once

#include "match.h"

#include "keel/core/error.h"
#include "keel/save/save_file.h"
#include "keel/save/system.h"

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace rumble {

class FighterSave;

// FsmInstance::Snapshot and Animator::Snapshot as saved (bools as bytes, checked on load).
struct FsmStateSave {
  KEEL_SAVE_STRUCT();
  u32 fsm = 0;
  u32 state = 0;
  u32 behavior = 0;
  u32 flags = 0;
  u32 transitions = 0;
};

struct AnimatorSave {
  KEEL_SAVE_STRUCT();
  u32 clip = 0;
  u32 frame = 0;
  u32 blend_left = 0;
  u32 generation = 0;
  keel::u8 reverse = 0;
  keel::u8 repeat = 1;
  keel::u8 holding = 0;
};

// A link a fighter created (FsmInstance links; each link is saved once, at its creator).
class LinkSave : public keel::save::SaveObject {
  KEEL_SAVABLE(LinkSave, 202)
  u32 name = 0;  // hash of the link's name
  keel::u8 flags = 0;
  FighterSave* other = nullptr;
  LinkSave* next = nullptr;
};

class FighterSave : public keel::save::SaveObject {
  KEEL_SAVABLE(FighterSave, 201)
  keel::Status load(keel::save::SaveFile& file) override;  // checks the bytes that are bools
  u32 index = 0;
  s32 health = 0;
  s32 x = 0;
  s32 facing = 1;
  s32 move = 0;
  keel::u8 out_of_health = 0;
  u64 clip_started = 0;
  FsmStateSave brain;
  AnimatorSave animation;
  FighterSave* target = nullptr;
  LinkSave* links = nullptr;
  FighterSave* next = nullptr;
};

class MatchSave : public keel::save::SaveObject {
  KEEL_SAVABLE(MatchSave, 200)
  // Custom data after the template's fields: the input source's state, the log's strings (once
  // each) and the event log.
  keel::Status save(keel::save::SaveFile& file) override;
  keel::Status load(keel::save::SaveFile& file) override;

  struct Event {
    u64 tick = 0;
    keel::u8 kind = 0;
    s32 fighter = -1;
    s32 other = -1;
    u32 a = 0;  // 1-based index into `strings`, 0: empty
    u32 b = 0;
    s32 value = 0;
    s32 value2 = 0;
  };

  u64 seed = 0;
  u64 ticks = 0;
  u64 tick = 0;
  u64 fsm_random = 0;
  u32 fighters = 0;
  s32 winner = -1;
  keel::u8 over = 0;
  FighterSave* first = nullptr;
  std::vector<u64> inputs;
  std::vector<std::string> strings;
  std::vector<Event> events;
};

// The client header's level version of match saves (2: the direct restore).
inline constexpr u32 kMatchSaveLevelVersion = 2;

const keel::save::SaveSystem& match_save_system();

// Hash of the whole MatchState now (fighters, FSMs, clips, links, random sources, input source,
// the event log with its strings).
u64 state_hash(const Match& match);

keel::Status save_match(const Match& match, const std::filesystem::path& path);
// Writes `root` (and the objects it reaches) as a match save; save_match() uses it, tests craft
// hostile saves with it.
keel::Status write_match_save(MatchSave& root, const std::filesystem::path& path);
// Restores the save into `match` (made from the setup the save was made with; a match that is
// over only takes saves of finished matches). On failure `match` is unchanged.
keel::Status load_into(Match& match, const std::filesystem::path& path);
// The same from a save file's bytes (the fuzz target, match_save_fuzz.cpp).
keel::Status load_into_bytes(Match& match, keel::ByteSpan file, keel::save::LoadLimits limits = {});
// A new match from `setup` with the saved state; the setup's seed does not matter (the random
// sources come from the save), its FSMs, roster, fighters and input source kind do.
keel::Result<std::unique_ptr<Match>> load_match(const std::filesystem::path& path,
                                                MatchSetup setup);

}  // namespace rumble
