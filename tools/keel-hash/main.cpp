// keel-hash: build-time hash tools (Golden Rules ch. 3).
//   keel-hash check FILE [--hash H]     every collision among the names in FILE (one per line)
//   keel-hash dir PATH [--hash H] [--leaf]   the book's filenamehash: recursive scan of PATH
//   keel-hash name NAME... [--hash H]   print the hash of each name
//   keel-hash birthday N [--book]       the birthday-paradox table for N possible values
// Exit status: 0 fine, 1 collisions found, 2 error. The logic lives in keel/hashing.
#include "keel/hashing/birthday.h"
#include "keel/hashing/collision_check.h"

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace {

using keel::hashing::CollisionReport;

int print_report(const keel::Result<CollisionReport>& report) {
  if (!report) {
    fmt::print(stderr, "keel-hash: {}\n", report.error().to_string());
    return 2;
  }
  for (const std::string& line : keel::hashing::format_report(*report)) fmt::print("{}\n", line);
  return report->collisions == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Keel hash tools: collision checks and the birthday-paradox table"};
  app.require_subcommand(1);
  std::string hash_spec = "filename";
  const std::string hash_help = "hash: filename, string, filename-signed, string-signed";

  std::string names_file;
  CLI::App* check = app.add_subcommand("check", "report every collision among a list of names");
  check->add_option("FILE", names_file, "one name per line; # comments")->required();
  check->add_option("--hash", hash_spec, hash_help);

  std::string dir;
  bool leaf = false;
  CLI::App* scan = app.add_subcommand("dir", "hash every file under PATH and count collisions");
  scan->add_option("PATH", dir)->required();
  scan->add_option("--hash", hash_spec, hash_help);
  scan->add_flag("--leaf", leaf, "hash file names only, not paths relative to PATH");

  std::vector<std::string> names;
  CLI::App* name = app.add_subcommand("name", "print the hash of each name");
  name->add_option("NAME", names)->required();
  name->add_option("--hash", hash_spec, hash_help);

  keel::u64 values = 0;
  bool book = false;
  keel::hashing::BirthdayOptions birthday_options;
  CLI::App* birthday = app.add_subcommand("birthday", "collision chance against sample count");
  birthday->add_option("N", values, "number of possible values (e.g. 4294967296 for 32 bits)")
      ->required();
  birthday->add_flag("--book", book, "reproduce the book's table (its off-by-one product)");
  birthday->add_option("--first", birthday_options.first, "first reported probability");
  birthday->add_option("--step", birthday_options.step, "probability step between rows");

  CLI11_PARSE(app, argc, argv);

  if (*birthday) {
    birthday_options.mode =
        book ? keel::hashing::BirthdayMode::kBook : keel::hashing::BirthdayMode::kCorrect;
    auto rows = keel::hashing::birthday_table(values, birthday_options);
    if (!rows) {
      fmt::print(stderr, "keel-hash: {}\n", rows.error().to_string());
      return 2;
    }
    for (const std::string& line : keel::hashing::birthday_report(values, *rows)) {
      fmt::print("{}\n", line);
    }
    return 0;
  }

  const keel::Result<keel::hashing::NameHash> hash = keel::hashing::parse_name_hash(hash_spec);
  if (!hash) {
    fmt::print(stderr, "keel-hash: {}\n", hash.error().to_string());
    return 2;
  }
  if (*check) return print_report(keel::hashing::check_names_file(names_file, *hash));
  if (*scan) return print_report(keel::hashing::check_directory(dir, *hash, {.leaf_names = leaf}));
  for (const std::string& n : names) fmt::print("0x{:08X} {}\n", (*hash)(n), n);
  return 0;
}
