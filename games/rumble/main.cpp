// keel-rumble: two characters fight, driven entirely by FSMs (Golden Rules ch. 7, "Let's Get
// Ready to Rumble!"). Headless: prints the fight as a frame log.
//
//   keel-rumble [--seed N] [--frames N] [--inputs FILE] [--data DIR] [--verbose]
#include "log_printer.h"
#include "match.h"

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
  app.add_option("--seed", seed, "Seed of the random controller and of IfRandom");
  app.add_option("--frames", frames, "Most 60 Hz frames to simulate (time up after)")
      ->check(CLI::Range(keel::u64{1}, keel::u64{10'000'000}));
  app.add_option("--inputs", inputs, "Input script (Press/Hold commands) instead of random play");
  app.add_option("--data", data, "Folder with character.fsm, player.fsm and roster.txt");
  app.add_flag("--verbose", verbose, "Also log walking and every handled FSM event");
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
  (*match)->run(frames);
  const std::string log = rumble::format_log(**match, {.verbose = verbose});
  std::fwrite(log.data(), 1, log.size(), stdout);
  return 0;
}
