// binsearch: Golden Rules' chapter-2 demo. Reads a text file, makes a sorted list of its words
// (duplicates kept), picks some at random and finds each with linear and with binary search,
// printing both iteration counts. Linear search only wins for words among the first log2 n.
//
//   binsearch FILE [--count N] [--seed S] [--word W ...]
#include "keel/core/file.h"
#include "keel/spatial/search.h"

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <random>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace {

using keel::u32;
using keel::usize;

std::vector<std::string_view> words_of(std::string_view text) {
  std::vector<std::string_view> words;
  usize at = 0;
  const auto in_word = [&](usize i) {
    const auto c = static_cast<unsigned char>(text[i]);
    return std::isalnum(c) != 0 || c == '_' || c >= 0x80;
  };
  while (at < text.size()) {
    if (!in_word(at)) {
      ++at;
      continue;
    }
    const usize begin = at;
    while (at < text.size() && in_word(at)) ++at;
    words.push_back(text.substr(begin, at - begin));
  }
  return words;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Linear against binary search over the words of a text file (Golden Rules ch. 2)"};
  std::string file;
  usize count = 10;
  u32 seed = 1;
  std::vector<std::string> chosen;
  app.add_option("file", file, "text file")->required();
  app.add_option("--count", count, "random words to look up");
  app.add_option("--seed", seed, "random seed");
  app.add_option("--word", chosen, "also look up this word (repeatable)");
  CLI11_PARSE(app, argc, argv);

  const keel::Result<std::string> text = keel::read_file(file);
  if (!text) {
    fmt::print(stderr, "binsearch: {}\n", text.error().to_string());
    return 1;
  }
  std::vector<std::string_view> words = words_of(*text);
  if (words.empty()) {
    fmt::print(stderr, "binsearch: {}: no words\n", file);
    return 1;
  }
  std::sort(words.begin(), words.end());
  const std::span<const std::string_view> sorted(words);
  const double log2n = std::log2(static_cast<double>(words.size()));
  fmt::print("{} words (sorted, duplicates kept); log2 n = {:.1f}\n", words.size(), log2n);
  fmt::print("{:<24} {:>7} {:>7} {:>7}\n", "word", "index", "linear", "binary");

  std::mt19937 rng(seed);
  std::vector<std::string> lookups = chosen;
  for (usize i = 0; i < count; ++i) lookups.emplace_back(words[rng() % words.size()]);
  usize linear_wins = 0;
  bool contradicted = false;
  for (const std::string& w : lookups) {
    const keel::spatial::SearchResult lin =
        keel::spatial::linear_search(sorted, std::string_view(w));
    const keel::spatial::SearchResult bin =
        keel::spatial::binary_search(sorted, std::string_view(w));
    const std::string index = lin.found() ? fmt::format("{}", *lin.index) : "-";
    fmt::print("{:<24} {:>7} {:>7} {:>7}{}\n", w, index, lin.probes, bin.probes,
               lin.probes < bin.probes ? "  linear wins" : "");
    if (lin.probes < bin.probes) {
      ++linear_wins;
      if (!lin.found() || static_cast<double>(*lin.index) >= log2n) contradicted = true;
    }
  }
  fmt::print("linear beat binary for {} of {} words{}\n", linear_wins, lookups.size(),
             linear_wins == 0 ? "" : fmt::format(", each with index < log2 n = {:.1f}", log2n));
  return contradicted ? 2 : 0;
}
