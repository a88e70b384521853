// keel-save: inspect save games (Golden Rules ch. 8).
//   keel-save info FILE     header (level, version, thumbnail), object counts by class
//   keel-save dump FILE     every object, field and pointer in readable form
//   keel-save verify FILE.. checksums, decompression and the object stream; exit 1 if damaged
// Exit status: 0 fine, 1 a file is damaged, 2 usage or I/O error. The logic is keel/save's
// inspect.h: saves carry their classes' schema, so no game code is needed.
#include "keel/core/file.h"
#include "keel/save/inspect.h"

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace {

using namespace keel;

int report(const std::string& path, const Error& error) {
  fmt::print(stderr, "keel-save: {}: {}\n", path, error.to_string());
  return error.code() == ErrorCode::kIo ? 2 : 1;
}

int run(const std::string& command, const std::vector<std::string>& files) {
  int worst = 0;
  for (const std::string& path : files) {
    auto bytes = read_file(path);
    if (!bytes) {
      worst = std::max(worst, report(path, bytes.error()));
      continue;
    }
    auto in = save::inspect(as_bytes(*bytes));
    if (!in) {
      worst = std::max(worst, report(path, in.error()));
      continue;
    }
    if (command == "info") {
      fmt::print("{}:\n{}", path, save::format_info(*in));
    } else if (command == "dump") {
      fmt::print("{}:\n{}", path, save::format_dump(*in));
    } else {
      usize objects = 0;
      for (const auto& s : in->sets) objects += s.objects.size();
      fmt::print("{}: OK ({} objects, {} bytes)\n", path, objects, in->file_size);
    }
  }
  return worst;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"keel-save: inspect save games"};
  app.require_subcommand(1);
  std::vector<std::string> files;
  for (const char* name : {"info", "dump", "verify"}) {
    auto* sub = app.add_subcommand(name, std::string(name) + " a save file");
    sub->add_option("files", files, "save files")->required()->expected(1, -1);
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : 2;
  }
  return run(app.get_subcommands().front()->get_name(), files);
}
