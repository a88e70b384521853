// Fuzz target: command-line arguments (the input split at NUL bytes) applied to a registry with a
// setting of each kind. Checks, beyond "no crash": the arguments handed back are the untouched
// originals in their original order, and the resulting settings round-trip through a file.
#include "keel/settings/settings.h"

#include "keel/core/bytes.h"

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace {

struct Registry {
  bool fullscreen = false;
  int width = 800;
  unsigned level = 1;
  double gamma = 1.0;
  std::string name = "start";
  std::vector<std::string> maps;
  std::vector<int> ports;
  keel::settings::Settings settings;

  Registry() {
    settings.add("fullscreen", fullscreen);
    settings.add("width", width).range(320, 7680);
    settings.add("level", level);
    settings.add("gamma", gamma);
    settings.add("name", name);
    settings.add("maps", maps);
    settings.add("ports", ports).range(1, 65535);
  }
};

constexpr size_t kMaxArgs = 256;

// Real settings files are small; larger inputs only slow the fuzzer down.
constexpr size_t kMaxInput = 1u << 14;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > kMaxInput) return 0;
  const std::string_view input = keel::as_chars(keel::as_bytes(std::span(data, size)));
  std::vector<std::string_view> args;
  size_t pos = 0;
  while (pos <= input.size() && args.size() < kMaxArgs) {
    size_t end = input.find('\0', pos);
    if (end == std::string_view::npos) end = input.size();
    args.push_back(input.substr(pos, end - pos));
    pos = end + 1;
  }

  Registry a;
  const keel::settings::ArgsResult result = a.settings.apply_args(args);
  // `rest` is a subsequence of `args`, made of the very same views.
  size_t next = 0;
  for (std::string_view r : result.rest) {
    while (next < args.size() && args[next].data() != r.data()) ++next;
    if (next == args.size() || args[next].size() != r.size()) __builtin_trap();
    ++next;
  }
  if (result.rest.size() + result.errors.size() > args.size()) __builtin_trap();

  const std::string written = a.settings.to_file_text();
  Registry b;
  if (!b.settings.apply_text(written, "written.cfg").empty()) __builtin_trap();
  if (b.settings.to_file_text() != written) __builtin_trap();
  return 0;
}
