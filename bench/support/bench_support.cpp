#include "bench_support.h"

#include <cstdio>
#include <map>
#include <vector>

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

}  // namespace keel::bench
