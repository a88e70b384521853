// Peak memory of whole processes on one large generated asset (issue 15, "memory independent of
// asset and pack size"): a project with one Blob of KEEL_BENCH_BLOB_MB megabytes (default 500; a
// pattern zstd shrinks about 2:1) and a 3-byte Blob, then, each as its own process:
//
//   BM_FullBuild     keel-build --force-rebuild: hash the source, write the intermediate, repack
//   BM_NoOpBuild     keel-build again: nothing to do
//   BM_PackList      keel-pack list of the data file
//   BM_PackVerify    keel-pack verify of the data file
//   BM_PackExtract   keel-pack extract of the 3-byte asset (its chunk follows the large one)
//
// Each reports the child's peak RSS (getrusage: wait4's ru_maxrss) as the counter peak_rss_MiB
// and prints `peak_rss=<MiB> <what>`; the full build also prints `ratio=` peak RSS over its
// largest block (the goal: at most 2). KEEL_BENCH_KEEL_BUILD / KEEL_BENCH_KEEL_PACK run
// other builds of the programs (an older commit's, for before/after figures).
#include "bench_support.h"

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

std::string program(const char* variable, const char* built) {
  const char* other = std::getenv(variable);
  return other != nullptr && *other != '\0' ? std::string(other) : std::string(built);
}

unsigned long long blob_megabytes() {
  const char* mb = std::getenv("KEEL_BENCH_BLOB_MB");
  const unsigned long long n = mb != nullptr ? std::strtoull(mb, nullptr, 10) : 0;
  return n != 0 ? n : 500;
}

const fs::path& project_dir() {
  static const fs::path dir = fs::temp_directory_path() / "keel_bench_pipeline_memory";
  return dir;
}

void write(const fs::path& path, std::string_view text) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) std::abort();
  std::fwrite(text.data(), 1, text.size(), f);
  std::fclose(f);
}

// The project, generated once per run.
void generate() {
  static bool done = false;
  if (done) return;
  done = true;
  const fs::path& dir = project_dir();
  std::error_code ec;
  fs::remove_all(dir, ec);
  fs::create_directories(dir / "src");
  write(dir / "project.kproj",
        "Project(\"memory\");\nIntermediatePath(\"obj\");\nImagePath(\"image\");\n"
        "Platform(\"PC\");\nIncludePath(\"src\");\nDataFile(\"main.kcmd\");\n");
  write(dir / "main.kcmd", "Blob(\"big\", \"big.bin\");\nBlob(\"tiny\", \"tiny.bin\");\n");
  write(dir / "src" / "tiny.bin", "abc");
  // 1 MiB pieces of pseudo-random nibbles, each piece different: about 2:1 for zstd.
  std::string piece(std::size_t{1} << 20, '\0');
  std::FILE* f = std::fopen((dir / "src" / "big.bin").c_str(), "wb");
  if (f == nullptr) std::abort();
  unsigned x = 12345;
  const unsigned long long bytes = blob_megabytes() * 1'000'000ull;
  for (unsigned long long at = 0; at < bytes; at += piece.size()) {
    for (char& c : piece) {
      x = x * 1664525u + 1013904223u;
      c = static_cast<char>(0x40 | (x >> 28));
    }
    std::fwrite(piece.data(), 1,
                static_cast<std::size_t>(std::min<unsigned long long>(piece.size(), bytes - at)),
                f);
  }
  std::fclose(f);
}

// Runs a program (stdout to /dev/null); its peak RSS in MiB, or -1 when it failed.
double run_peak_mib(const std::vector<std::string>& args) {
  long peak_kib = 0;
  if (keel::bench::run_program(args, "/dev/null", false, &peak_kib) != 0) return -1;
  return static_cast<double>(peak_kib) / 1024.0;
}

void measure(benchmark::State& state, const std::string& what,
             const std::vector<std::string>& args) {
  generate();
  double peak = -1;
  for (auto _ : state) peak = run_peak_mib(args);
  if (peak < 0) {
    state.SkipWithError(fmt::format("{} failed", args[0]).c_str());
    return;
  }
  state.counters["peak_rss_MiB"] = peak;
  std::printf("peak_rss=%.0f MiB %s (%llu MB Blob)\n", peak, what.c_str(), blob_megabytes());
  if (what.starts_with("keel-build full")) {
    const double block_mib = static_cast<double>(blob_megabytes()) * 1e6 / (1 << 20);
    std::printf("ratio=%.2f keel-build full build peak RSS / largest block (%.0f MiB / %.0f MiB)\n",
                peak / block_mib, peak, block_mib);
  }
  std::fflush(stdout);
}

std::string keel_build() { return program("KEEL_BENCH_KEEL_BUILD", KEEL_BUILD_EXE); }
std::string keel_pack() { return program("KEEL_BENCH_KEEL_PACK", KEEL_PACK_EXE); }
std::string data_file() { return (project_dir() / "image" / "PC" / "main.kpk").string(); }

void BM_FullBuild(benchmark::State& state) {
  measure(state, "keel-build full build",
          {keel_build(), "-p", (project_dir() / "project.kproj").string(), "--force-rebuild"});
}
void BM_NoOpBuild(benchmark::State& state) {
  measure(state, "keel-build no-op build",
          {keel_build(), "-p", (project_dir() / "project.kproj").string()});
}
void BM_PackList(benchmark::State& state) {
  measure(state, "keel-pack list", {keel_pack(), "list", data_file()});
}
void BM_PackVerify(benchmark::State& state) {
  measure(state, "keel-pack verify", {keel_pack(), "verify", data_file()});
}
void BM_PackExtract(benchmark::State& state) {
  measure(
      state, "keel-pack extract (3-byte asset)",
      {keel_pack(), "extract", data_file(), "tiny", "-o", (project_dir() / "tiny.out").string()});
}

// In this order: the build makes the data file the others read.
BENCHMARK(BM_FullBuild)->Iterations(1)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_NoOpBuild)->Iterations(1)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_PackList)->Iterations(1)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_PackVerify)->Iterations(1)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_PackExtract)->Iterations(1)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

KEEL_BENCH_MAIN()
