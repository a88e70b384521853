// keel-hash: build-time hash tools (Golden Rules ch. 3).
//   keel-hash check FILE [--hash H]     every collision among the names in FILE (one per line)
//   keel-hash dir PATH [--hash H] [--leaf]   the book's filenamehash: recursive scan of PATH
//   keel-hash name NAME... [--hash H]   print the hash of each name
//   keel-hash birthday N [--book]       the birthday-paradox table for N possible values
//   keel-hash dna vertex|material [CODE]   the book's DNA layout (Tables 3.2, 3.3), or CODE decoded
// Exit status: 0 fine, 1 collisions found, 2 error. The hashing logic lives in keel/hashing; the
// birthday table and the two DNA layouts (book exercises) live beside this file.
#include "birthday.h"
#include "dna_layouts.h"
#include "keel/hashing/collision_check.h"

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <exception>
#include <stdexcept>
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

// The layout's fields (first bit, width, legal values), or each field's value in `code`.
int print_dna(const std::string& kind, const std::string& code_text) {
  const keel::hashing::DnaLayout& layout = kind == "vertex"
                                               ? keel::hash_tool::vertex_shader_layout()
                                               : keel::hash_tool::material_layout();
  if (code_text.empty()) {
    fmt::print("{} DNA: {} fields, {} legal codes\n", layout.name(), layout.field_count(),
               layout.legal_count());
    for (keel::usize i = 0; i < layout.field_count(); ++i) {
      const keel::hashing::DnaField& f = layout.field(i);
      fmt::print("  bits {:2}-{:2}  {:<12} {} values\n", f.first_bit, f.first_bit + f.bits - 1,
                 f.name, f.values);
    }
    return 0;
  }
  keel::u32 code = 0;
  try {
    const unsigned long long parsed = std::stoull(code_text, nullptr, 0);
    if (parsed > 0xFFFF'FFFFull) throw std::out_of_range("code");
    code = static_cast<keel::u32>(parsed);
  } catch (const std::exception&) {
    fmt::print(stderr, "keel-hash: '{}' is not a 32-bit code\n", code_text);
    return 2;
  }
  const keel::Result<std::vector<keel::u32>> genes = layout.decode(code);
  if (!genes) {
    fmt::print(stderr, "keel-hash: {}\n", genes.error().to_string());
    return 2;
  }
  fmt::print("{} DNA 0x{:08X}\n", layout.name(), code);
  for (keel::usize i = 0; i < genes->size(); ++i) {
    fmt::print("  {:<12} {}\n", layout.field(i).name, (*genes)[i]);
  }
  return 0;
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
  keel::hash_tool::BirthdayOptions birthday_options;
  CLI::App* birthday = app.add_subcommand("birthday", "collision chance against sample count");
  birthday->add_option("N", values, "number of possible values (e.g. 4294967296 for 32 bits)")
      ->required();
  birthday->add_flag("--book", book, "reproduce the book's table (its off-by-one product)");
  birthday->add_option("--first", birthday_options.first, "first reported probability");
  birthday->add_option("--step", birthday_options.step, "probability step between rows");

  std::string dna_kind;
  std::string dna_code;
  CLI::App* dna = app.add_subcommand("dna", "the book's DNA layouts, or one code decoded");
  dna->add_option("KIND", dna_kind, "vertex (Table 3.2) or material (Table 3.3)")
      ->required()
      ->check(CLI::IsMember({"vertex", "material"}));
  dna->add_option("CODE", dna_code, "a code to decode (decimal or 0x hexadecimal)");

  CLI11_PARSE(app, argc, argv);

  if (*dna) return print_dna(dna_kind, dna_code);

  if (*birthday) {
    birthday_options.mode =
        book ? keel::hash_tool::BirthdayMode::kBook : keel::hash_tool::BirthdayMode::kCorrect;
    auto rows = keel::hash_tool::birthday_table(values, birthday_options);
    if (!rows) {
      fmt::print(stderr, "keel-hash: {}\n", rows.error().to_string());
      return 2;
    }
    for (const std::string& line : keel::hash_tool::birthday_report(values, *rows)) {
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
