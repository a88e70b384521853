// Voidfarer the program: settings, the window (or a headless run), input, the fixed 60 Hz loop,
// pause, quick-save/quick-load, game over and the high-score table, replays, and the summary.
// main.cpp calls run_app(); the pieces below are what the loop is made of.
#pragma once

#include "sim.h"

#include "keel/core/error.h"
#include "keel/core/types.h"
#include "keel/platform/audio.h"
#include "keel/platform/input.h"
#include "keel/platform/run_options.h"
#include "keel/serial/high_score_table.h"
#include "keel/settings/settings.h"
#include "keel/settings/standard.h"

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace keel::voidfarer {

// Everything the settings files and the command line set (voidfarer.cfg).
struct GameSettings {
  settings::StandardSettings standard;  // width, height, fullscreen, vsync, volume, ...
  platform::AudioSettings audio;        // music_volume, effects_volume
  Difficulty difficulty = Difficulty::kNormal;
  bool autopilot = false;            // the game flies itself (always so headless without a replay)
  std::string pilot = "PILOT";       // the name entered in the high-score table
  std::string language = "english";  // the HUD's words: a language of the pack's "hud_text"
};

// The program's own options (not settings): run options plus the game's.
struct AppOptions {
  platform::RunOptions run;
  std::filesystem::path data;                         // --data PACK.kpk
  std::vector<std::filesystem::path> settings_files;  // --settings FILE (repeatable)
  std::filesystem::path user_dir;                     // --user-dir DIR
  std::filesystem::path settings_out;                 // --settings-out FILE
  std::filesystem::path record;                       // --record FILE
  std::filesystem::path replay;                       // --replay FILE
  std::filesystem::path save;                         // --save FILE (the quick-save file)
  std::optional<u64> save_at;                         // --save-at K (after the K-th step)
  std::filesystem::path load;                         // --load FILE (before the first step)
  std::filesystem::path audio_out;                    // --audio-out FILE.wav
  std::string keys;                                   // --keys F:KEY,... (headless)
  u64 seed = 1;                                       // --seed S
  u64 progress_every = 300;                           // --progress N (0: none)
  bool check = false;       // --check: exit 1 unless the waves reached the third step
  bool trace_hash = false;  // --trace-hash: the hash's three parts after every step
  bool no_view = false;     // --no-view: headless simulation only (no window, no drawing)
  bool lockstep = false;    // --lockstep: one simulation step per drawn frame (as headless runs)

  // Files under the user folder (high scores, quick-save, settings written on exit).
  std::filesystem::path high_scores() const { return user_dir / "highscores.dat"; }
  std::filesystem::path quick_save() const {
    return save.empty() ? user_dir / "quicksave.sav" : save;
  }
  std::filesystem::path user_settings() const {
    return settings_out.empty() ? user_dir / "settings.cfg" : settings_out;
  }
};

// $XDG_DATA_HOME/voidfarer, else $HOME/.local/share/voidfarer, else ./voidfarer-user.
std::filesystem::path default_user_dir();

// Registers the game's settings (standard, audio, difficulty, autopilot, pilot, language) on
// `registry`.
Status add_game_settings(settings::Settings& registry, GameSettings& values);

// Declares the game's input actions with their default bindings (thrust, reverse, left, right,
// fire, pause, quicksave, quickload, overlay, quit).
void add_game_actions(platform::Input& input);

// The player's controls from the input actions this frame.
Controls controls_from(const platform::Input& input);

// Parses the arguments settings left over (run options first, then the game's); errors name the
// argument. Validates combinations (--replay with --record or --load, --save-at without a run).
Result<AppOptions> parse_app_options(std::span<const std::string> args);

// Game over: enters `score` (clamped to u32) under `name` into the table at `path` (created with
// the defaults when missing) and saves it atomically if it made the table. A table that cannot be
// read is an error and is never overwritten.
struct HighScoreEntry {
  serial::HighScoreTable table;
  std::optional<usize> rank;  // 0 = best; nullopt: not good enough
};
Result<HighScoreEntry> enter_high_score(const std::filesystem::path& path, std::string name,
                                        u64 score);

// Scripted key presses for headless runs: "100:key:P,160:key:P" presses each binding at frame F
// (0-based loop frame) and releases it one frame later. Errors name the bad entry.
Status script_keys(std::string_view spec, platform::ScriptedInput& input);

// The whole program. Exit status: 0 fine, 1 a run-time failure (the pack, a save, a replay), 2
// usage errors.
int run_app(int argc, char** argv);

}  // namespace keel::voidfarer
