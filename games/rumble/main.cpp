// keel-rumble: two characters fight, driven entirely by FSMs (Golden Rules ch. 7, "Let's Get
// Ready to Rumble!"). Headless: prints the fight as a frame log.
//
//   keel-rumble [--seed N] [--frames N] [--inputs FILE] [--data DIR] [--verbose]
//               [--save FILE --save-at TICK] [--load FILE]
#include "log_printer.h"
#include "match.h"
#include "match_save.h"

#include "keel/core/build_stamp.h"

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <cstdio>

#ifndef KEEL_RUMBLE_DATA_DIR
#define KEEL_RUMBLE_DATA_DIR "games/rumble/data"
#endif

int main(int argc, char** argv) {
  CLI::App app{"keel-rumble: a fighting-game simulation driven by FSMs"};
  keel::u64 seed = 1;
  keel::u64 frames = 3600;
  std::string inputs;
  std::string data = KEEL_RUMBLE_DATA_DIR;
  bool verbose = false;
  std::string save_path;
  keel::u64 save_at = 0;
  std::string load_path;
  app.add_option("--seed", seed, "Seed of the random controller and of IfRandom");
  app.add_option("--frames", frames, "Most 60 Hz frames to simulate (time up after)")
      ->check(CLI::Range(keel::u64{1}, keel::u64{10'000'000}));
  app.add_option("--inputs", inputs, "Input script (Press/Hold commands) instead of random play");
  app.add_option("--data", data, "Folder with character.fsm, player.fsm and roster.txt");
  app.add_flag("--verbose", verbose, "Also log walking and every handled FSM event");
  app.add_option("--save", save_path, "Save the match (keel/save) at --save-at");
  app.add_option("--save-at", save_at, "Tick to save the match at");
  app.add_option("--load", load_path,
                 "Continue a match saved with --save (same data and input source kind)");
  app.set_version_flag("--version", keel::build_stamp().to_string());
  CLI11_PARSE(app, argc, argv);

  rumble::MatchSetup setup = rumble::MatchSetup::from_data_dir(data);
  setup.seed = seed;
  if (!inputs.empty()) {
    keel::Result<rumble::ScriptedInput> script =
        rumble::ScriptedInput::load(inputs, setup.fighters);
    if (!script) {
      std::fprintf(stderr, "keel-rumble: %s\n", script.error().to_string().c_str());
      return 1;
    }
    setup.inputs = std::make_unique<rumble::ScriptedInput>(std::move(*script));
  }
  keel::Result<std::unique_ptr<rumble::Match>> match = rumble::Match::create(std::move(setup));
  if (!match) {
    std::fprintf(stderr, "keel-rumble: %s\n", match.error().to_string().c_str());
    return 1;
  }
  if (!load_path.empty()) {
    if (keel::Status loaded = rumble::load_into(**match, load_path); !loaded) {
      std::fprintf(stderr, "keel-rumble: %s: %s\n", load_path.c_str(),
                   loaded.error().to_string().c_str());
      return 1;
    }
    std::printf("restored tick %llu from %s\n", static_cast<unsigned long long>((*match)->ticks()),
                load_path.c_str());
  }
  if (!save_path.empty()) {
    (*match)->advance_to(std::min(save_at, frames));
    if (keel::Status saved = rumble::save_match(**match, save_path); !saved) {
      std::fprintf(stderr, "keel-rumble: %s\n", saved.error().to_string().c_str());
      return 1;
    }
    std::printf("saved tick %llu to %s\n", static_cast<unsigned long long>((*match)->ticks()),
                save_path.c_str());
  }
  (*match)->run(frames);
  const std::string log = rumble::format_log(**match, {.verbose = verbose});
  std::fwrite(log.data(), 1, log.size(), stdout);
  return 0;
}
