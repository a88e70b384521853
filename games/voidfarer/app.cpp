#include "app.h"

#include "frame_times.h"
#include "replay.h"
#include "sound.h"
#include "view.h"

#include "keel/core/build_stamp.h"
#include "keel/core/file.h"
#include "keel/kernel/frame_services.h"
#include "keel/kernel/kernel.h"
#include "keel/platform/audio_capture.h"
#include "keel/platform/audio_device.h"
#include "keel/platform/image.h"
#include "keel/platform/overlay.h"
#include "keel/platform/renderer.h"
#include "keel/platform/window.h"
#include "keel/profile/profile.h"
#include "keel/serial/high_score_table.h"
#include "keel/world/components.h"

#include <SDL2/SDL.h>
#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <memory>

namespace keel::settings {

// difficulty=easy|normal|hard
template <>
struct Converter<voidfarer::Difficulty> {
  static constexpr std::string_view kTypeName = "difficulty";
  static Result<voidfarer::Difficulty> parse(std::string_view text) {
    if (text == "easy") return voidfarer::Difficulty::kEasy;
    if (text == "normal") return voidfarer::Difficulty::kNormal;
    if (text == "hard") return voidfarer::Difficulty::kHard;
    return fail(ErrorCode::kParse, "'{}' is not a difficulty (easy, normal or hard)", text);
  }
  static std::string format(const voidfarer::Difficulty& value) {
    return voidfarer::difficulty_name(value);
  }
};

}  // namespace keel::settings

namespace keel::voidfarer {
namespace fs = std::filesystem;

fs::path default_user_dir() {
  if (const char* xdg = std::getenv("XDG_DATA_HOME"); xdg != nullptr && *xdg != '\0') {
    return fs::path(xdg) / "voidfarer";
  }
  if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0') {
    return fs::path(home) / ".local" / "share" / "voidfarer";
  }
  return "voidfarer-user";
}

Status add_game_settings(settings::Settings& registry, GameSettings& values) {
  if (Status s = settings::add_standard_settings(registry, values.standard); !s) return s;
  if (Status s = platform::add_audio_settings(registry, values.audio); !s) return s;
  registry.add("difficulty", values.difficulty,
               "easy, normal or hard: a harder level takes abilities from the player");
  registry.add("autopilot", values.autopilot, "the ship flies and fires by itself");
  registry.add("pilot", values.pilot, "your name in the high-score table");
  registry.add("language", values.language, "the HUD's words: english or french");
  return {};
}

void add_game_actions(platform::Input& input) {
  input.add_action("thrust", {"key:Up", "key:W", "pad:dpup"});
  input.add_action("reverse", {"key:Down", "key:S", "pad:dpdown"});
  input.add_action("left", {"key:Left", "key:A", "pad:dpleft"});
  input.add_action("right", {"key:Right", "key:D", "pad:dpright"});
  input.add_action("fire", {"key:Space", "mouse:left", "pad:a"});
  input.add_action("pause", {"key:P", "key:Escape", "pad:start"});
  input.add_action("quicksave", {"key:F5"});
  input.add_action("quickload", {"key:F9"});
  input.add_action("overlay", {"key:F1"});
  input.add_action("quit", {"key:Q", "pad:back"});
}

Controls controls_from(const platform::Input& input) {
  return {.thrust = input.down("thrust"),
          .reverse = input.down("reverse"),
          .left = input.down("left"),
          .right = input.down("right"),
          .fire = input.down("fire")};
}

namespace {

bool parse_u64(std::string_view v, u64& out) {
  const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), out);
  return ec == std::errc{} && end == v.data() + v.size() && !v.empty();
}

}  // namespace

Status script_keys(std::string_view spec, platform::ScriptedInput& input) {
  while (!spec.empty()) {
    const usize comma = spec.find(',');
    const std::string_view entry = spec.substr(0, comma);
    spec = comma == std::string_view::npos ? std::string_view{} : spec.substr(comma + 1);
    const usize colon = entry.find(':');
    u64 frame = 0;
    if (colon == std::string_view::npos || !parse_u64(entry.substr(0, colon), frame)) {
      return fail(ErrorCode::kParse, "--keys: '{}' is not FRAME:BINDING (e.g. 100:key:P)", entry);
    }
    Result<platform::InputEvent> press = platform::parse_binding(entry.substr(colon + 1));
    if (!press) return fail(ErrorCode::kParse, "--keys: '{}': {}", entry, press.error().message());
    input.at(frame, *press);
    platform::InputEvent release = *press;
    release.down = false;
    input.at(frame + 1, release);
  }
  return {};
}

Result<HighScoreEntry> enter_high_score(const fs::path& path, std::string name, u64 score) {
  HighScoreEntry entry;
  if (Status loaded = entry.table.load(path);
      !loaded && loaded.error().code() != ErrorCode::kNotFound) {
    return Unexpected(loaded.error());  // never overwrite a table we could not read
  }
  entry.rank =
      entry.table.add(std::move(name), static_cast<u32>(std::min<u64>(score, 0xFFFF'FFFFu)));
  if (entry.rank) {
    std::error_code ec;
    if (path.has_parent_path()) fs::create_directories(path.parent_path(), ec);
    if (Status saved = entry.table.save(path); !saved) return Unexpected(saved.error());
  }
  return entry;
}

Result<AppOptions> parse_app_options(std::span<const std::string> args) {
  Result<platform::RunOptions> run = platform::parse_run_options(args);
  if (!run) return Unexpected(run.error());
  AppOptions o;
  o.run = std::move(*run);
  const std::vector<std::string>& rest = o.run.rest;
  for (usize i = 0; i < rest.size(); ++i) {
    const std::string_view arg = rest[i];
    const bool has_value = i + 1 < rest.size();
    auto path_option = [&](std::string_view name, fs::path& target) {
      if (arg != name) return false;
      if (has_value) target = rest[++i];
      return true;
    };
    if (arg == "--check") {
      o.check = true;
      continue;
    }
    if (arg == "--trace-hash") {
      o.trace_hash = true;
      continue;
    }
    if (arg == "--no-view") {
      o.no_view = true;
      continue;
    }
    if (arg == "--lockstep") {
      o.lockstep = true;
      continue;
    }
    if (!has_value)
      return fail(ErrorCode::kInvalidArgument, "unknown option or missing value: {}", arg);
    if (path_option("--data", o.data) || path_option("--user-dir", o.user_dir) ||
        path_option("--settings-out", o.settings_out) || path_option("--record", o.record) ||
        path_option("--replay", o.replay) || path_option("--save", o.save) ||
        path_option("--load", o.load) || path_option("--audio-out", o.audio_out)) {
      continue;
    }
    if (arg == "--keys") {
      o.keys = rest[++i];
      continue;
    }
    u64 value = 0;
    if (arg == "--save-at" || arg == "--seed" || arg == "--progress") {
      if (!parse_u64(rest[i + 1], value)) {
        return fail(ErrorCode::kInvalidArgument, "{} wants a number, not '{}'", arg, rest[i + 1]);
      }
      ++i;
      if (arg == "--save-at") o.save_at = value;
      if (arg == "--seed") o.seed = value;
      if (arg == "--progress") o.progress_every = value;
      continue;
    }
    return fail(ErrorCode::kInvalidArgument, "unknown option {}", arg);
  }
  if (o.data.empty()) return fail(ErrorCode::kInvalidArgument, "--data PACK.kpk is required");
  if (!o.replay.empty() && (!o.record.empty() || !o.load.empty())) {
    return fail(ErrorCode::kInvalidArgument,
                "--replay plays a whole recorded run: no --record or --load with it");
  }
  if (!o.record.empty() && !o.load.empty()) {
    return fail(ErrorCode::kInvalidArgument,
                "a recording starts at the first frame: no --load with --record");
  }
  if (o.save_at && *o.save_at == 0)
    return fail(ErrorCode::kInvalidArgument, "--save-at counts from 1");
  if (o.no_view && o.run.screenshot_every != 0) {
    return fail(ErrorCode::kInvalidArgument,
                "--no-view draws nothing: no --screenshot-every with it");
  }
  if (o.user_dir.empty()) o.user_dir = default_user_dir();
  return o;
}

namespace {

using platform::InputEvent;

// Waves reached, counting from 1: the chain's current step, or all of them once it finished
// (step() is then the number of steps).
usize waves_reached(const FrameSummary& s) {
  return s.chain_finished ? s.wave_step : s.wave_step + 1;
}

constexpr f64 kFrameBudgetMs = 1000.0 / 60.0;
constexpr u64 kDefaultHeadlessFrames = 1800;
constexpr u64 kMessageFrames = 180;  // on-screen messages stay three seconds

// What the game task counts for the summary.
struct RunTotals {
  u64 frames = 0;  // loop frames
  u64 steps = 0;   // simulation steps
  u64 drawn = 0;   // frames drawn
  f64 draw_calls = 0;
  f64 requested = 0;
  f64 applied = 0;
  u64 screenshots = 0;
  bool game_over = false;
  std::optional<usize> rank;  // in the high-score table
  bool failed = false;        // a save, a load or a step failed (exit status 1)
};

// The game's frame: input -> controls -> Sim::step (fixed 60 Hz) -> sounds -> drawing.
class GameTask final : public kernel::Task {
 public:
  struct Parts {
    Sim* sim;
    const AppOptions* options;
    const GameSettings* game;
    platform::Input* input;
    platform::InputTask* input_task;
    platform::Window* window;      // null with --no-view
    platform::Renderer* renderer;  // null with --no-view
    View* view;                    // null with --no-view
    platform::ProfilerOverlay* overlay;
    SoundPlayer* sounds;
    platform::AudioDevice* audio;
    const Replay* replay;  // null unless --replay
    Replay* record;        // null unless --record
    bool headless;
  };
  explicit GameTask(Parts parts) : Task("voidfarer"), p_(parts) {}

  const RunTotals& totals() const { return totals_; }

  void update(const kernel::Frame& frame) override {
    ++totals_.frames;
    handle_keys();
    const bool autopilot = p_.replay == nullptr && (p_.game->autopilot || p_.headless);
    u32 steps = 0;
    // Headless and --lockstep runs take one step per frame whatever the clock says, so a window
    // shows what a headless run draws (the Xvfb test compares them) and captures have no gaps.
    const bool lockstep = p_.headless || p_.options->lockstep;
    if (!paused_ && !totals_.game_over) steps = lockstep ? 1 : frame.fixed_steps;
    for (u32 s = 0; s < steps && !stop_ && !totals_.game_over; ++s) step(autopilot);
    if (p_.audio != nullptr) {
      KEEL_PROFILE("app.audio");  // the null device mixes here (SDL's mixes on its own thread)
      p_.audio->advance(lockstep ? Sim::kDt : frame.dt);
    }
    if (p_.renderer != nullptr) draw(frame.number);
    const u64 limit = p_.options->run.frames;
    if (stop_ || (limit != 0 && totals_.frames >= limit) || (p_.headless && totals_.game_over) ||
        (p_.input->pressed("quit") && (paused_ || totals_.game_over))) {
      frame.kernel.kill_all();
    }
  }

 private:
  void message(std::string text, bool error = false) {
    fmt::print(error ? stderr : stdout, "{}\n", text);
    message_ = std::move(text);
    message_frames_ = kMessageFrames;
  }

  void handle_keys() {
    platform::Input& in = *p_.input;
    if (p_.overlay != nullptr) {
      // The overlay toggles on the "overlay" action (rebindable); its own keys (arrows, Return)
      // move through the tree. F1 is its built-in toggle: filtered so it never toggles twice.
      if (in.pressed("overlay")) p_.overlay->set_visible(!p_.overlay->visible());
      overlay_events_.clear();
      for (const InputEvent& e : p_.input_task->events()) {
        if (!(e.device == platform::Device::kKey && e.code == SDL_SCANCODE_F1))
          overlay_events_.push_back(e);
      }
      if (p_.overlay->visible()) p_.overlay->handle(overlay_events_);
    }
    if (totals_.game_over) return;
    if (in.pressed("pause")) {
      paused_ = !paused_;
      if (p_.view != nullptr && paused_)
        p_.view->set_message(std::string(p_.view->text("PAUSED")),
                             std::string(p_.view->text("PAUSE_HELP")));
      if (p_.view != nullptr && !paused_) p_.view->clear_message();
    }
    if (in.pressed("quicksave")) quick_save();
    if (in.pressed("quickload")) quick_load();
  }

  void quick_save() {
    const fs::path path = p_.options->quick_save();
    std::error_code ec;
    if (path.has_parent_path()) fs::create_directories(path.parent_path(), ec);
    if (Status st = p_.sim->save(path); !st) {
      message(fmt::format("QUICK-SAVE FAILED at frame {}: {}", p_.sim->summary().frame,
                          st.error().to_string()),
              true);
      totals_.failed = true;
      return;
    }
    message(fmt::format("quick-saved frame {} to {}", p_.sim->summary().frame, path.string()));
  }

  void quick_load() {
    const fs::path path = p_.options->quick_save();
    if (Status st = p_.sim->load_save(path); !st) {
      message(fmt::format("QUICK-LOAD FAILED: {}", st.error().to_string()), true);
      totals_.failed = true;
      return;
    }
    message(fmt::format("quick-loaded frame {} from {}", p_.sim->summary().frame, path.string()));
  }

  void step(bool autopilot) {
    Controls controls;
    if (p_.replay != nullptr) {
      if (totals_.steps >= p_.replay->controls.size()) {
        fmt::print("the replay ends after {} frames\n", totals_.steps);
        stop_ = true;
        return;
      }
      controls = Controls::from_bits(p_.replay->controls[totals_.steps]);
    } else if (autopilot) {
      controls = p_.sim->autopilot();
    } else {
      controls = controls_from(*p_.input);
    }
    if (p_.record != nullptr) p_.record->controls.push_back(controls.bits());
    if (p_.sounds != nullptr) p_.sounds->set_thrust(controls.thrust);
    if (Status st = p_.sim->step(controls); !st) {
      fmt::print(stderr, "voidfarer: step {}: {}\n", totals_.steps + 1, st.error().to_string());
      totals_.failed = true;
      stop_ = true;
      return;
    }
    ++totals_.steps;
    const FrameSummary s = p_.sim->summary();
    if (p_.options->trace_hash) {
      const auto parts = p_.sim->hash_parts();
      fmt::print("hash {} {:016x} {:016x} {:016x}\n", totals_.steps, parts[0], parts[1], parts[2]);
    }
    if (p_.options->progress_every != 0 && totals_.steps % p_.options->progress_every == 0) {
      fmt::print(
          "frame {} wave {}{} entities {} enemies {} killed {} particles {} score {} hull {:.0f}\n",
          totals_.steps, waves_reached(s), s.chain_finished ? " (all done)" : "", s.live_entities,
          s.enemies, s.killed, s.particles, s.score, s.hull);
    }
    if (p_.options->save_at && *p_.options->save_at == totals_.steps) {
      quick_save();
      if (totals_.failed) stop_ = true;  // the saving run's hash would mean nothing
    }
    const world::Vec2 listener = player_position();
    std::vector<SoundEvent> sounds = p_.sim->take_sounds();
    if (p_.sounds != nullptr) p_.sounds->play(sounds, listener);
    if (!s.player_alive) game_over(s, autopilot);
  }

  world::Vec2 player_position() const {
    const world::Transform* t = p_.sim->world().get<world::Transform>(p_.sim->player());
    return t != nullptr ? t->position : world::Vec2{0, 0};
  }

  void game_over(const FrameSummary& s, bool autopilot) {
    totals_.game_over = true;
    fmt::print("game over at frame {}: score {}, wave {}, {} enemies destroyed\n", s.frame, s.score,
               waves_reached(s), s.killed);
    const std::string name = p_.replay != nullptr ? "REPLAY"
                             : autopilot          ? "AUTOPILOT"
                                                  : p_.game->pilot;
    Result<HighScoreEntry> entered = enter_high_score(p_.options->high_scores(), name, s.score);
    table_lines_.clear();
    if (!entered) {
      table_lines_.push_back(fmt::format("GAME OVER  score {}", s.score));
      message(fmt::format("high scores not saved: {}", entered.error().to_string()), true);
      return;
    }
    totals_.rank = entered->rank;
    const serial::HighScoreTable& table = entered->table;
    table_lines_.push_back(
        fmt::format("GAME OVER  score {}{}", s.score,
                    totals_.rank ? fmt::format("  rank {}", *totals_.rank + 1) : ""));
    for (usize i = 0; i < table.entries().size(); ++i) {
      table_lines_.push_back(fmt::format("{:>2}. {:<16} {:>8}", i + 1, table.entries()[i].name,
                                         table.entries()[i].score));
    }
    for (const std::string& line : table_lines_) fmt::print("{}\n", line);
  }

  void draw(u64 frame_number) {
    platform::Renderer& r = *p_.renderer;
    if (Status st = r.begin_frame({8, 8, 16, 255}); !st) {
      fmt::print(stderr, "voidfarer: {}\n", st.error().to_string());
      stop_ = true;
      totals_.failed = true;
      return;
    }
    p_.view->draw(*p_.sim);
    const platform::FontId font = p_.view->font();
    const f32 cx = static_cast<f32>(View::kWidth) / 2;
    const f32 cy = static_cast<f32>(View::kHeight) / 2;
    if (totals_.game_over) {
      f32 y = cy - 120;
      for (const std::string& line : table_lines_) {
        r.text(font, line, {cx - 150, y}, {255, 220, 120, 255});
        y += 22;
      }
      if (!p_.headless) r.text(font, "Q quits", {cx - 150, y + 10}, {200, 200, 200, 255});
    }
    if (message_frames_ > 0) {
      --message_frames_;
      r.text(font, message_, {16, static_cast<f32>(View::kHeight) - 16}, {255, 200, 160, 255});
    }
    if (p_.overlay != nullptr) p_.overlay->draw(r, font, {16, 60});
    if (Status st = r.end_frame(); !st)
      fmt::print(stderr, "voidfarer: {}\n", st.error().to_string());
    const platform::FrameStats& stats = r.stats();
    ++totals_.drawn;
    totals_.draw_calls += stats.draw_calls;
    totals_.requested += stats.states.requested;
    totals_.applied += stats.states.applied;
    if (p_.options->run.screenshot_due(frame_number)) {
      KEEL_PROFILE("app.screenshot");
      const fs::path path = p_.options->run.screenshot_path(frame_number);
      Result<platform::Image> shot = p_.window->screenshot();
      Status written = shot ? platform::write_png(path, *shot) : Status(Unexpected(shot.error()));
      if (!written) {
        fmt::print(stderr, "voidfarer: {}: {}\n", path.string(), written.error().to_string());
      } else {
        ++totals_.screenshots;
        fmt::print("wrote {}\n", path.string());
      }
    }
    KEEL_PROFILE("app.present");  // SDL executes its batched commands here
    p_.window->present();
  }

  Parts p_;
  RunTotals totals_;
  bool paused_ = false;
  bool stop_ = false;
  std::string message_;
  u64 message_frames_ = 0;
  std::vector<std::string> table_lines_;
  std::vector<InputEvent> overlay_events_;
};

std::string ms_line(std::string_view label, const std::optional<Percentiles>& p) {
  if (!p || p->samples == 0)
    return fmt::format("  {:<7} no samples (no \"{}\" profile scope)", label, label);
  return fmt::format(
      "  {:<7} p50 {:6.3f}  p95 {:6.3f}  p99 {:6.3f} ms  ({:.1f}% of a 16.7 ms frame at p50, {} "
      "frames)",
      label, p->p50, p->p95, p->p99, 100.0 * p->p50 / kFrameBudgetMs, p->samples);
}

void print_summary(const Sim& sim, const RunTotals& t, const FrameTimes& times,
                   const SoundPlayer* sounds, const SimOptions& sim_options, bool profiling) {
  const FrameSummary s = sim.summary();
  fmt::print("\n=== Voidfarer summary ===\n");
  fmt::print("  {} frames, {} simulation steps ({:.1f} s of game time), difficulty {}, seed {}\n",
             t.frames, t.steps, static_cast<f64>(t.steps) * Sim::kDt,
             difficulty_name(sim_options.difficulty), sim_options.seed);
  fmt::print("  waves reached {}{}, enemies destroyed {}, score {}, hull {:.0f}/{:.0f} ({})\n",
             waves_reached(s), s.chain_finished ? " (all waves done)" : "", s.killed, s.score,
             s.hull, s.hull_max, s.player_alive ? "alive" : "destroyed");
  if (t.game_over) {
    fmt::print("  high-score table: {}\n", t.rank ? fmt::format("entered at #{}", *t.rank + 1)
                                                  : std::string("not good enough"));
  }
  fmt::print("frame time (keel/profile, milliseconds{}):\n",
             profiling ? "" : "; profiler=false: none");
  fmt::print("{}\n", ms_line("frame", times.percentiles(FrameTimes::kFrame)));
  fmt::print("{}\n", ms_line("sim", times.percentiles("sim")));
  fmt::print("{}\n", ms_line("render", times.percentiles("render")));
  if (t.drawn > 0) {
    const f64 n = static_cast<f64>(t.drawn);
    fmt::print(
        "  per frame: {:.1f} draw calls, render state changes {:.1f} requested (no shadow state) "
        "-> "
        "{:.1f} applied\n",
        t.draw_calls / n, t.requested / n, t.applied / n);
  } else {
    fmt::print("  nothing drawn (--no-view)\n");
  }
  fmt::print("  sounds played {}, screenshots {}\n", sounds != nullptr ? sounds->played() : 0,
             t.screenshots);
}

void print_usage() {
  fmt::print(
      stderr,
      "usage: voidfarer --data PACK.kpk [settings...] [options]\n"
      "  settings: width=W height=H +fullscreen -vsync volume=V difficulty=easy|normal|hard\n"
      "            +autopilot pilot=NAME language=english|french\n"
      "            bind_fire=key:Space;pad:a ... (see voidfarer.cfg)\n"
      "  --settings FILE      settings file (repeatable; then the user's, then the command line)\n"
      "  --user-dir DIR       high scores, quick-save and saved settings (default {})\n"
      "  --settings-out FILE  where the settings are written on exit (default DIR/settings.cfg)\n"
      "  --headless --software --frames N --screenshot-every K --out DIR --trace FILE\n"
      "  --record FILE | --replay FILE    replays (one byte of controls per frame)\n"
      "  --save FILE --save-at K | --load FILE    quick-save after step K, load before step 1\n"
      "  --seed S --audio-out FILE.wav --no-view --progress N --check --trace-hash\n"
      "  --lockstep           one simulation step per drawn frame in a window, as headless\n"
      "  --keys F:KEY,...     headless key presses at loop frames (100:key:P,160:key:P)\n",
      default_user_dir().string());
}

}  // namespace

int run_app(int argc, char** argv) {
  GameSettings game;
  settings::Settings registry;
  if (Status s = add_game_settings(registry, game); !s) {
    fmt::print(stderr, "voidfarer: {}\n", s.error().to_string());
    return 1;
  }
  platform::Input input;
  add_game_actions(input);
  (void)input.add_settings(registry);

  // --settings FILE and --user-dir DIR are needed before the settings load; the rest after.
  std::vector<std::string_view> args = settings::args_from_main(argc, argv);
  std::vector<fs::path> files;
  std::vector<std::string_view> setting_args;
  fs::path user_dir;
  fs::path settings_out;
  for (usize i = 0; i < args.size(); ++i) {
    if (args[i] == "--help" || args[i] == "-h") {
      print_usage();
      return 0;
    }
    if (args[i] == "--settings" && i + 1 < args.size()) {
      files.emplace_back(args[++i]);
      continue;
    }
    if (args[i] == "--user-dir" && i + 1 < args.size()) user_dir = args[i + 1];
    if (args[i] == "--settings-out" && i + 1 < args.size()) settings_out = args[i + 1];
    setting_args.push_back(args[i]);
  }
  if (user_dir.empty()) user_dir = default_user_dir();
  // The user's own file (written on exit) after the shipped ones: what the player changed wins.
  const fs::path user_settings = settings_out.empty() ? user_dir / "settings.cfg" : settings_out;
  if (std::error_code ec; fs::exists(user_settings, ec)) files.push_back(user_settings);
  const settings::ArgsResult loaded = registry.load(files, setting_args);
  for (const Error& e : loaded.errors) fmt::print(stderr, "{}\n", e.to_string());
  if (!loaded.errors.empty()) return 2;
  settings::apply_log_level(game.standard);
  std::vector<std::string> rest(loaded.rest.begin(), loaded.rest.end());
  Result<AppOptions> parsed = parse_app_options(rest);
  if (!parsed) {
    fmt::print(stderr, "voidfarer: {}\n", parsed.error().to_string());
    print_usage();
    return 2;
  }
  AppOptions& o = *parsed;
  if (Status s = input.apply_bindings(); !s)
    fmt::print(stderr, "voidfarer: {}\n", s.error().to_string());

  const bool headless = o.run.headless || o.no_view || platform::no_display();
  if (headless && o.run.frames == 0 && o.replay.empty()) o.run.frames = kDefaultHeadlessFrames;

  // The replay names the options it was recorded with; the pack must be the same.
  Result<u64> pack_hash = pack_file_hash(o.data);
  if (!pack_hash) {
    fmt::print(stderr, "voidfarer: {}\n", pack_hash.error().to_string());
    return 1;
  }
  SimOptions sim_options{.difficulty = game.difficulty, .seed = o.seed};
  std::optional<Replay> replay;
  if (!o.replay.empty()) {
    Result<Replay> r = Replay::load(o.replay);
    if (!r) {
      fmt::print(stderr, "voidfarer: {}\n", r.error().to_string());
      return 1;
    }
    replay = std::move(*r);
    sim_options = {.difficulty = replay->difficulty, .seed = replay->seed};
    if (Status m = replay->matches(*pack_hash, sim_options); !m) {
      fmt::print(stderr, "voidfarer: {}: {}\n", o.replay.string(), m.error().to_string());
      return 1;
    }
    fmt::print("replaying {} frames from {}\n", replay->controls.size(), o.replay.string());
  }
  std::optional<Replay> record;
  if (!o.record.empty()) {
    record = Replay{.pack_hash = *pack_hash,
                    .difficulty = sim_options.difficulty,
                    .seed = sim_options.seed,
                    .controls = {}};
  }

  Result<std::unique_ptr<Sim>> created = Sim::create(o.data, sim_options);
  if (!created) {
    fmt::print(stderr, "voidfarer: {}\n", created.error().to_string());
    return 1;
  }
  Sim& sim = **created;
  if (!o.load.empty()) {
    if (Status st = sim.load_save(o.load); !st) {
      fmt::print(stderr, "voidfarer: cannot load the save {}: {}\n", o.load.string(),
                 st.error().to_string());
      return 1;
    }
    fmt::print("loaded {} (frame {})\n", o.load.string(), sim.summary().frame);
  }

  std::unique_ptr<platform::Window> window;
  std::unique_ptr<platform::Renderer> renderer;
  std::unique_ptr<View> view;
  if (!o.no_view) {
    platform::WindowOptions wo = platform::window_options(game.standard, "Voidfarer");
    wo.headless = o.run.headless;
    wo.software = o.run.software;
    Result<std::unique_ptr<platform::Window>> opened = platform::Window::open(wo);
    if (!opened) {
      fmt::print(stderr, "voidfarer: {}\n", opened.error().to_string());
      return 1;
    }
    window = std::move(*opened);
    // The view draws a 1280x720 scene; other window sizes scale it.
    if (window->width() != View::kWidth || window->height() != View::kHeight) {
      SDL_RenderSetLogicalSize(window->sdl_renderer(), View::kWidth, View::kHeight);
    }
    fmt::print("video driver {}, renderer {}, {}x{}\n", window->video_driver(),
               window->renderer_name(), window->width(), window->height());
    renderer = std::make_unique<platform::Renderer>(window->sdl_renderer());
    Result<std::unique_ptr<View>> made = View::create(*renderer, sim);
    if (!made) {
      fmt::print(stderr, "voidfarer: {}\n", made.error().to_string());
      return 1;
    }
    view = std::move(*made);
    if (!view->set_language(game.language)) {
      fmt::print(stderr, "voidfarer: language={}: the pack's HUD has no such language\n",
                 game.language);
      return 2;
    }
    if (!o.run.out.empty()) {
      std::error_code ec;
      fs::create_directories(o.run.out, ec);
    }
  }

  platform::Mixer mixer;
  platform::apply_audio_settings(mixer, game.standard.volume, game.audio);
  SoundPlayer sounds(mixer, sim.pack());
  std::optional<platform::AudioCapture> capture;
  if (!o.audio_out.empty()) capture.emplace();
  std::unique_ptr<platform::AudioDevice> audio = platform::open_audio_device(
      mixer, {.headless = headless, .capture = capture ? &*capture : nullptr});

  std::unique_ptr<platform::InputSource> source;
  if (window != nullptr && !window->headless()) {
    if (!o.keys.empty()) {
      fmt::print(stderr, "voidfarer: --keys scripts headless runs only (add --headless)\n");
      return 2;
    }
    source = std::make_unique<platform::SdlInputSource>();
  } else {
    auto scripted = std::make_unique<platform::ScriptedInput>();
    if (Status st = script_keys(o.keys, *scripted); !st) {
      fmt::print(stderr, "voidfarer: {}\n", st.error().to_string());
      return 2;
    }
    source = std::move(scripted);
  }
  platform::ProfilerOverlay overlay(profile::this_thread());
  overlay.set_visible(false);  // F1 shows it

  kernel::Kernel kernel(SteadyClock::instance(), {.fixed_dt = Sim::kDt});
  kernel::attach_frame_services(kernel, nullptr, {.profile = game.standard.profiler});
  FrameTimes times({"sim", "render"});
  kernel.add_frame_end_hook([&] { times.record(profile::this_thread()); });  // after end_frame
  platform::FramePacer pacer(game.standard.vsync || headless ? 0 : 60);
  kernel.add_frame_end_hook([&] { pacer.wait(); });
  auto input_task = std::make_shared<platform::InputTask>(input, *source);
  kernel.add(input_task);
  auto task = kernel.create<GameTask>(
      GameTask::Parts{.sim = &sim,
                      .options = &o,
                      .game = &game,
                      .input = &input,
                      .input_task = input_task.get(),
                      .window = window.get(),
                      .renderer = renderer.get(),
                      .view = view.get(),
                      .overlay = window != nullptr && game.standard.profiler ? &overlay : nullptr,
                      .sounds = &sounds,
                      .audio = audio.get(),
                      .replay = replay ? &*replay : nullptr,
                      .record = record ? &*record : nullptr,
                      .headless = headless});
  while (kernel.has_work() && !source->quit_requested()) kernel.step();
  const RunTotals totals = task->totals();
  kernel.shutdown();

  int status = totals.failed ? 1 : 0;
  print_summary(sim, totals, times, &sounds, sim_options, game.standard.profiler);
  if (record) {
    if (Status st = record->save(o.record); !st) {
      fmt::print(stderr, "voidfarer: the replay was not written: {}\n", st.error().to_string());
      status = 1;
    } else {
      fmt::print("recorded {} frames to {}\n", record->controls.size(), o.record.string());
    }
  }
  if (!o.run.trace.empty()) {
    if (Status st = profile::write_chrome_trace(o.run.trace); !st) {
      fmt::print(stderr, "voidfarer: {}\n", st.error().to_string());
      status = 1;
    } else {
      fmt::print("wrote the Chrome trace {}\n", o.run.trace.string());
    }
  }
  if (capture) {
    audio.reset();  // the SDL device's thread stops before the capture is read
    if (Status st = capture->write_wav(o.audio_out); !st) {
      fmt::print(stderr, "voidfarer: {}\n", st.error().to_string());
      status = 1;
    } else {
      fmt::print("wrote the audio {}\n", o.audio_out.string());
    }
  }
  {
    const fs::path out = o.user_settings();
    std::error_code ec;
    if (out.has_parent_path()) fs::create_directories(out.parent_path(), ec);
    if (Status st = registry.write_file(out); !st) {
      fmt::print(stderr, "voidfarer: settings not saved: {}\n", st.error().to_string());
    }
  }
  fmt::print("final hash {:016x}\n", sim.state_hash());
  const FrameSummary end = sim.summary();
  if (o.check && end.wave_step < 2 && !end.chain_finished) {
    fmt::print(stderr, "check failed: wave step {} after {} frames (want >= 2)\n", end.wave_step,
               totals.steps);
    return 1;
  }
  return status;
}

}  // namespace keel::voidfarer
