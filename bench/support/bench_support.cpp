#include "bench_support.h"

#include <cstdio>
#include <map>
#include <vector>

#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>

extern char** environ;

namespace keel::bench {
namespace {

struct Ratio {
  std::string label, numerator, denominator;
};

std::vector<Ratio>& ratios() {
  static std::vector<Ratio> list;
  return list;
}

std::map<std::string, double>& results() {
  static std::map<std::string, double> ns;
  return ns;
}

// Console output as usual, plus the real time per iteration of every plain (non-aggregate) run.
class CapturingReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& run : runs) {
      if (run.error_occurred) continue;
      if (run.run_type == Run::RT_Aggregate && run.aggregate_name != "mean") continue;
      const double ns =
          run.GetAdjustedRealTime() / benchmark::GetTimeUnitMultiplier(run.time_unit) * 1e9;
      std::string name = run.run_name.str();
      results()[name] = ns;
    }
    ConsoleReporter::ReportRuns(runs);
  }
};

}  // namespace

RatioRegistrar::RatioRegistrar(std::string label, std::string numerator, std::string denominator) {
  ratios().push_back({std::move(label), std::move(numerator), std::move(denominator)});
}

double measured_ns(const std::string& benchmark_name) {
  auto it = results().find(benchmark_name);
  return it == results().end() ? -1.0 : it->second;
}

int run_main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  CapturingReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  // The console reporter may leave a colour-reset sequence at the start of the next line.
  if (!ratios().empty()) std::printf("\033[0m\nratios:\n");
  for (const Ratio& r : ratios()) {
    const double num = measured_ns(r.numerator);
    const double den = measured_ns(r.denominator);
    if (num < 0 || den <= 0) {
      std::printf("ratio=n/a %s (not run: %s or %s)\n", r.label.c_str(), r.numerator.c_str(),
                  r.denominator.c_str());
      continue;
    }
    std::printf("ratio=%.2f %s (%s %.1f ns / %s %.1f ns)\n", num / den, r.label.c_str(),
                r.numerator.c_str(), num, r.denominator.c_str(), den);
  }
  std::fflush(stdout);
  return 0;
}

pid_t spawn_program(const std::vector<std::string>& args, const std::string& output,
                    bool with_stderr) {
  std::vector<char*> argv;
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, output.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (with_stderr) posix_spawn_file_actions_adddup2(&actions, 1, 2);
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  return spawned == 0 ? pid : -1;
}

int wait_program(pid_t pid, long* peak_rss_kib) {
  if (pid < 0) return -1;
  int status = 0;
  rusage usage{};
  if (::wait4(pid, &status, 0, &usage) != pid) return -1;
  if (peak_rss_kib != nullptr) *peak_rss_kib = usage.ru_maxrss;  // KiB on Linux
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int run_program(const std::vector<std::string>& args, const std::string& output, bool with_stderr,
                long* peak_rss_kib) {
  return wait_program(spawn_program(args, output, with_stderr), peak_rss_kib);
}

}  // namespace keel::bench
