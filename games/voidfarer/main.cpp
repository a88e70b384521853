// voidfarer: the game (sim.h, view.h). Skeleton usage, headless with the autopilot:
//   voidfarer --data build/.../voidfarer.kpk [--frames 1200] [--check] [--trace-hash]
//             [--screenshot-every K --out DIR]     (headless PNGs)
// Prints a summary every 60 frames (wave step, entities, bullets, kills, particles, milliseconds
// per frame of each system) and the final state hash. --check: exit 1 unless the waves chain
// reached its second step (index >= 2 means the third wave; see README).
#include "sim.h"
#include "view.h"

#include "keel/platform/image.h"
#include "keel/platform/window.h"

#include <fmt/format.h>

#include <charconv>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

namespace {

struct Options {
  std::string data;
  unsigned long frames = 1200;
  bool check = false;
  bool trace_hash = false;             // the three parts of the state hash after every frame
  unsigned long screenshot_every = 0;  // 0: none
  std::string out = ".";
};

bool parse_count(std::string_view v, unsigned long& out) {
  const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), out);
  return ec == std::errc{} && end == v.data() + v.size();
}

bool parse(int argc, char** argv, Options& o) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    const bool has_value = i + 1 < argc;
    if (arg == "--data" && has_value) {
      o.data = argv[++i];
    } else if (arg == "--frames" && has_value) {
      if (!parse_count(argv[++i], o.frames)) return false;
    } else if (arg == "--screenshot-every" && has_value) {
      if (!parse_count(argv[++i], o.screenshot_every)) return false;
    } else if (arg == "--out" && has_value) {
      o.out = argv[++i];
    } else if (arg == "--check") {
      o.check = true;
    } else if (arg == "--trace-hash") {
      o.trace_hash = true;
    } else {
      return false;
    }
  }
  return !o.data.empty();
}

void print_summary(const keel::voidfarer::Sim& scene) {
  const keel::voidfarer::FrameSummary s = scene.summary();
  fmt::print(
      "frame {} step {}{} entities {} bullets {} enemies {} killed {} particles {} score {} "
      "hull {:.0f}/{:.0f}{}\n",
      s.frame, s.wave_step, s.chain_finished ? " (done)" : "", s.live_entities, s.bullets,
      s.enemies, s.killed, s.particles, s.score, s.hull, s.hull_max,
      s.player_alive ? "" : " (destroyed)");
}

keel::Status shoot(keel::platform::Window& window, keel::platform::Renderer& renderer,
                   keel::voidfarer::View& view, const keel::voidfarer::Sim& sim,
                   const std::filesystem::path& path) {
  if (keel::Status st = renderer.begin_frame({8, 8, 16, 255}); !st) return st;
  view.draw(sim);
  if (keel::Status st = renderer.end_frame(); !st) return st;
  keel::Result<keel::platform::Image> image = window.screenshot();
  if (!image) return keel::Unexpected(image.error());
  keel::Status written = keel::platform::write_png(path, *image);
  window.present();
  return written;
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  if (!parse(argc, argv, options)) {
    fmt::print(stderr,
               "usage: voidfarer --data PACK.kpk [--frames N] [--check] [--trace-hash]\n"
               "       [--screenshot-every K --out DIR]\n");
    return 2;
  }
  auto scene = keel::voidfarer::Sim::create(options.data);
  if (!scene) {
    fmt::print(stderr, "voidfarer: {}\n", scene.error().to_string());
    return 1;
  }
  keel::voidfarer::Sim& s = **scene;
  std::unique_ptr<keel::platform::Window> window;
  std::unique_ptr<keel::platform::Renderer> renderer;
  std::unique_ptr<keel::voidfarer::View> view;
  if (options.screenshot_every > 0) {
    auto opened = keel::platform::Window::open({.title = "voidfarer",
                                                .width = keel::voidfarer::View::kWidth,
                                                .height = keel::voidfarer::View::kHeight,
                                                .fullscreen = false,
                                                .vsync = false,
                                                .headless = true,
                                                .software = true});
    if (!opened) {
      fmt::print(stderr, "voidfarer: {}\n", opened.error().to_string());
      return 1;
    }
    window = std::move(*opened);
    renderer = std::make_unique<keel::platform::Renderer>(window->sdl_renderer());
    auto made = keel::voidfarer::View::create(*renderer, s);
    if (!made) {
      fmt::print(stderr, "voidfarer: {}\n", made.error().to_string());
      return 1;
    }
    view = std::move(*made);
    std::filesystem::create_directories(options.out);
  }
  for (unsigned long frame = 1; frame <= options.frames; ++frame) {
    if (keel::Status st = s.step(s.autopilot()); !st) {
      fmt::print(stderr, "frame {}: {}\n", frame, st.error().to_string());
      return 1;
    }
    if (view && frame % options.screenshot_every == 0) {
      const std::filesystem::path path =
          std::filesystem::path(options.out) / fmt::format("frame_{:05}.png", frame);
      if (keel::Status st = shoot(*window, *renderer, *view, s, path); !st) {
        fmt::print(stderr, "{}: {}\n", path.string(), st.error().to_string());
        return 1;
      }
      fmt::print("wrote {}\n", path.string());
    }
    if (options.trace_hash) {
      const auto parts = s.hash_parts();
      fmt::print("hash {} {:016x} {:016x} {:016x}\n", frame, parts[0], parts[1], parts[2]);
    }
    if (frame % 60 == 0 || frame == options.frames) {
      print_summary(s);
    }
  }
  fmt::print("final hash {:016x}\n", s.state_hash());
  const keel::voidfarer::FrameSummary end = s.summary();
  if (options.check && end.wave_step < 2 && !end.chain_finished) {
    fmt::print(stderr, "check failed: wave step {} after {} frames (want >= 2)\n", end.wave_step,
               options.frames);
    return 1;
  }
  return 0;
}
