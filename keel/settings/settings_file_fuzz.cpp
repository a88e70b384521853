// Fuzz target: settings-file text applied to a registry with a setting of each kind. Checks, beyond
// "no crash": every error has a location, and the registry written back as a file reads back into
// a fresh registry without errors and to the same text (the write-back round trip).
#include "keel/settings/settings.h"

#include "keel/core/bytes.h"

#include <cstddef>
#include <cstdint>
#include <list>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace {

struct Registry {
  bool flag = false;
  int number = 0;
  keel::u8 percent = 50;
  keel::s64 big = 0;
  float ratio = 1.0f;
  double scale = 0.5;
  std::string text = "start";
  std::vector<std::string> names;
  std::list<int> ids;
  std::vector<double> weights;
  int changes = 0;
  keel::settings::Settings settings;

  Registry() {
    settings.add("flag", flag, "a bool");
    settings.add("number", number, "an int");
    settings.add("percent", percent, "0 to 100").range(0, 100);
    settings.add("big", big);
    settings.add("ratio", ratio);
    settings.add("scale", scale);
    settings.add("text", text, "a string\nwith two help lines");
    settings.add("names", names).check_list([](const std::vector<std::string>& v) {
      return v.size() <= 64 ? std::string() : "too many names";
    });
    settings.add("ids", ids).range(-1000, 1000).check_list([](const std::list<int>& v) {
      return v.size() <= 256 ? std::string() : "too many ids";
    });
    settings.add("weights", weights).check_list([](const std::vector<double>& v) {
      return v.size() <= 256 ? std::string() : "too many weights";
    });
    settings.on_change(
        [this](const keel::settings::Setting&, std::string_view, std::string_view) { ++changes; });
  }
};

// Real settings files are small; larger inputs only slow the fuzzer down.
constexpr size_t kMaxInput = 1u << 14;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > kMaxInput) return 0;
  const std::string_view input = keel::as_chars(keel::as_bytes(std::span(data, size)));

  Registry a;
  for (const keel::Error& e : a.settings.apply_text(input, "fuzz.cfg")) {
    if (e.where().line == 0 || e.where().column == 0) __builtin_trap();
  }
  (void)a.settings.list();

  const std::string written = a.settings.to_file_text();
  Registry b;
  if (!b.settings.apply_text(written, "written.cfg").empty()) __builtin_trap();
  if (b.settings.to_file_text() != written) __builtin_trap();
  return 0;
}
