// Shared Google Benchmark main for Keel's benchmark executables.
//
// A benchmark that has a peer or a baseline declares the comparison once:
//   KEEL_BENCH_RATIO("profile scope vs rdtsc floor", "BM_KeelScope", "BM_RdtscFloor");
// After all benchmarks ran, the main prints one line per comparison:
//   ratio=1.84 profile scope vs rdtsc floor (BM_KeelScope 20.1 ns / BM_RdtscFloor 10.9 ns)
// The ratio is numerator time / denominator time (real time per iteration): below 1 means the
// numerator is faster. scripts/bench.sh collects these lines from every executable.
#pragma once

#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include <sys/types.h>

namespace keel::bench {

struct RatioRegistrar {
  RatioRegistrar(std::string label, std::string numerator, std::string denominator);
};

// Runs the registered benchmarks, then prints the ratio lines. Returns the process exit code.
int run_main(int argc, char** argv);

// Ratio of two measured benchmarks after a run (for custom output); < 0 if either is missing.
double measured_ns(const std::string& benchmark_name);

// Starts the program args[0] (a path) with `args`, its stdout sent to `output` (created or
// truncated; /dev/null by default) and, with `with_stderr`, its stderr too. The pid, or -1.
pid_t spawn_program(const std::vector<std::string>& args, const std::string& output = "/dev/null",
                    bool with_stderr = false);
// Waits for `pid`: its exit status (-1 when it did not exit normally or the wait failed), and its
// peak resident set in KiB in `peak_rss_kib` when given.
int wait_program(pid_t pid, long* peak_rss_kib = nullptr);
// spawn_program, then wait_program.
int run_program(const std::vector<std::string>& args, const std::string& output = "/dev/null",
                bool with_stderr = false, long* peak_rss_kib = nullptr);

}  // namespace keel::bench

#define KEEL_BENCH_CONCAT_(a, b) a##b
#define KEEL_BENCH_CONCAT(a, b) KEEL_BENCH_CONCAT_(a, b)
#define KEEL_BENCH_RATIO(label, numerator, denominator)                                       \
  static const ::keel::bench::RatioRegistrar KEEL_BENCH_CONCAT(keel_bench_ratio_, __LINE__) { \
    label, numerator, denominator                                                             \
  }
#define KEEL_BENCH_MAIN() \
  int main(int argc, char** argv) { return ::keel::bench::run_main(argc, argv); }
