// keel-highscore: prints the high-score table kept in highscor.dat, adds a score, or resets it.
//
//   keel-highscore                      print the table (creating the file with the defaults)
//   keel-highscore --add Ada 95         insert a score if it makes the table, then print
//   keel-highscore --reset              delete the file: the defaults come back next time
//   --file PATH                         another file than ./highscor.dat
#include "examples/highscore/high_score_table.h"

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <charconv>
#include <cstdio>
#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

namespace {

using keel::ErrorCode;
using keel::examples::HighScoreTable;

void print(const HighScoreTable& table) {
  for (keel::usize i = 0; i < HighScoreTable::kEntries; ++i) {
    const auto& entry = table.entries()[i];
    fmt::print("{:>2}. {:<20} {:>10}\n", i + 1, entry.name, entry.score);
  }
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Keel high-score table (the Enginuity seed's example on keel::serial)"};
  std::string file = "highscor.dat";
  std::vector<std::string> add;
  bool reset = false;
  app.add_option("--file", file, "high-score file");
  app.add_option("--add", add, "insert a score: NAME SCORE")->expected(2);
  app.add_flag("--reset", reset, "delete the file (the defaults come back)");
  CLI11_PARSE(app, argc, argv);

  const std::filesystem::path path = file;
  if (reset) {
    std::error_code ec;
    std::filesystem::remove(path, ec);
    if (ec) {
      fmt::print(stderr, "{}: cannot delete: {}\n", file, ec.message());
      return 1;
    }
    fmt::print("{} deleted; the table is back to its defaults\n", file);
    return 0;
  }

  HighScoreTable table;
  bool dirty = false;
  if (auto loaded = table.load(path); !loaded) {
    if (loaded.error().code() != ErrorCode::kNotFound) {
      // Never overwrite a file we could not read: the user may want it back.
      fmt::print(stderr, "{}\n(delete the file or use --reset to start again)\n",
                 loaded.error().to_string());
      return 1;
    }
    dirty = true;  // no file yet: write the defaults, as the seed does
  }

  if (!add.empty()) {
    keel::u32 score = 0;
    const std::string& text = add[1];
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), score);
    if (ec != std::errc{} || end != text.data() + text.size()) {
      fmt::print(stderr, "score '{}' is not a number from 0 to 4294967295\n", text);
      return 2;
    }
    if (auto rank = table.add(add[0], score)) {
      fmt::print("{} enters the table at #{}\n", add[0], *rank + 1);
      dirty = true;
    } else {
      fmt::print("{} does not make the table\n", score);
    }
  }

  if (dirty) {
    if (auto saved = table.save(path); !saved) {
      fmt::print(stderr, "{}\n", saved.error().to_string());
      return 1;
    }
  }
  print(table);
  return 0;
}
