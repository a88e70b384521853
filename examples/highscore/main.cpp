// keel-highscore: prints the high-score table kept in highscor.dat, adds a score, or resets it.
//
//   keel-highscore                      print the table (creating the file with the defaults)
//   keel-highscore --add Ada 95         insert a score if it makes the table, then print
//   keel-highscore --reset              delete the file: the defaults come back next time
//   --file PATH                         another file than ./highscor.dat
// Exit status: 0 fine, 1 a damaged table (the file is kept), 2 usage or I/O errors. --reset
// deletes only a regular file (never a directory, device or link) of at most a table's size.
// Temporaries of a save that was killed (`<file>.tmp.<dead pid>.*`) are deleted on every run.
#include "keel/core/file.h"
#include "keel/serial/high_score_table.h"

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
using keel::serial::HighScoreTable;

// Ten names of at most kMaxNameLength bytes with their lengths and scores.
constexpr std::uintmax_t kMaxTableBytes =
    HighScoreTable::kEntries * (8 + HighScoreTable::kMaxNameLength);

void print(const HighScoreTable& table) {
  for (keel::usize i = 0; i < HighScoreTable::kEntries; ++i) {
    const auto& entry = table.entries()[i];
    fmt::print("{:>2}. {:<20} {:>10}\n", i + 1, entry.name, entry.score);
  }
}

// Deletes the table file; refuses anything that is not one (issue 15: an empty directory given
// with --file was deleted).
int reset_file(const std::filesystem::path& path) {
  std::error_code ec;
  const auto st = std::filesystem::symlink_status(path, ec);
  if (!std::filesystem::exists(st)) {
    fmt::print("{} does not exist; the table is at its defaults\n", path.string());
    return 0;
  }
  if (!std::filesystem::is_regular_file(st)) {
    fmt::print(stderr, "{}: refusing to delete: not a regular file (a high-score file is)\n",
               path.string());
    return 2;
  }
  if (std::filesystem::file_size(path, ec) > kMaxTableBytes) {
    fmt::print(stderr, "{}: refusing to delete: {} bytes is too big for a high-score file\n",
               path.string(), std::filesystem::file_size(path, ec));
    return 2;
  }
  if (!std::filesystem::remove(path, ec) || ec) {
    fmt::print(stderr, "{}: cannot delete: {}\n", path.string(), ec.message());
    return 2;
  }
  fmt::print("{} deleted; the table is back to its defaults\n", path.string());
  return 0;
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
  // A save killed mid-write leaves `<file>.tmp.<pid>.*` (the atomic write's temporary): delete
  // those of processes that are gone.
  if (const keel::usize removed = keel::remove_stale_temporaries_of(path); removed != 0) {
    fmt::print(stderr, "removed {} temporary file{} of an interrupted save\n", removed,
               removed == 1 ? "" : "s");
  }
  if (reset) return reset_file(path);

  std::error_code status_error;
  const auto st = std::filesystem::status(path, status_error);
  if (std::filesystem::exists(st) && !std::filesystem::is_regular_file(st)) {
    fmt::print(stderr, "{}: is not a regular file; give the high-score file with --file\n", file);
    return 2;
  }
  HighScoreTable table;
  bool dirty = false;
  if (auto loaded = table.load(path); !loaded) {
    if (loaded.error().code() == ErrorCode::kIo) {  // permissions and the like: not the data
      fmt::print(stderr, "{}: cannot read: {}\n", file, loaded.error().message());
      return 2;
    }
    if (loaded.error().code() != ErrorCode::kNotFound) {
      // Never overwrite a file we could not read: the user may want it back.
      fmt::print(stderr, "{}\n(use --reset to start again with the default table)\n",
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
      fmt::print(stderr, "{}: cannot write the table: {}\n", file, saved.error().message());
      return 2;
    }
  }
  print(table);
  return 0;
}
