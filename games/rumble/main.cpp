// keel-rumble: two characters fight, driven entirely by FSMs (Golden Rules ch. 7, "Let's Get
// Ready to Rumble!"). Prints the fight as a frame log; with --window (or --headless pictures) it
// is also drawn, one tick per frame (view.h).
//
//   keel-rumble [--seed N] [--frames N] [--inputs FILE] [--data DIR] [--verbose]
//               [--save FILE --save-at TICK] [--load FILE]
//               [--window | --headless] [--software] [--pack rumble.kpk]
//               [--screenshot-every K --out DIR]
#include "log_printer.h"
#include "match.h"
#include "match_save.h"
#include "view.h"

#include "keel/assets/font.h"
#include "keel/assets/texture.h"
#include "keel/core/build_stamp.h"
#include "keel/platform/image.h"
#include "keel/platform/window.h"

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <cstdio>
#include <filesystem>
#include <optional>

#ifndef KEEL_RUMBLE_DATA_DIR
#define KEEL_RUMBLE_DATA_DIR "games/rumble/data"
#endif

namespace {

struct Pictures {
  bool window = false;
  bool headless = false;
  bool software = false;
  std::string pack;
  keel::u64 screenshot_every = 0;
  std::string out;
};

// Draws the fight one tick per frame until it is over (plus two seconds to read the result) or
// `frames` ticks have run; a window also stops when closed (or Escape / Q). Returns the exit code.
int watch(rumble::Match& match, keel::u64 frames, const Pictures& p) {
  keel::pack::Loader loader;
  keel::assets::register_texture_type(loader);
  keel::assets::register_font_type(loader);
  keel::Result<keel::pack::LoadedPack> pack = loader.load(p.pack);
  if (!pack) {
    std::fprintf(stderr,
                 "keel-rumble: %s (build it: keel-build -p games/rumble/data/pack/rumble.kproj)\n",
                 pack.error().to_string().c_str());
    return 1;
  }
  keel::Result<std::unique_ptr<keel::platform::Window>> window =
      keel::platform::Window::open({.title = "keel-rumble",
                                    .width = rumble::View::kWidth,
                                    .height = rumble::View::kHeight,
                                    .fullscreen = false,
                                    .vsync = !p.headless,
                                    .headless = p.headless,
                                    .software = p.software});
  if (!window) {
    std::fprintf(stderr, "keel-rumble: %s\n", window.error().to_string().c_str());
    return 1;
  }
  keel::platform::Renderer renderer((*window)->sdl_renderer());
  keel::Result<std::unique_ptr<rumble::View>> view = rumble::View::create(renderer, *pack);
  if (!view) {
    std::fprintf(stderr, "keel-rumble: %s\n", view.error().to_string().c_str());
    return 1;
  }
  if (!p.out.empty()) std::filesystem::create_directories(p.out);
  constexpr keel::u64 kAfterTheEnd = 120;
  keel::u64 after = 0;
  for (keel::u64 frame = 0;; ++frame) {
    bool quit = false;
    for (SDL_Event e; SDL_PollEvent(&e) != 0;) {
      if (e.type == SDL_QUIT) quit = true;
      if (e.type == SDL_KEYDOWN &&
          (e.key.keysym.scancode == SDL_SCANCODE_ESCAPE || e.key.keysym.scancode == SDL_SCANCODE_Q))
        quit = true;
    }
    if (quit) break;
    if (!match.over() && match.ticks() < frames) {
      match.step();
    } else if (++after > kAfterTheEnd) {
      break;
    }
    if (keel::Status st = renderer.begin_frame({20, 18, 30, 255}); !st) {
      std::fprintf(stderr, "keel-rumble: %s\n", st.error().to_string().c_str());
      return 1;
    }
    (*view)->draw(match);
    if (keel::Status st = renderer.end_frame(); !st) {
      std::fprintf(stderr, "keel-rumble: %s\n", st.error().to_string().c_str());
      return 1;
    }
    if (p.screenshot_every != 0 && (frame + 1) % p.screenshot_every == 0) {
      keel::Result<keel::platform::Image> shot = (*window)->screenshot();
      const std::filesystem::path path =
          std::filesystem::path(p.out) / fmt::format("rumble_{:05}.png", frame);
      if (!shot || !keel::platform::write_png(path, *shot)) {
        std::fprintf(stderr, "keel-rumble: cannot write %s\n", path.string().c_str());
        return 1;
      }
      std::printf("wrote %s\n", path.string().c_str());
    }
    (*window)->present();
  }
  return 0;
}

}  // namespace

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
  Pictures pictures;
  app.add_flag("--window", pictures.window, "Watch the fight in a window (one tick per frame)");
  app.add_flag("--headless", pictures.headless, "Draw the fight offscreen (screenshots)");
  app.add_flag("--software", pictures.software, "SDL's software renderer");
  app.add_option("--pack", pictures.pack,
                 "The pictures' pack (default DATA/pack/build/image/PC/rumble.kpk)");
  app.add_option("--screenshot-every", pictures.screenshot_every,
                 "Write rumble_NNNNN.png every K frames (needs --out)")
      ->check(CLI::Range(keel::u64{1}, keel::u64{10'000'000}));
  app.add_option("--out", pictures.out, "Folder for screenshots");
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
  if (pictures.screenshot_every != 0 && pictures.out.empty()) {
    std::fprintf(stderr, "keel-rumble: --screenshot-every needs --out\n");
    return 2;
  }
  if (pictures.window || pictures.headless) {
    if (pictures.pack.empty()) {
      pictures.pack = (std::filesystem::path(data) / "pack/build/image/PC/rumble.kpk").string();
    }
    if (const int code = watch(**match, frames, pictures); code != 0) return code;
  }
  (*match)->run(frames);
  const std::string log = rumble::format_log(**match, {.verbose = verbose});
  std::fwrite(log.data(), 1, log.size(), stdout);
  return 0;
}
