// keel-demo: the main job for now. Reads settings (the engine's standard ones and its own) from
// files and the command line, runs a kernel with a few tasks headless for N frames, then prints
// the profiler's table, tree and flat view, the objects report, and writes a Chrome trace (and,
// with profile_report=FILE, the Shiny report). With data=FILE it first loads the data file that
// keel-build made from data/sample.kproj and prints what it holds. The standard settings
// log_level and profiler are applied; width, height, fullscreen, vsync and volume are listed and
// kept for the platform layer (the demo runs headless).
//
//   keel-demo [--settings FILE]... [--list] [--write-settings FILE] [setting...]
//   e.g. keel-demo --settings demo.cfg frames=600 -physics trace=run.json log_level=debug
#include "demo_data.h"
#include "demo_save.h"
#include "demo_tasks.h"

#include "keel/core/build_stamp.h"
#include "keel/core/clock.h"
#include "keel/core/log.h"
#include "keel/core/ref.h"
#include "keel/kernel/frame_services.h"
#include "keel/kernel/kernel.h"
#include "keel/profile/profile.h"
#include "keel/profile/report.h"
#include "keel/profile/shiny_report.h"
#include "keel/settings/settings.h"
#include "keel/settings/standard.h"

#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace {

void usage() {
  std::puts(
      "usage: keel-demo [--settings FILE]... [--list] [--write-settings FILE] [setting...]\n"
      "  settings: name=value, +flag, -flag, list=a;b, +list=c, -list=a (see --list)");
}

// The profiler's reports of the last frame on stdout; the Shiny report also to `report_file`.
bool print_profile_reports(const std::string& report_file) {
  const keel::profile::Profiler& profiler = keel::profile::this_thread();
  std::printf("%s\n", keel::profile::log_table(profiler).c_str());
  std::printf(
      "Call tree (inclusive %% of the last frame):\n%s\n",
      keel::profile::tree_report(profiler, {.show_calls = true, .show_values = true}).c_str());
  std::printf("Flat view (by self time):\n%s\n", keel::profile::flat_report(profiler).c_str());
  if (report_file.empty()) return true;
  if (auto written =
          keel::profile::write_report(report_file, keel::profile::shiny_report(profiler));
      !written) {
    std::fprintf(stderr, "%s\n", written.error().to_string().c_str());
    return false;
  }
  std::printf("wrote profile report %s\n\n", report_file.c_str());
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  // Program options first; every other argument is a setting expression.
  std::vector<std::filesystem::path> files;
  std::vector<std::string_view> args;
  bool list = false;
  std::string write_to;
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if ((a == "--settings" || a == "--write-settings") && i + 1 == argc) {
      std::fprintf(stderr, "keel-demo: %s needs a FILE\n", argv[i]);
      return 2;
    }
    if (a == "--settings") {
      files.emplace_back(argv[++i]);
    } else if (a == "--write-settings") {
      write_to = argv[++i];
    } else if (a == "--list") {
      list = true;
    } else if (a == "--help" || a == "-h") {
      usage();
      return 0;
    } else {
      args.push_back(a);
    }
  }

  int frames = 180;
  int particles = 2000;
  bool physics = true;
  bool realtime = false;
  int seed = 1;
  std::string trace = "demo_trace.json";
  std::string profile_report;
  std::string data;
  std::string save_file;
  std::vector<std::string> waves;
  keel::settings::StandardSettings standard;
  keel::settings::Settings settings;
  if (auto added = keel::settings::add_standard_settings(settings, standard); !added) {
    std::fprintf(stderr, "keel-demo: %s\n", added.error().to_string().c_str());
    return 1;
  }
  settings.add("frames", frames, "Frames to run").range(1, 1'000'000);
  settings.add("particles", particles, "Particles simulated by the physics task")
      .range(0, 1'000'000);
  settings.add("physics", physics, "Run the physics task");
  settings.add("realtime", realtime, "Use the real clock (default: 60 simulated frames/s)");
  settings.add("seed", seed, "Seed of the simulated input");
  settings.add("trace", trace, "Chrome trace output file (empty: none; needs +profiler)");
  settings.add("profile_report", profile_report,
               "Shiny profile report file, flat profile and call tree (empty: none)");
  settings.add("data", data, "Data file made by keel-build to load at start-up (empty: none)");
  settings.add("waves", waves, "Enemy waves the AI cycles through");
  settings.add("save", save_file, "Quick-save the world here after the run and restore it");

  const keel::settings::ArgsResult loaded = settings.load(files, args);
  for (const keel::Error& e : loaded.errors) std::fprintf(stderr, "%s\n", e.to_string().c_str());
  for (std::string_view extra : loaded.rest) {
    std::fprintf(stderr, "keel-demo: unknown argument '%.*s'\n", static_cast<int>(extra.size()),
                 extra.data());
  }
  if (!loaded.errors.empty() || !loaded.rest.empty()) {
    usage();
    return 2;
  }
  if (list) {
    std::fputs(settings.list().c_str(), stdout);
    return 0;
  }
  if (!write_to.empty()) {
    if (auto written = settings.write_file(write_to); !written) {
      std::fprintf(stderr, "%s\n", written.error().to_string().c_str());
      return 1;
    }
  }

  keel::settings::apply_log_level(standard);
  std::printf("%s\n", keel::build_stamp().to_string().c_str());

  // The data file keel-build made (scripts/demo.sh builds it first). Missing: say how to make it
  // and run without; damaged: an error.
  std::optional<demo::DemoData> demo_data;
  if (!data.empty()) {
    std::error_code ec;
    if (!std::filesystem::exists(data, ec)) {
      std::printf(
          "data file %s not found (build it: keel-build -p data/sample.kproj); running "
          "without it\n\n",
          data.c_str());
    } else {
      keel::Result<demo::DemoData> loaded_data = demo::load_demo_data(data);
      if (!loaded_data) {
        std::fprintf(stderr, "keel-demo: %s\n", loaded_data.error().to_string().c_str());
        return 1;
      }
      demo_data = std::move(*loaded_data);
      std::printf("%s\n", demo_data->report.c_str());
    }
  }

  // Headless runs are deterministic: a fake clock advanced by 1/60 s per frame.
  keel::FakeClock fake_clock;
  const keel::Clock& clock =
      realtime ? static_cast<const keel::Clock&>(keel::SteadyClock::instance()) : fake_clock;
  keel::kernel::Kernel kernel(clock, {.max_dt = 0.25, .fixed_dt = 1.0 / 60.0});
  keel::ObjectRegistry objects;
  keel::kernel::attach_frame_services(kernel, &objects, {.profile = standard.profiler});
  if (!realtime) {
    kernel.add_frame_end_hook([&] { fake_clock.advance_seconds(1.0 / 60.0); });
  }

  demo::World world;
  world.waves = waves;
  kernel.create<demo::InputTask>(world, objects, static_cast<demo::u32>(seed));
  if (physics) {
    if (!kernel.create<demo::PhysicsTask>(world, static_cast<demo::u32>(particles),
                                          static_cast<demo::u32>(seed))) {
      std::puts("physics task refused to start (particles=0)");
    }
  }
  kernel.create<demo::AiTask>(world);
  kernel.create<demo::RenderTask>(world);

  const keel::u64 ran = kernel.run_frames(static_cast<keel::u64>(frames));
  std::printf("ran %llu frames (%.2f s simulated), %u key presses, %u effects spawned\n\n",
              static_cast<unsigned long long>(ran), kernel.frame().time, world.presses,
              world.effects_spawned);

  if (!save_file.empty() && !demo::quick_save_and_restore(world, save_file, ran)) return 1;

  if (standard.profiler) {
    if (!print_profile_reports(profile_report)) return 1;
  } else {
    std::printf("profiler off (+profiler turns it on)\n\n");
  }
  std::printf("%s\n", keel::to_string(objects.memory_report()).c_str());

  kernel.shutdown();
  const keel::LeakReport leaks = objects.shutdown();
  std::printf("objects left at shutdown: %zu\n", leaks.size());
  std::printf("render checksum %016llx\n", static_cast<unsigned long long>(world.render_checksum));

  if (standard.profiler && !trace.empty()) {
    if (auto written = keel::profile::write_chrome_trace(trace, 60); !written) {
      std::fprintf(stderr, "%s\n", written.error().to_string().c_str());
      return 1;
    }
    std::printf("wrote trace %s (open in https://ui.perfetto.dev or chrome://tracing)\n",
                trace.c_str());
  }
  return 0;
}
