// A fight: fighters from the roster, each driven by an FSM, simulated as keel::kernel tasks on a
// fixed 60 Hz step (input -> fsm/behaviours -> animation -> combat). Headless and deterministic:
// the same setup (FSMs, roster, inputs or seed) gives the same MatchEvent records.
//
//   rumble::MatchSetup setup = rumble::MatchSetup::from_data_dir("games/rumble/data");
//   setup.seed = 7;                                             // random controller
//   auto match = rumble::Match::create(std::move(setup));      // Result<unique_ptr<Match>>
//   (*match)->run(3600);                                       // until KO or 60 s
//   rumble::print_log(**match, stdout);                         // log_printer.h
#pragma once

#include "fighter.h"
#include "inputs.h"
#include "match_event.h"
#include "roster.h"

#include "keel/core/clock.h"
#include "keel/core/error.h"
#include "keel/fsm/compiled.h"
#include "keel/fsm/compiler/fsm_type.h"
#include "keel/fsm/environment.h"
#include "keel/fsm/functions.h"
#include "keel/fsm/library.h"
#include "keel/kernel/kernel.h"

#include <deque>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace rumble {

inline constexpr double kTickSeconds = 1.0 / 60.0;
inline constexpr s32 kArenaHalfWidth = 100;
inline constexpr s32 kMinSeparation = 8;  // fighters cannot walk through each other

// Kernel task priorities: the order of one tick.
inline constexpr s32 kInputPriority = 100;
inline constexpr s32 kBrainPriority = 200;
inline constexpr s32 kAnimationPriority = 300;
inline constexpr s32 kCombatPriority = 400;

struct MatchSetup {
  // FSM sources: files, and in-memory texts (name, text) for tests. All are compiled into one
  // library, so a file may name a parent from another.
  std::vector<std::filesystem::path> fsm_files;
  std::vector<std::pair<std::string, std::string>> fsm_sources;
  std::filesystem::path roster_file;
  std::string roster_source;  // used instead of roster_file when not empty
  std::vector<std::string> fighters = {"Hero", "Brute"};  // roster names, in match order
  u64 seed = 1;  // the random controller's seed and the FSMs' IfRandom seed
  // Inputs: null means a RandomController seeded with `seed`.
  std::unique_ptr<InputSource> inputs;

  // character.fsm, player.fsm and roster.txt from `dir`.
  static MatchSetup from_data_dir(const std::filesystem::path& dir);
};

// Everything a match is made of between two ticks, apart from what its setup gives (FSMs,
// roster, which fighters): what a save holds and what Match::restore() puts back. Strings of
// `events` are views; restore() keeps its own copies.
struct FighterState {
  struct Link {     // a link this fighter created (each link appears once, at its creator)
    u32 other = 0;  // fighter index
    keel::Hash name = 0;
    keel::u8 flags = 0;  // kLinkOneWay, kLinkAlways
    friend bool operator==(const Link&, const Link&) = default;
  };
  s32 health = 0;
  s32 x = 0;
  s32 facing = 1;
  s32 move = 0;
  bool out_of_health = false;
  u64 clip_started = 0;
  s32 target = -1;  // fighter index, -1: none
  keel::fsm::FsmInstance::Snapshot brain;
  keel::fsm::Animator::Snapshot animation;
  std::vector<Link> links;
};

struct MatchState {
  u64 seed = 0;
  u64 ticks = 0;       // ticks simulated
  u64 tick = 0;        // the current (last begun) tick
  u64 fsm_random = 0;  // the FSMs' IfRandom source (keel::fsm::RandomSource::state())
  bool over = false;
  std::optional<u32> winner;
  std::vector<u64> inputs;  // InputSource::save_state()
  std::vector<FighterState> fighters;
  std::vector<MatchEvent> events;
};

// The "Character" FSM type: behaviours animate 0x1, physics 0x2, controls 0x4, dead 0x8.
keel::fsm::TypeRegistry character_types();

class Match {
 public:
  static keel::Result<std::unique_ptr<Match>> create(MatchSetup setup);
  ~Match();
  Match(const Match&) = delete;
  Match& operator=(const Match&) = delete;

  // One 60 Hz tick (one kernel frame). Returns false once the fight is over.
  bool step();
  // Ticks until the fight is over or `max_ticks` have run in total; at the limit, time is up and
  // the fighter with more health wins.
  void run(u64 max_ticks);
  // Ticks until `ticks()` reaches `tick` or the fight is over; no time-up at the end.
  void advance_to(u64 tick);

  // Save games: the whole state now, and putting a state back without simulating a frame. A
  // restore either succeeds or changes nothing; it refuses a state of another setup (fighter
  // count, FSMs, states, clips, input script) with a message. Call between ticks.
  MatchState capture() const;
  keel::Status restore(const MatchState& state);
  // Ticks this Match object simulated itself (a restored match starts at 0 again).
  u64 simulated_ticks() const { return simulated_; }

  bool over() const { return over_; }
  // The winner's index; nullopt while fighting or on a draw.
  std::optional<u32> winner() const { return winner_; }
  u64 ticks() const { return ticks_; }  // ticks simulated so far
  u64 seed() const { return seed_; }

  usize fighter_count() const { return fighters_.size(); }
  Fighter& fighter(usize i) { return *fighters_[i]; }
  const Fighter& fighter(usize i) const { return *fighters_[i]; }
  const std::vector<MatchEvent>& events() const { return events_; }
  keel::kernel::Kernel& kernel() { return *kernel_; }
  const keel::fsm::FsmLibrary& library() const { return library_; }

  // ---- used by the tasks and the FSM functions ----
  struct Strike {
    Fighter* attacker;
    Fighter* target;
    const keel::fsm::AnimationClip* clip;
    s32 damage;
  };
  void record(MatchEvent event);                  // stamps the current tick
  void record_at(usize index, MatchEvent event);  // inserted before events()[index]
  std::string_view keep(std::string text);
  std::string_view fsm_string(const Fighter& f, keel::Hash h) const;
  Fighter* nearest_opponent(const Fighter& f);
  void queue_strike(Strike strike) { strikes_.push_back(strike); }
  std::vector<Strike>& strikes() { return strikes_; }
  InputSource& inputs() { return *inputs_; }
  ArenaView arena();
  u64 current_tick() const { return tick_; }
  void begin_tick() { tick_ = ticks_; }
  void end_tick() {
    ++ticks_;
    ++simulated_;
  }
  // Ends the fight (KO or time up) and stops the kernel's tasks.
  void finish(EventKind how, std::optional<u32> winner);
  u32 behavior_bit(std::string_view name) const;

 private:
  class Observer;
  Match();
  keel::Status load(MatchSetup& setup);
  void register_functions();

  u64 seed_ = 1;
  keel::FakeClock clock_;
  std::unique_ptr<keel::kernel::Kernel> kernel_;
  keel::fsm::TypeRegistry types_;
  keel::fsm::FunctionRegistry functions_;
  keel::fsm::FsmLibrary library_;
  std::unique_ptr<keel::fsm::Environment> env_;
  std::unique_ptr<Observer> observer_;
  Roster roster_;
  std::vector<std::unique_ptr<Fighter>> fighters_;
  std::unique_ptr<InputSource> inputs_;
  std::vector<MatchEvent> events_;
  std::deque<std::string> strings_;
  std::vector<Strike> strikes_;
  std::vector<s32> positions_, reach_;
  u64 tick_ = 0;
  u64 ticks_ = 0;
  u64 simulated_ = 0;
  bool over_ = false;
  std::optional<u32> winner_;
};

}  // namespace rumble
