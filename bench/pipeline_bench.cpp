// keel-build's core on a generated project of 10,000 assets (Blob commands in ten command files,
// one data file), against ninja on the same dependency graph in the same run:
//
//   BM_KeelNoOpBuild/j   a no-op build: load the project and the database, read and
//                        PLATFORM-process the command files, ask every handler whether its
//                        intermediate is up to date (stat of source and intermediate), check the
//                        data file. A fresh Project and Builder per iteration, as in a new run.
//   BM_KeelNoOpProcess   the same no-op as a whole process: the keel-build program spawned like
//                        ninja (stdout to /dev/null), so start-up and exit count too.
//                        $KEEL_BENCH_KEEL_BUILD runs another keel-build program instead.
//   BM_KeelNoOpProcessBaseline
//                        the same with the program $KEEL_BENCH_BASELINE_KEEL_BUILD (e.g. main's
//                        keel-build; skipped when unset) on its own copy of the project, built
//                        by that program: old and new binaries in one run, best interleaved
//                        (--benchmark_repetitions=N --benchmark_enable_random_interleaving=true).
//   BM_NinjaNoOpBuild    `ninja -C dir` as a process (stdout to /dev/null) on a build.ninja with
//                        one edge per asset (source + command file -> intermediate) and one pack
//                        edge (10,000 intermediates -> data file), after a full ninja build.
//   BM_KeelFullBuild/j   --force-rebuild: every handler reads its source and writes its
//                        intermediate, then the repack (zstd) of all 10,000.
//
// Sources, intermediates and data files are dated an hour back before the no-op runs, as in a
// project whose last build was not a moment ago (within kRacyWindowNs keel hashes a file again
// instead of trusting its stat data).
#include "bench_support.h"

#include "keel/pipeline/builder.h"
#include "keel/pipeline/handlers/builtin_handlers.h"
#include "keel/pipeline/project.h"
#include "keel/pipeline/registry.h"

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using namespace keel::pipeline;

constexpr int kAssets = 10'000;
constexpr int kCommandFiles = 10;

void write(const fs::path& path, std::string_view text) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) std::abort();
  std::fwrite(text.data(), 1, text.size(), f);
  std::fclose(f);
}

// Dates every regular file under `dir` an hour back.
void backdate(const fs::path& dir) {
  const auto old = fs::file_time_type::clock::now() - std::chrono::hours(1);
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (e.is_regular_file()) fs::last_write_time(e.path(), old);
  }
}

// The generated project: src/aNNNNN.bin, cmd/cNN.kcmd (1,000 Blob commands each), main.kcmd.
void generate(const fs::path& dir) {
  std::error_code ec;
  fs::remove_all(dir, ec);
  fs::create_directories(dir / "src");
  fs::create_directories(dir / "cmd");
  write(dir / "project.kproj",
        "Project(\"bench\");\nIntermediatePath(\"obj\");\nImagePath(\"image\");\n"
        "Platform(\"PC\");\nIncludePath(\"src\");\nDataFile(\"main.kcmd\");\n");
  std::string main;
  for (int c = 0; c < kCommandFiles; ++c) {
    main += fmt::format("AddFile(\"cmd/c{:02}.kcmd\");\n", c);
    std::string commands;
    for (int i = c * (kAssets / kCommandFiles); i < (c + 1) * (kAssets / kCommandFiles); ++i) {
      commands += fmt::format("Blob(\"a{0:05}\", \"a{0:05}.bin\");\n", i);
      write(dir / "src" / fmt::format("a{:05}.bin", i),
            fmt::format("asset {:05} {}\n", i, std::string(40 + i % 64, 'x')));
    }
    write(dir / "cmd" / fmt::format("c{:02}.kcmd", c), commands);
  }
  write(dir / "main.kcmd", main);
}

// The same graph for ninja.
void generate_ninja(const fs::path& dir) {
  std::error_code ec;
  fs::remove_all(dir, ec);
  fs::create_directories(dir / "src");
  fs::create_directories(dir / "cmd");
  fs::create_directories(dir / "obj");
  fs::create_directories(dir / "image");
  std::string ninja =
      "rule blob\n  command = cp $in $out\n"
      "rule pack\n  command = xargs cat < $out.rsp > $out\n  rspfile = $out.rsp\n"
      "  rspfile_content = $in\n\n";
  std::string all;
  for (int c = 0; c < kCommandFiles; ++c) {
    write(dir / "cmd" / fmt::format("c{:02}.kcmd", c), "");
    for (int i = c * (kAssets / kCommandFiles); i < (c + 1) * (kAssets / kCommandFiles); ++i) {
      write(dir / "src" / fmt::format("a{:05}.bin", i),
            fmt::format("asset {:05} {}\n", i, std::string(40 + i % 64, 'x')));
      ninja +=
          fmt::format("build obj/a{0:05}.kpk: blob src/a{0:05}.bin | cmd/c{1:02}.kcmd\n", i, c);
      all += fmt::format(" obj/a{:05}.kpk", i);
    }
  }
  ninja += "build image/main.kpk: pack" + all + "\n";
  write(dir / "build.ninja", ninja);
}

std::string environment(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr ? std::string(value) : std::string();
}

struct Setup {
  fs::path base;
  fs::path keel_dir;
  fs::path full_dir;
  fs::path ninja_dir;
  fs::path baseline_dir;  // for $KEEL_BENCH_BASELINE_KEEL_BUILD
  std::string baseline = environment("KEEL_BENCH_BASELINE_KEEL_BUILD");
  bool ninja_ok = false;
  bool baseline_ok = false;

  Setup() {
    base = fs::temp_directory_path() / fmt::format("keel_pipeline_bench_{}", ::getpid());
    keel_dir = base / "keel";
    full_dir = base / "full";
    ninja_dir = base / "ninja";
    baseline_dir = base / "baseline";
    generate(keel_dir);
    generate(full_dir);
    generate_ninja(ninja_dir);
    // Full builds; keel's files dated an hour back and one no-op so that its database records
    // stat data it can trust; one warm-up no-op for ninja.
    build(keel_dir, 2, true);
    build(full_dir, 2, true);
    ninja_ok = keel::bench::run_program({"/usr/bin/ninja", "-C", ninja_dir.string(), "-j2"}) == 0;
    backdate(keel_dir);
    build(keel_dir, 1, false);
    if (ninja_ok)
      ninja_ok = keel::bench::run_program({"/usr/bin/ninja", "-C", ninja_dir.string()}) == 0;
    if (!baseline.empty()) {
      // The baseline program makes and keeps its own database (its format may differ).
      generate(baseline_dir);
      const std::string project = (baseline_dir / "project.kproj").string();
      baseline_ok =
          keel::bench::run_program({baseline, "-p", project, "-j2", "--no-progress"}) == 0;
      backdate(baseline_dir);
      baseline_ok = baseline_ok && keel::bench::run_program(
                                       {baseline, "-p", project, "-j1", "--no-progress"}) == 0;
    }
  }
  ~Setup() {
    std::error_code ec;
    fs::remove_all(base, ec);
  }

  static DataFileReport build(const fs::path& dir, unsigned jobs, bool force) {
    keel::text::Diagnostics diag;
    std::optional<Project> project = load_project(dir / "project.kproj", diag);
    if (!project) std::abort();
    HandlerRegistry handlers;
    register_builtin_handlers(handlers);
    Builder builder(*project, handlers,
                    {.jobs = jobs, .force_rebuild = force, .force_repack = false});
    keel::Result<DataFileReport> r = builder.build("PC", "main.kcmd");
    if (!r || !r->ok) std::abort();
    return *r;
  }
};

Setup& setup() {
  static Setup s;
  return s;
}

void BM_KeelNoOpBuild(benchmark::State& state) {
  Setup& s = setup();
  const auto jobs = static_cast<unsigned>(state.range(0));
  for (auto _ : state) {
    const DataFileReport r = Setup::build(s.keel_dir, jobs, false);
    if (r.built != 0 || r.repacked || r.up_to_date != kAssets) {
      state.SkipWithError("the no-op build did work");
      break;
    }
  }
  state.SetItemsProcessed(state.iterations() * kAssets);
}
BENCHMARK(BM_KeelNoOpBuild)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

// Runs `args` once per iteration; the counter child_cpu_ms is the CPU time (user + system) of
// each run, which other processes on a shared machine disturb less than the real time.
void run_processes(benchmark::State& state, const std::vector<std::string>& args,
                   const char* failed) {
  auto child_cpu_ms = [] {
    rusage usage{};
    ::getrusage(RUSAGE_CHILDREN, &usage);
    auto ms = [](const timeval& t) {
      return static_cast<double>(t.tv_sec) * 1e3 + t.tv_usec / 1e3;
    };
    return ms(usage.ru_utime) + ms(usage.ru_stime);
  };
  const double cpu_before = child_cpu_ms();
  for (auto _ : state) {
    if (keel::bench::run_program(args) != 0) {
      state.SkipWithError(failed);
      break;
    }
  }
  state.counters["child_cpu_ms"] =
      benchmark::Counter(child_cpu_ms() - cpu_before, benchmark::Counter::kAvgIterations);
  state.SetItemsProcessed(state.iterations() * kAssets);
}

// A no-op keel-build process on the project in `dir`.
void run_no_op_process(benchmark::State& state, const std::string& program, const fs::path& dir) {
  run_processes(state,
                {program, "-p", (dir / "project.kproj").string(), "--platform", "PC", "-j1",
                 "--no-progress", "main.kcmd"},
                "keel-build failed");
}

#ifdef KEEL_BUILD_EXE
void BM_KeelNoOpProcess(benchmark::State& state) {
  const std::string program = environment("KEEL_BENCH_KEEL_BUILD");
  run_no_op_process(state, program.empty() ? std::string(KEEL_BUILD_EXE) : program,
                    setup().keel_dir);
}
BENCHMARK(BM_KeelNoOpProcess)->Unit(benchmark::kMillisecond)->UseRealTime();
#endif

void BM_KeelNoOpProcessBaseline(benchmark::State& state) {
  Setup& s = setup();
  if (!s.baseline_ok) {
    state.SkipWithError(s.baseline.empty() ? "KEEL_BENCH_BASELINE_KEEL_BUILD is not set"
                                           : "the baseline keel-build failed to build");
    return;
  }
  run_no_op_process(state, s.baseline, s.baseline_dir);
}
BENCHMARK(BM_KeelNoOpProcessBaseline)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_NinjaNoOpBuild(benchmark::State& state) {
  Setup& s = setup();
  if (!s.ninja_ok) {
    state.SkipWithError("ninja did not build the graph");
    return;
  }
  run_processes(state, {"/usr/bin/ninja", "-C", s.ninja_dir.string()}, "ninja failed");
}
BENCHMARK(BM_NinjaNoOpBuild)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_KeelFullBuild(benchmark::State& state) {
  Setup& s = setup();
  const auto jobs = static_cast<unsigned>(state.range(0));
  for (auto _ : state) {
    const DataFileReport r = Setup::build(s.full_dir, jobs, true);
    if (r.built != kAssets || !r.repacked) {
      state.SkipWithError("the full build did not build everything");
      break;
    }
  }
  state.SetItemsProcessed(state.iterations() * kAssets);
}
BENCHMARK(BM_KeelFullBuild)
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(3);

}  // namespace

KEEL_BENCH_RATIO("no-op build of 10,000 assets: keel -j1 / ninja (goal <= 1.5)",
                 "BM_KeelNoOpBuild/1/real_time", "BM_NinjaNoOpBuild/real_time");
KEEL_BENCH_RATIO("no-op build of 10,000 assets: keel -j2 / ninja (goal <= 1.5)",
                 "BM_KeelNoOpBuild/2/real_time", "BM_NinjaNoOpBuild/real_time");
#ifdef KEEL_BUILD_EXE
KEEL_BENCH_RATIO(
    "no-op build of 10,000 assets, whole processes: keel-build -j1 / ninja (goal <= 1.0)",
    "BM_KeelNoOpProcess/real_time", "BM_NinjaNoOpBuild/real_time");
KEEL_BENCH_RATIO("no-op build of 10,000 assets, whole processes: keel-build / baseline keel-build",
                 "BM_KeelNoOpProcess/real_time", "BM_KeelNoOpProcessBaseline/real_time");
#endif
KEEL_BENCH_RATIO("no-op build of 10,000 assets, whole processes: baseline keel-build -j1 / ninja",
                 "BM_KeelNoOpProcessBaseline/real_time", "BM_NinjaNoOpBuild/real_time");
KEEL_BENCH_RATIO("full build of 10,000 assets: -j1 / -j2 time = speed-up of -j2",
                 "BM_KeelFullBuild/1/iterations:3/real_time",
                 "BM_KeelFullBuild/2/iterations:3/real_time");

KEEL_BENCH_MAIN()
