// Parser throughput on a large generated command file (about 16 MB of scripts, asset commands,
// comments and PLATFORM blocks), against a plain byte-by-byte scan of the same buffer that only
// counts statement ends: the floor any parser that reads every byte once has to pay.
// Error reporting on hostile input: 100,000 statements that each earn an error (parsed, reported
// and rendered with the default error limit) against parsing and checking 100,000 good ones.
#include "bench_support.h"

#include "keel/text/document.h"
#include "keel/text/platform.h"
#include "keel/text/signature.h"

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <string>

namespace {

const std::string& big_file() {
  static const std::string text = [] {
    std::string s;
    for (int i = 0; s.size() < 16u * 1024 * 1024; ++i) {
      s += fmt::format(
          "// asset {0}\n"
          "Texture(\"face_{0}\")\n{{\n"
          "    PLATFORM(\"PC\")    SIZE(512, 512);\n"
          "    PLATFORM(\"-PC\")   SIZE(128, 128);\n"
          "    Source('art/faces/face_{0}.tga'); Mips(4, -0.5, 1e-3);\n}}\n"
          "SCRIPT(\"guard_{0}\")\n{{\n"
          "    IF(health, lessthan, {1}) CHANGESCRIPT(\"RUNAWAY\");\n"
          "    PAUSE(5); // wait a bit\n"
          "    IF(alert, equals, 1) {{ CALLSCRIPT(\"shout\"); PAUSESECONDS(0.5); }}\n}}\n",
          i, i % 100);
    }
    return s;
  }();
  return text;
}

void BM_Parse(benchmark::State& state) {
  const std::string& text = big_file();
  for (auto _ : state) {
    keel::text::Diagnostics diag;
    auto doc = keel::text::parse(text, "big.txt", diag);  // copies the buffer, as reading would
    benchmark::DoNotOptimize(doc->first());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * text.size()));
}
BENCHMARK(BM_Parse)->Unit(benchmark::kMillisecond);

void BM_ParseAndPreprocess(benchmark::State& state) {
  const std::string& text = big_file();
  for (auto _ : state) {
    keel::text::Diagnostics diag;
    auto doc = keel::text::parse(text, "big.txt", diag);
    keel::text::preprocess_platform(*doc, "PC", diag);
    benchmark::DoNotOptimize(doc->first());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * text.size()));
}
BENCHMARK(BM_ParseAndPreprocess)->Unit(benchmark::kMillisecond);

void BM_ByteScan(benchmark::State& state) {
  const std::string& text = big_file();
  for (auto _ : state) {
    std::string copy = text;  // same buffer copy as the parser's
    unsigned ends = 0;
    for (const char *p = copy.data(), *e = p + copy.size(); p != e; ++p) {
      benchmark::DoNotOptimize(ends += (*p == ';'));
    }
    benchmark::DoNotOptimize(ends);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * text.size()));
}
BENCHMARK(BM_ByteScan)->Unit(benchmark::kMillisecond);

std::string lines(std::string_view line, int count) {
  std::string s;
  for (int i = 0; i < count; ++i) s += line;
  return s;
}

void BM_Check100kGoodLines(benchmark::State& state) {
  static const std::string text = lines("SET(a, 1);\n", 100'000);
  for (auto _ : state) {
    keel::text::Diagnostics diag;
    auto doc = keel::text::parse(text, "good.txt", diag);
    for (const keel::text::Token& t : keel::text::chain(doc->first())) {
      benchmark::DoNotOptimize(
          keel::text::check_command(t, diag, {keel::text::kName, keel::text::kNumber}));
    }
    benchmark::DoNotOptimize(diag.render(*doc));
  }
}
BENCHMARK(BM_Check100kGoodLines)->Unit(benchmark::kMillisecond);

void BM_Report100kBadLines(benchmark::State& state) {
  static const std::string text = lines("X(1);\n", 100'000);
  for (auto _ : state) {
    keel::text::Diagnostics diag;
    auto doc = keel::text::parse(text, "bad.txt", diag);
    for (const keel::text::Token& t : keel::text::chain(doc->first())) {
      diag.error(t, "`{}` is not a statement", t.text);
    }
    benchmark::DoNotOptimize(diag.render(*doc));
  }
}
BENCHMARK(BM_Report100kBadLines)->Unit(benchmark::kMillisecond);

KEEL_BENCH_RATIO("text parse vs byte-by-byte scan", "BM_Parse", "BM_ByteScan");
KEEL_BENCH_RATIO("text 100k error lines vs 100k good lines", "BM_Report100kBadLines",
                 "BM_Check100kGoodLines");

}  // namespace

KEEL_BENCH_MAIN()
