// Voidfarer's frame benchmark (issue 13 section 4): a Sim from the game's pack kept at 2,000 live
// entities (Sim::spawn) and 20,000 particles (Sim::burst), drawn with the HUD at 1280x720 on
// SDL's software renderer, headless. Prints the simulation and the rendering each as a share of a
// 16.7 ms frame, draw calls per frame, and render state changes per frame as requested (what the
// renderer would set without the shadow state) and applied (with it).
//
//   voidfarer_bench_frame [pack] [frames]
//     pack    default games/voidfarer/data/build/image/PC/voidfarer.kpk (build it with
//             keel-build -p games/voidfarer/data/voidfarer.kproj)
//     frames  measured frames (default 300), after 60 warm-up frames
#include "sim.h"
#include "view.h"

#include "keel/platform/window.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;
constexpr double kFrameMs = 1000.0 / 60.0;
constexpr keel::usize kEntities = 2000;
// Ships kept alive: with their bullets (about one live shot per ship) and the bursts' carrier
// entities the world holds about kEntities live entities (the mean is printed).
constexpr keel::usize kShips = 1000;
constexpr keel::usize kParticles = 20000;

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// This thread's CPU time: on a shared, loaded machine the wall clock also counts the time other
// processes held the cores.
double cpu_ms() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) * 1e-6;
}

// Tops the world up to kEntities live entities around the player (a fleet on a grid that
// mostly fits the screen) and the particles up to kParticles with explosions among them.
void top_up(keel::voidfarer::Sim& sim, keel::u64& next) {
  using keel::world::Vec2;
  static constexpr const char* kKinds[] = {"fighter", "fighter", "bomber"};
  Vec2 centre{0, 0};
  if (const auto* t = sim.world().get<keel::world::Transform>(sim.player())) centre = t->position;
  while (sim.summary().live_entities < kEntities && sim.summary().enemies < kShips) {
    const keel::u64 i = next++;
    const Vec2 at = centre + Vec2{static_cast<float>(static_cast<int>(i % 50) - 25) * 44.0f,
                                  static_cast<float>(static_cast<int>((i / 50) % 40) - 20) * 30.0f};
    if (!sim.spawn(kKinds[i % 3], at)) break;
  }
  for (int n = 0; n < 40 && sim.summary().particles < kParticles; ++n) {
    const keel::u64 i = next++;
    sim.burst(centre + Vec2{static_cast<float>(static_cast<int>(i * 7919 % 1600) - 800),
                            static_cast<float>(static_cast<int>(i * 104729 % 900) - 450)},
              i % 4 == 0 ? "sparks" : "blast");
  }
}

}  // namespace

int main(int argc, char** argv) {
  const std::string pack = argc > 1 ? argv[1] : "games/voidfarer/data/build/image/PC/voidfarer.kpk";
  const int frames = argc > 2 ? std::max(1, std::atoi(argv[2])) : 300;
  constexpr int kWarmup = 60;

  auto sim = keel::voidfarer::Sim::create(pack);
  if (!sim) {
    fmt::print(stderr,
               "bench_frame: {} (build the pack first: keel-build -p "
               "games/voidfarer/data/voidfarer.kproj)\n",
               sim.error().to_string());
    return 1;
  }
  auto window = keel::platform::Window::open({.title = "bench_frame",
                                              .width = keel::voidfarer::View::kWidth,
                                              .height = keel::voidfarer::View::kHeight,
                                              .fullscreen = false,
                                              .vsync = false,
                                              .headless = true,
                                              .software = true});
  if (!window) {
    fmt::print(stderr, "bench_frame: {}\n", window.error().to_string());
    return 1;
  }
  keel::platform::Renderer renderer((*window)->sdl_renderer());
  auto view = keel::voidfarer::View::create(renderer, **sim);
  if (!view) {
    fmt::print(stderr, "bench_frame: {}\n", view.error().to_string());
    return 1;
  }

  // The fixed cost: clearing and presenting an empty 1280x720 frame.
  double empty_cpu = 0;
  constexpr int kEmptyFrames = 30;
  for (int i = 0; i < kEmptyFrames; ++i) {
    const double c = cpu_ms();
    (void)renderer.begin_frame({8, 8, 16, 255});
    (void)renderer.end_frame();
    (*window)->present();
    empty_cpu += cpu_ms() - c;
  }

  keel::u64 next = 0;
  double sim_ms = 0, render_ms = 0, sim_cpu = 0, render_cpu = 0;
  double entities = 0, particles = 0, particles_drawn = 0, draw_calls = 0, requested = 0,
         applied = 0, sprites = 0;
  std::vector<double> frame_ms;
  for (int frame = 0; frame < kWarmup + frames; ++frame) {
    top_up(**sim, next);  // outside the timings
    const auto s0 = Clock::now();
    const double c0 = cpu_ms();
    if (keel::Status st = (*sim)->step((*sim)->autopilot()); !st) {
      fmt::print(stderr, "bench_frame: frame {}: {}\n", frame, st.error().to_string());
      return 1;
    }
    const double step = ms_since(s0);
    const double step_cpu = cpu_ms() - c0;
    (void)(*sim)->take_sounds();
    const auto r0 = Clock::now();
    const double c1 = cpu_ms();
    (void)renderer.begin_frame({8, 8, 16, 255});
    (*view)->draw(**sim);
    if (keel::Status st = renderer.end_frame(); !st) {
      fmt::print(stderr, "bench_frame: frame {}: {}\n", frame, st.error().to_string());
      return 1;
    }
    (*window)->present();
    const double draw = ms_since(r0);
    const double draw_cpu = cpu_ms() - c1;
    if (frame < kWarmup) continue;
    const keel::voidfarer::FrameSummary s = (*sim)->summary();
    const keel::platform::FrameStats& stats = renderer.stats();
    sim_ms += step;
    render_ms += draw;
    sim_cpu += step_cpu;
    render_cpu += draw_cpu;
    frame_ms.push_back(step + draw);
    entities += static_cast<double>(s.live_entities);
    particles += static_cast<double>(s.particles);
    draw_calls += stats.draw_calls;
    requested += stats.states.requested;
    applied += stats.states.applied;
    sprites += stats.sprites;
    particles_drawn += stats.particles;
  }
  const double n = frames;
  std::sort(frame_ms.begin(), frame_ms.end());
  const auto pct = [&](double p) {
    return frame_ms[std::min(frame_ms.size() - 1, static_cast<size_t>(p * frame_ms.size()))];
  };
  fmt::print(
      "voidfarer frame bench: {}x{} software renderer (headless), {} frames after {} "
      "warm-up\n",
      keel::voidfarer::View::kWidth, keel::voidfarer::View::kHeight, frames, kWarmup);
  fmt::print(
      "live_entities={:.0f} particles={:.0f} (mean per frame); drawn (on screen): "
      "sprites={:.0f} particles={:.0f}\n",
      entities / n, particles / n, sprites / n, particles_drawn / n);
  fmt::print("sim_ms={:.2f} sim_share={:.0f}% of a 16.7 ms frame (wall clock)\n", sim_ms / n,
             100 * sim_ms / n / kFrameMs);
  fmt::print("render_ms={:.2f} render_share={:.0f}% of a 16.7 ms frame (wall clock)\n",
             render_ms / n, 100 * render_ms / n / kFrameMs);
  fmt::print("sim_cpu_ms={:.2f} sim_cpu_share={:.0f}% of a 16.7 ms frame (thread CPU time)\n",
             sim_cpu / n, 100 * sim_cpu / n / kFrameMs);
  fmt::print("render_cpu_ms={:.2f} render_cpu_share={:.0f}% of a 16.7 ms frame (thread CPU time)\n",
             render_cpu / n, 100 * render_cpu / n / kFrameMs);
  fmt::print("empty_frame_cpu_ms={:.2f} (clear + present, included in render_cpu_ms)\n",
             empty_cpu / kEmptyFrames);
  fmt::print("frame_ms p50={:.2f} p95={:.2f} p99={:.2f}\n", pct(0.5), pct(0.95), pct(0.99));
  fmt::print("draw_calls={:.1f} per frame (goal: at most 16)\n", draw_calls / n);
  fmt::print(
      "state_changes requested={:.1f} applied={:.1f} per frame (before / after the shadow "
      "state)\n",
      requested / n, applied / n);
  return 0;
}
