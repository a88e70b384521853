// keel-speedup: the book's Table 9.2 ("results might not match expectations"): what making one
// function faster does to every function's share of the frame.
//
//   keel-speedup                         the book's example: 32 23 15 10 3 2, the first 2x faster
//   keel-speedup --index 1 --saved 0.25 40 30 20   another profile (% of frame per function)
#include "examples/speedup/speedup.h"

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <vector>

int main(int argc, char** argv) {
  CLI::App app{"Predict the frame percentages after speeding up one function (Table 9.2)"};
  std::vector<double> before{32, 23, 15, 10, 3, 2};
  keel::usize index = 0;
  double saved = 0.5;
  app.add_option("PERCENT", before, "each function's share of the frame before, in %");
  app.add_option("--index", index, "the function made faster (0-based)");
  app.add_option("--saved", saved, "fraction of its time removed (0.5 = twice as fast)");
  CLI11_PARSE(app, argc, argv);

  const keel::Result<keel::examples::SpeedupPrediction> r =
      keel::examples::predict_speedup(before, index, saved);
  if (!r) {
    fmt::print(stderr, "keel-speedup: {}\n", r.error().to_string());
    return 2;
  }
  fmt::print("function  before %  after %\n");
  for (keel::usize i = 0; i < before.size(); ++i) {
    fmt::print("{:>8}  {:>8.1f}  {:>7.1f}{}\n", i, before[i], r->after_pct[i],
               i == index ? "  <- sped up" : "");
  }
  fmt::print("new frame: {:.1f} parts of the old 100; apparent improvement {:.1f}%\n",
             r->frame_parts, r->apparent_improvement_pct);
  return 0;
}
