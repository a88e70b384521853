// Fuzz target (spec check 37): arbitrary bytes as a script's command stream, run by the VM with
// the built-in and basic commands for a few frames; the same bytes as a serialized library go
// through Library::from_bytes. Nothing may crash, read out of bounds or run past the budget.
#include "keel/script/basic_commands.h"
#include "keel/script/library.h"
#include "keel/script/machine.h"

#include <cstdint>
#include <cstdlib>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace keel::script;
  static const CommandSet commands = [] {
    CommandSet c = default_commands();
    (void)add_basic_commands(c, nullptr);
    return c;
  }();
  const auto* bytes = reinterpret_cast<const std::byte*>(data);
  std::vector<std::byte> code(bytes, bytes + size);

  // 1. As a command stream (named "a"; CHANGESCRIPT/CALLSCRIPT may reach "a" or "b").
  Library lib;
  (void)lib.add_script(Script{keel::string_hash("a"), "a", code, {}, {}});
  (void)lib.add_script(Script{
      keel::string_hash("b"), "b", std::vector<std::byte>(code.rbegin(), code.rend()), {}, {}});
  Machine machine(commands, {.command_budget = 200, .max_call_depth = 8});
  if (!machine.add_library(lib)) std::abort();
  auto id = machine.start("a");
  auto id2 = machine.start("b");
  if (!id || !id2) std::abort();
  machine.set_variable(*id, "x", 3);
  for (int frame = 0; frame < 4; ++frame) machine.update(0.25);
  if (machine.total_commands() > 2u * 4u * 200u) std::abort();
  if (machine.state(*id) == InstanceState::kFailed && machine.error(*id) == nullptr) std::abort();
  (void)validate_stream(code);

  // 2. As a serialized library: a library that loads must validate and run.
  if (auto loaded = Library::from_bytes(code)) {
    for (const Script& s : loaded->scripts()) {
      if (!validate_stream(s.code)) std::abort();
    }
    // Writing what was read gives a canonical file that reads back to itself.
    const auto canonical = loaded->to_bytes();
    auto again_loaded = Library::from_bytes(canonical);
    if (!again_loaded || again_loaded->to_bytes() != canonical) std::abort();
    Machine again(commands);
    if (!again.add_library(*loaded)) std::abort();
    for (const Script& s : loaded->scripts()) (void)again.start(s.name_hash);
    for (int frame = 0; frame < 3; ++frame) again.update(0.1);
  }
  return 0;
}
